package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
)

// Schema checks one decoded JSON value (encoding/json with UseNumber) at
// path and returns what does not conform.
type Schema func(path string, v any) []string

// Check decodes body and checks it against s.
func Check(s Schema, body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{fmt.Sprintf("not JSON: %v", err)}
	}
	if dec.More() {
		return []string{"more than one JSON value"}
	}
	return s("$", v)
}

var (
	decimalRe = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
	hexRe     = regexp.MustCompile(`^0x([0-9a-f]{2})*$`)
)

// Uint64 is a uint64 as a decimal string (builder-specs Uint64).
func Uint64(path string, v any) []string {
	s, ok := v.(string)
	if !ok {
		return []string{fmt.Sprintf("%s: %s, want a decimal string", path, jsonType(v))}
	}
	if !decimalRe.MatchString(s) {
		return []string{fmt.Sprintf("%s: %q is not a decimal integer without leading zeros", path, s)}
	}
	if _, err := strconv.ParseUint(s, 10, 64); err != nil {
		return []string{fmt.Sprintf("%s: %q overflows uint64", path, s)}
	}
	return nil
}

// Uint256 is a uint256 as a decimal string (builder-specs Uint256: wei).
func Uint256(path string, v any) []string {
	s, ok := v.(string)
	if !ok {
		return []string{fmt.Sprintf("%s: %s, want a decimal string", path, jsonType(v))}
	}
	if !decimalRe.MatchString(s) || len(s) > 78 {
		return []string{fmt.Sprintf("%s: %q is not a decimal uint256", path, s)}
	}
	return nil
}

// Hex is 0x-prefixed lower-case hex of exactly n bytes.
func Hex(n int) Schema {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want a hex string", path, jsonType(v))}
		}
		if !hexRe.MatchString(s) {
			return []string{fmt.Sprintf("%s: %.40q is not 0x-prefixed lower-case hex", path, s)}
		}
		if got := (len(s) - 2) / 2; got != n {
			return []string{fmt.Sprintf("%s: %d bytes, want %d", path, got, n)}
		}
		return nil
	}
}

// HexMax is 0x-prefixed lower-case hex of at most n bytes.
func HexMax(n int) Schema {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if !ok || !hexRe.MatchString(s) {
			return []string{fmt.Sprintf("%s: %v is not 0x-prefixed lower-case hex", path, v)}
		}
		if got := (len(s) - 2) / 2; got > n {
			return []string{fmt.Sprintf("%s: %d bytes, want at most %d", path, got, n)}
		}
		return nil
	}
}

// Enum is a string, one of values.
func Enum(values ...string) Schema {
	return func(path string, v any) []string {
		s, ok := v.(string)
		if ok {
			for _, want := range values {
				if s == want {
					return nil
				}
			}
		}
		return []string{fmt.Sprintf("%s: %v, want one of %q", path, v, values)}
	}
}

// Bool is a JSON boolean.
func Bool(path string, v any) []string {
	if _, ok := v.(bool); !ok {
		return []string{fmt.Sprintf("%s: %s, want a boolean", path, jsonType(v))}
	}
	return nil
}

// String is any JSON string.
func String(path string, v any) []string {
	if _, ok := v.(string); !ok {
		return []string{fmt.Sprintf("%s: %s, want a string", path, jsonType(v))}
	}
	return nil
}

// Int is a JSON integer number (the error body's code).
func Int(path string, v any) []string {
	n, ok := v.(json.Number)
	if !ok {
		return []string{fmt.Sprintf("%s: %s, want a number", path, jsonType(v))}
	}
	if _, err := n.Int64(); err != nil {
		return []string{fmt.Sprintf("%s: %s is not an integer", path, n)}
	}
	return nil
}

// Array is a JSON array whose items are each item (at least min of them).
func Array(item Schema, min int) Schema {
	return func(path string, v any) []string {
		a, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want an array", path, jsonType(v))}
		}
		if len(a) < min {
			return []string{fmt.Sprintf("%s: %d items, want at least %d", path, len(a), min)}
		}
		var out []string
		for i, it := range a {
			out = append(out, item(fmt.Sprintf("%s[%d]", path, i), it)...)
		}
		return out
	}
}

// Fields are an object's fields: all required.
type Fields map[string]Schema

// Object is a JSON object with exactly the fields (all required) and, when
// present, the optional ones; any other key is reported.
func Object(fields Fields, optional Fields) Schema {
	return func(path string, v any) []string {
		m, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: %s, want an object", path, jsonType(v))}
		}
		var out []string
		for _, k := range sortedKeys(fields) {
			fv, ok := m[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s: required field %q missing", path, k))
				continue
			}
			out = append(out, fields[k](path+"."+k, fv)...)
		}
		for _, k := range sortedKeys(m) {
			if _, ok := fields[k]; ok {
				continue
			}
			if s, ok := optional[k]; ok {
				out = append(out, s(path+"."+k, m[k])...)
				continue
			}
			out = append(out, fmt.Sprintf("%s: field %q is not in the schema", path, k))
		}
		return out
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

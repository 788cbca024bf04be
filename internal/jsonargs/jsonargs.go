// Package jsonargs decodes the parameters of gavel's JSON-RPC methods so that
// a malformed value is named by its field and index, in JSON terms
// (`txs[0]: invalid hex: hex string without 0x prefix`), never by a Go type
// (`json: cannot unmarshal ... into Go struct field SendBundleArgs.txs of
// type hexutil.Bytes`), which encoding/json would say and a client cannot
// act on.
package jsonargs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// ErrInvalid is wrapped by every decoding error of this package.
var ErrInvalid = errors.New("invalid params")

// Error is a decoding error: Path names the value ("txs[0]", "" for the
// parameter itself), Msg says what was wrong and what was expected, Err is
// the decoder's own error when it had one worth testing for (a sentinel of
// a type's UnmarshalJSON).
type Error struct {
	Path string
	Msg  string
	Err  error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Unwrap makes every Error match ErrInvalid, and the decoder's error.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalid}
	}
	return []error{ErrInvalid, e.Err}
}

// DecodeObject decodes the JSON object data into the struct dst points to,
// with encoding/json's rules (json tags, case-insensitive keys, unknown keys
// ignored, null leaves a field as it is), field by field in the struct's
// order so that the first error is the first bad field. An array field is
// decoded element by element so that its error names the index. Call it
// from an UnmarshalJSON on an alias of the type, so that it does not recurse:
//
//	func (a *Args) UnmarshalJSON(b []byte) error {
//		type plain Args
//		return jsonargs.DecodeObject(b, (*plain)(a))
//	}
func DecodeObject(data []byte, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic("jsonargs: DecodeObject needs a pointer to a struct")
	}
	// The common case, a valid object, costs one encoding/json pass; only a
	// failing one is decoded again field by field to name the field.
	if json.Unmarshal(data, dst) == nil {
		return nil
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return &Error{Msg: "expected a JSON object, got " + kindOf(data)}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return &Error{Msg: describe(err, v.Elem().Type())}
	}
	s := v.Elem()
	t := s.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := jsonName(f)
		if name == "-" {
			continue
		}
		raw, ok := lookup(fields, name)
		if !ok {
			continue
		}
		if err := Decode(raw, s.Field(i).Addr().Interface(), name); err != nil {
			return err
		}
	}
	return nil
}

// Decode decodes the JSON value raw into dst (a pointer) and names a failure
// by path. An array into a slice is decoded element by element, each error
// naming its index (path[i]).
func Decode(raw json.RawMessage, dst any, path string) error {
	v := reflect.ValueOf(dst).Elem()
	raw = bytes.TrimSpace(raw)
	if v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8 && len(raw) > 0 && raw[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return &Error{Path: path, Msg: describe(err, v.Type())}
		}
		out := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, it := range items {
			if err := Decode(it, out.Index(i).Addr().Interface(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(out)
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var je *Error
		if errors.As(err, &je) { // a nested DecodeObject: prefix its path
			if path != "" && je.Path != "" {
				return &Error{Path: path + "." + je.Path, Msg: je.Msg, Err: je.Err}
			}
			if path != "" {
				return &Error{Path: path, Msg: je.Msg, Err: je.Err}
			}
			return je
		}
		e := &Error{Path: path, Msg: describe(err, v.Type())}
		var te *json.UnmarshalTypeError
		var se *json.SyntaxError
		if !errors.As(err, &te) && !errors.As(err, &se) {
			e.Err = err
		}
		return e
	}
	return nil
}

// jsonName is the key of a struct field, as encoding/json reads it.
func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		return f.Name
	}
	return name
}

// lookup finds key in fields, an exact match first, then, as encoding/json
// does, one that differs in case only.
func lookup(fields map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	if v, ok := fields[key]; ok {
		return v, true
	}
	for k, v := range fields {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// jsonKinds are the values encoding/json and hexutil put in
// UnmarshalTypeError.Value for a value of the wrong JSON type; any other
// Value is a format error's message (hexutil wraps those in the type error).
var jsonKinds = map[string]string{
	"string": "a string", "number": "a number", "bool": "a boolean", "array": "an array",
	"object": "an object", "non-string": "a non-string value", "null": "null",
}

// goTypeSuffix is the " for common.Hash" hexutil appends to length errors.
var goTypeSuffix = regexp.MustCompile(` for [A-Za-z0-9_]+\.[A-Za-z0-9_]+$`)

// describe says what is wrong with a value that should have been of type
// t, in JSON terms.
func describe(err error, t reflect.Type) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		got := te.Value
		if strings.HasPrefix(got, "number ") {
			got = "number"
		}
		if kind, ok := jsonKinds[got]; ok {
			return fmt.Sprintf("expected %s, got %s", expected(t), kind)
		}
		return fmt.Sprintf("invalid %s: %s", noun(t), goTypeSuffix.ReplaceAllString(got, ""))
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)
	}
	msg := goTypeSuffix.ReplaceAllString(strings.TrimPrefix(err.Error(), "json: "), "")
	if strings.Contains(msg, "Go ") || strings.Contains(msg, "of type") {
		return fmt.Sprintf("expected %s", expected(t))
	}
	if n := noun(t); n != "value" { // hexutil's length errors come unwrapped
		return "invalid " + n + ": " + msg
	}
	return msg
}

var (
	bytesT   = reflect.TypeFor[hexutil.Bytes]()
	hashT    = reflect.TypeFor[common.Hash]()
	addressT = reflect.TypeFor[common.Address]()
	uint64T  = reflect.TypeFor[hexutil.Uint64]()
	uintT    = reflect.TypeFor[hexutil.Uint]()
	bigT     = reflect.TypeFor[hexutil.Big]()
	bigIntT  = reflect.TypeFor[big.Int]()
)

// noun names a value of type t in an "invalid ..." message.
func noun(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case bytesT:
		return "hex"
	case hashT:
		return "hash"
	case addressT:
		return "address"
	case uint64T, uintT, bigT, bigIntT:
		return "hex number"
	}
	return "value"
}

// expected says what a value of type t must look like.
func expected(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case bytesT:
		return "a 0x-prefixed hex string"
	case hashT:
		return "a 0x-prefixed hex string of 32 bytes"
	case addressT:
		return "a 0x-prefixed hex address of 20 bytes"
	case uint64T, uintT, bigT, bigIntT:
		return "a 0x-prefixed hex number"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another JSON value"
}

// kindOf names the JSON type of a value by its first byte.
func kindOf(data []byte) string {
	if len(data) == 0 {
		return "nothing"
	}
	switch c := data[0]; {
	case c == '"':
		return "a string"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return "something that is not JSON"
}

// Hash is a common.Hash parameter whose decoding errors are in JSON terms.
type Hash common.Hash

// UnmarshalJSON implements json.Unmarshaler.
func (h *Hash) UnmarshalJSON(b []byte) error {
	return Decode(b, (*common.Hash)(h), "")
}

// Address is a common.Address parameter whose decoding errors are in JSON
// terms.
type Address common.Address

// UnmarshalJSON implements json.Unmarshaler.
func (a *Address) UnmarshalJSON(b []byte) error {
	return Decode(b, (*common.Address)(a), "")
}

package beacon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	ssz "github.com/ferranbt/fastssz"
)

// Beacon-API JSON for the containers of this package.
//
// The codec is driven by the same struct definitions and tags as the SSZ code: json names
// from `json` tags, list limits from `ssz-max`, vector lengths from `ssz-size`, bitlists from
// `ssz:"bitlist"`. It is strict where encoding/json is lenient: field names match exactly,
// unknown and repeated fields are rejected, every field not tagged omitempty is required,
// null is rejected, uint64 and uint256 are decimal strings without sign or leading zeros,
// byte fields are 0x-prefixed hex of exactly the right length (or within the list limit),
// and lists are checked against their SSZ limits before they grow past them. A field may
// name an older spelling in a `json-alias` tag (excess_data_gas for excess_blob_gas, the
// Deneb name before the rename): it is accepted on input, counts as the same field (both
// present is a repeated field), and is never written.

// UnmarshalJSONStrict decodes beacon-API JSON into v, a pointer to one of this package's
// containers.
func UnmarshalJSONStrict(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("beacon: UnmarshalJSONStrict needs a non-nil pointer, got %T", v)
	}
	d := jsonDecoder{data: data}
	return d.decodeTop(rv.Elem(), fieldDims{})
}

// MarshalJSONCompact encodes v, one of this package's containers or a pointer to one, as
// compact beacon-API JSON.
func MarshalJSONCompact(v any) ([]byte, error) { return marshalJSON(v, nil) }

// marshalJSON is MarshalJSONCompact with the lengths and limits of spec (nil: the static
// tags, mainnet's).
func marshalJSON(v any, spec *Spec) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return []byte("null"), nil
		}
		rv = rv.Elem()
	}
	size := 512
	if c, ok := v.(Container); ok {
		// Hex doubles the bytes; field names and quotes add a little.
		size = 2*c.SizeSSZ() + 8192
	}
	return appendJSON(make([]byte, 0, size), rv, fieldDims{}, spec)
}

// fieldDims are the SSZ dimensions of a field, outermost first.
type fieldDims struct {
	max     []uint64 // 0: no limit given
	size    []int    // -1: not fixed
	bitlist bool
}

func (d fieldDims) inner() fieldDims {
	out := fieldDims{}
	if len(d.max) > 1 {
		out.max = d.max[1:]
	}
	if len(d.size) > 1 {
		out.size = d.size[1:]
	}
	return out
}

func (d fieldDims) maxLen() uint64 {
	if len(d.max) > 0 {
		return d.max[0]
	}
	return 0
}

func (d fieldDims) fixedLen() int {
	if len(d.size) > 0 {
		return d.size[0]
	}
	return -1
}

type jsonField struct {
	name     string
	alias    string // also accepted on input (json-alias tag), never written
	index    []int
	optional bool
	dims     fieldDims
	dynMax   []string // dynssz-max expressions per dimension ("?": none)
	dynSize  []string // dynssz-size expressions per dimension
}

type structInfo struct {
	fields []jsonField
}

func (si *structInfo) lookup(key []byte) int {
	for i := range si.fields {
		if f := &si.fields[i]; f.name == string(key) || (f.alias != "" && f.alias == string(key)) {
			return i
		}
	}
	return -1
}

var structInfos sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{}
	collectFields(t, nil, si)
	if len(si.fields) > 64 {
		panic("beacon: container " + t.Name() + " has more than 64 JSON fields")
	}
	structInfos.Store(t, si)
	return si
}

func collectFields(t reflect.Type, prefix []int, si *structInfo) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		idx := append(slices.Clone(prefix), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, idx, si)
			continue
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		jf := jsonField{name: name, alias: f.Tag.Get("json-alias"), index: idx, optional: strings.Contains(opts, "omitempty")}
		if m := f.Tag.Get("ssz-max"); m != "" {
			for _, p := range strings.Split(m, ",") {
				n, _ := strconv.ParseUint(p, 10, 64)
				jf.dims.max = append(jf.dims.max, n)
			}
		}
		if s := f.Tag.Get("ssz-size"); s != "" {
			for _, p := range strings.Split(s, ",") {
				n, err := strconv.Atoi(p)
				if err != nil {
					n = -1
				}
				jf.dims.size = append(jf.dims.size, n)
			}
		}
		jf.dims.bitlist = f.Tag.Get("ssz") == "bitlist"
		if m := f.Tag.Get("dynssz-max"); m != "" {
			jf.dynMax = strings.Split(m, ",")
		}
		if s := f.Tag.Get("dynssz-size"); s != "" {
			jf.dynSize = strings.Split(s, ",")
		}
		si.fields = append(si.fields, jf)
	}
}

var u256Type = reflect.TypeFor[U256]()

// jsonDecoder is a strict single-pass JSON reader over a byte slice.
type jsonDecoder struct {
	data        []byte
	pos         int
	path        []pathElem
	skipUnknown bool  // skip unknown fields instead of failing (slot peeking only)
	spec        *Spec // non-nil: lengths and limits of a preset other than mainnet
}

type pathElem struct {
	key   string
	index int
}

func (d *jsonDecoder) pathString() string {
	if len(d.path) == 0 {
		return "(top level)"
	}
	var sb strings.Builder
	for i, p := range d.path {
		if p.key != "" {
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(p.key)
		} else {
			fmt.Fprintf(&sb, "[%d]", p.index)
		}
	}
	return sb.String()
}

// fail wraps err with the JSON path and byte offset of the value being decoded.
func (d *jsonDecoder) fail(err error) error {
	return &JSONError{Path: d.pathString(), Offset: d.pos, Err: err}
}

func (d *jsonDecoder) failf(kind error, format string, args ...any) error {
	return d.fail(fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...)))
}

// JSONError reports where in a JSON document decoding failed. It wraps one of the
// package's sentinel errors.
type JSONError struct {
	Path   string // e.g. execution_payload.transactions[3]
	Offset int    // byte offset in the input
	Err    error
}

// Error implements error.
func (e *JSONError) Error() string {
	return fmt.Sprintf("json %s (offset %d): %v", e.Path, e.Offset, e.Err)
}

// Unwrap returns the underlying error.
func (e *JSONError) Unwrap() error { return e.Err }

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end of input.
func (d *jsonDecoder) peek() byte {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

func describe(c byte) string {
	switch {
	case c == 0:
		return "end of input"
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 'n':
		return "null"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	default:
		return fmt.Sprintf("%q", c)
	}
}

func (d *jsonDecoder) expect(c byte, what string) error {
	if got := d.peek(); got != c {
		return d.failf(ErrInvalidJSON, "expected %s, got %s", what, describe(got))
	}
	d.pos++
	return nil
}

// readString reads a JSON string and returns its contents. Without escapes the result
// aliases the input.
func (d *jsonDecoder) readString(what string) ([]byte, error) {
	if got := d.peek(); got != '"' {
		return nil, d.failf(ErrInvalidJSON, "expected %s, got %s", what, describe(got))
	}
	start := d.pos + 1
	end := bytes.IndexByte(d.data[start:], '"')
	if end < 0 {
		return nil, d.failf(ErrInvalidJSON, "unterminated string")
	}
	s := d.data[start : start+end]
	if bytes.IndexByte(s, '\\') < 0 {
		for _, c := range s {
			if c < 0x20 {
				return nil, d.failf(ErrInvalidJSON, "control character in string")
			}
		}
		d.pos = start + end + 1
		return s, nil
	}
	// Rare: escapes. Find the real end, then let encoding/json unescape.
	i := start
	for ; i < len(d.data); i++ {
		if d.data[i] == '\\' {
			i++
			continue
		}
		if d.data[i] == '"' {
			break
		}
	}
	if i >= len(d.data) {
		return nil, d.failf(ErrInvalidJSON, "unterminated string")
	}
	var out string
	if err := json.Unmarshal(d.data[d.pos:i+1], &out); err != nil {
		return nil, d.failf(ErrInvalidJSON, "bad string: %v", err)
	}
	d.pos = i + 1
	return []byte(out), nil
}

func (d *jsonDecoder) decodeTop(v reflect.Value, dims fieldDims) error {
	if err := d.decodeValue(v, dims); err != nil {
		return err
	}
	if d.peek() != 0 {
		return d.failf(ErrInvalidJSON, "unexpected data after the top-level value")
	}
	return nil
}

func (d *jsonDecoder) decodeValue(v reflect.Value, dims fieldDims) error {
	t := v.Type()
	if t == u256Type {
		s, err := d.readString("a decimal string")
		if err != nil {
			return err
		}
		u, err := parseU256(s)
		if err != nil {
			return d.fail(err)
		}
		v.Set(reflect.ValueOf(u))
		return nil
	}
	switch t.Kind() {
	case reflect.Uint64:
		s, err := d.readString("a decimal string")
		if err != nil {
			return err
		}
		n, err := parseUint64(s)
		if err != nil {
			return d.fail(err)
		}
		v.SetUint(n)
		return nil
	case reflect.Bool:
		d.skipSpace()
		switch {
		case bytes.HasPrefix(d.data[d.pos:], []byte("true")):
			d.pos += 4
			v.SetBool(true)
		case bytes.HasPrefix(d.data[d.pos:], []byte("false")):
			d.pos += 5
			v.SetBool(false)
		default:
			return d.failf(ErrInvalidJSON, "expected true or false, got %s", describe(d.peek()))
		}
		return nil
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			s, err := d.readString("a 0x-prefixed hex string")
			if err != nil {
				return err
			}
			if err := decodeHexFixed(v.Bytes(), s); err != nil {
				return d.fail(err)
			}
			return nil
		}
		return d.decodeArray(v, dims)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return d.decodeByteList(v, dims)
		}
		return d.decodeList(v, dims)
	case reflect.Struct:
		return d.decodeStruct(v)
	case reflect.Pointer:
		if d.peek() == 'n' {
			return d.failf(ErrInvalidJSON, "null is not allowed")
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return d.decodeValue(v.Elem(), dims)
	}
	return d.failf(ErrInvalidJSON, "unsupported Go type %s", t)
}

func (d *jsonDecoder) decodeByteList(v reflect.Value, dims fieldDims) error {
	s, err := d.readString("a 0x-prefixed hex string")
	if err != nil {
		return err
	}
	limit := dims.maxLen()
	if dims.bitlist {
		limit = limit/8 + 1
	}
	if fixed := dims.fixedLen(); fixed >= 0 {
		b := make([]byte, fixed)
		if err := decodeHexFixed(b, s); err != nil {
			return d.fail(err)
		}
		v.SetBytes(b)
		return nil
	}
	if limit == 0 {
		return d.failf(ErrInvalidJSON, "byte list without a limit")
	}
	b, err := decodeHexVar(s, int(min(limit, 1<<31)))
	if err != nil {
		return d.fail(err)
	}
	if dims.bitlist {
		if err := ssz.ValidateBitlist(b, dims.maxLen()); err != nil {
			return d.failf(ErrInvalidLength, "bitlist: %v (limit %d bits)", err, dims.maxLen())
		}
	}
	v.SetBytes(b)
	return nil
}

func (d *jsonDecoder) decodeList(v reflect.Value, dims fieldDims) error {
	if err := d.expect('[', "an array"); err != nil {
		return err
	}
	fixed := dims.fixedLen()
	limit := dims.maxLen()
	if fixed < 0 && limit == 0 {
		return d.failf(ErrInvalidJSON, "list without a limit")
	}
	elem := v.Type().Elem()
	// Elements that are byte arrays (roots, commitments, blobs) are checked before the slice
	// grows, so a short hostile input cannot make it allocate a large element.
	byteElem := elem.Kind() == reflect.Array && elem.Elem().Kind() == reflect.Uint8 && elem != u256Type
	inner := dims.inner()
	v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	n := 0
	d.path = append(d.path, pathElem{index: 0})
	defer func() { d.path = d.path[:len(d.path)-1] }()
	if d.peek() == ']' {
		d.pos++
	} else {
		for {
			d.path[len(d.path)-1].index = n
			if (fixed >= 0 && n >= fixed) || (fixed < 0 && uint64(n) >= limit) {
				if fixed >= 0 {
					return d.failf(ErrInvalidLength, "more than %d elements, expected exactly %d", fixed, fixed)
				}
				return d.failf(ErrListTooLong, "more than %d elements", limit)
			}
			var s []byte
			if byteElem {
				var err error
				if s, err = d.readString("a 0x-prefixed hex string"); err != nil {
					return err
				}
				if len(s) != 2+2*elem.Len() {
					return d.failf(ErrInvalidLength, "got %d characters, expected %d (%d bytes as 0x hex)", len(s), 2+2*elem.Len(), elem.Len())
				}
			}
			if v.Len() == v.Cap() {
				v.Grow(max(4, v.Len()))
			}
			v.SetLen(n + 1)
			ev := v.Index(n)
			if byteElem {
				if err := decodeHexFixed(ev.Bytes(), s); err != nil {
					return d.fail(err)
				}
			} else if err := d.decodeValue(ev, inner); err != nil {
				return err
			}
			n++
			c := d.peek()
			if c == ',' {
				d.pos++
				continue
			}
			if c == ']' {
				d.pos++
				break
			}
			return d.failf(ErrInvalidJSON, "expected , or ] after an array element, got %s", describe(c))
		}
	}
	if fixed >= 0 && n != fixed {
		return d.failf(ErrInvalidLength, "%d elements, expected exactly %d", n, fixed)
	}
	return nil
}

func (d *jsonDecoder) decodeArray(v reflect.Value, dims fieldDims) error {
	if err := d.expect('[', "an array"); err != nil {
		return err
	}
	want := v.Len()
	inner := dims.inner()
	n := 0
	d.path = append(d.path, pathElem{index: 0})
	defer func() { d.path = d.path[:len(d.path)-1] }()
	if d.peek() == ']' {
		d.pos++
	} else {
		for {
			d.path[len(d.path)-1].index = n
			if n >= want {
				return d.failf(ErrInvalidLength, "more than %d elements", want)
			}
			if err := d.decodeValue(v.Index(n), inner); err != nil {
				return err
			}
			n++
			c := d.peek()
			if c == ',' {
				d.pos++
				continue
			}
			if c == ']' {
				d.pos++
				break
			}
			return d.failf(ErrInvalidJSON, "expected , or ] after an array element, got %s", describe(c))
		}
	}
	if n != want {
		return d.failf(ErrInvalidLength, "%d elements, expected exactly %d", n, want)
	}
	return nil
}

func (d *jsonDecoder) decodeStruct(v reflect.Value) error {
	si := infoOf(v.Type())
	if err := d.expect('{', "an object"); err != nil {
		return err
	}
	var seen uint64
	d.path = append(d.path, pathElem{})
	defer func() { d.path = d.path[:len(d.path)-1] }()
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			key, err := d.readString("a field name")
			if err != nil {
				return err
			}
			i := si.lookup(key)
			d.path[len(d.path)-1].key = string(key)
			if i < 0 && d.skipUnknown {
				if err := d.expect(':', "a colon"); err != nil {
					return err
				}
				if err := d.skipValue(0); err != nil {
					return err
				}
			} else if i < 0 {
				return d.failf(ErrUnknownField, "%q is not a field of this object", key)
			}
			if i >= 0 && seen&(1<<i) != 0 {
				return d.failf(ErrDuplicateField, "%q appears twice", key)
			}
			if i >= 0 {
				seen |= 1 << i
				if err := d.expect(':', "a colon"); err != nil {
					return err
				}
				f := &si.fields[i]
				dims := f.dims
				if d.spec != nil {
					dims = d.spec.fieldDims(f)
				}
				if err := d.decodeValue(v.FieldByIndex(f.index), dims); err != nil {
					return err
				}
			}
			c := d.peek()
			if c == ',' {
				d.pos++
				continue
			}
			if c == '}' {
				d.pos++
				break
			}
			return d.failf(ErrInvalidJSON, "expected , or } after a field, got %s", describe(c))
		}
	}
	for i := range si.fields {
		if seen&(1<<i) == 0 && !si.fields[i].optional {
			d.path[len(d.path)-1].key = si.fields[i].name
			return d.failf(ErrMissingField, "%q is required", si.fields[i].name)
		}
	}
	return nil
}

// appendJSON appends the compact JSON form of v.
func appendJSON(dst []byte, v reflect.Value, dims fieldDims, spec *Spec) ([]byte, error) {
	t := v.Type()
	if t == u256Type {
		u := v.Interface().(U256)
		dst = append(dst, '"')
		dst = append(dst, u.String()...)
		return append(dst, '"'), nil
	}
	switch t.Kind() {
	case reflect.Uint64:
		dst = append(dst, '"')
		dst = strconv.AppendUint(dst, v.Uint(), 10)
		return append(dst, '"'), nil
	case reflect.Bool:
		return strconv.AppendBool(dst, v.Bool()), nil
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return AppendHexJSON(dst, arrayBytes(v)), nil
		}
		dst = append(dst, '[')
		inner := dims.inner()
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSON(dst, v.Index(i), inner, spec); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if fixed := dims.fixedLen(); fixed >= 0 && v.Len() != fixed {
				return nil, fmt.Errorf("%w: %s has %d bytes, expected %d", ErrInvalidLength, t, v.Len(), fixed)
			}
			return AppendHexJSON(dst, v.Bytes()), nil
		}
		if fixed := dims.fixedLen(); fixed >= 0 && v.Len() != fixed {
			return nil, fmt.Errorf("%w: %s has %d elements, expected %d", ErrInvalidLength, t, v.Len(), fixed)
		}
		if limit := dims.maxLen(); limit > 0 && uint64(v.Len()) > limit {
			return nil, fmt.Errorf("%w: %s has %d elements, limit %d", ErrListTooLong, t, v.Len(), limit)
		}
		dst = append(dst, '[')
		inner := dims.inner()
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendJSON(dst, v.Index(i), inner, spec); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case reflect.Struct:
		si := infoOf(t)
		dst = append(dst, '{')
		first := true
		for i := range si.fields {
			f := &si.fields[i]
			fv := v.FieldByIndex(f.index)
			if f.optional && fv.IsZero() {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, '"')
			dst = append(dst, f.name...)
			dst = append(dst, '"', ':')
			dims := f.dims
			if spec != nil {
				dims = spec.fieldDims(f)
			}
			var err error
			if dst, err = appendJSON(dst, fv, dims, spec); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil, fmt.Errorf("%w: nil %s", ErrMissingField, t)
		}
		return appendJSON(dst, v.Elem(), dims, spec)
	}
	return nil, fmt.Errorf("beacon: cannot encode Go type %s as JSON", t)
}

// arrayBytes returns the bytes of a [N]byte value, addressable or not.
func arrayBytes(v reflect.Value) []byte {
	if v.CanAddr() {
		return v.Bytes()
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c.Bytes()
}

// maxSkipDepth bounds the nesting of skipped values.
const maxSkipDepth = 64

// skipValue skips one JSON value of any kind.
func (d *jsonDecoder) skipValue(depth int) error {
	if depth > maxSkipDepth {
		return d.failf(ErrInvalidJSON, "nested deeper than %d levels", maxSkipDepth)
	}
	switch c := d.peek(); {
	case c == '"':
		_, err := d.readString("a string")
		return err
	case c == '{' || c == '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		d.pos++
		if d.peek() == closing {
			d.pos++
			return nil
		}
		for {
			if c == '{' {
				if _, err := d.readString("a field name"); err != nil {
					return err
				}
				if err := d.expect(':', "a colon"); err != nil {
					return err
				}
			}
			if err := d.skipValue(depth + 1); err != nil {
				return err
			}
			switch d.peek() {
			case ',':
				d.pos++
			case closing:
				d.pos++
				return nil
			default:
				return d.failf(ErrInvalidJSON, "expected , or %c, got %s", closing, describe(d.peek()))
			}
		}
	case c == 't' || c == 'f' || c == 'n' || c == '-' || (c >= '0' && c <= '9'):
		start := d.pos
		for d.pos < len(d.data) && bytes.IndexByte([]byte("+-.0123456789eEtruefalsn"), d.data[d.pos]) >= 0 {
			d.pos++
		}
		if !json.Valid(d.data[start:d.pos]) {
			return d.failf(ErrInvalidJSON, "invalid literal %q", d.data[start:d.pos])
		}
		return nil
	default:
		return d.failf(ErrInvalidJSON, "expected a value, got %s", describe(c))
	}
}

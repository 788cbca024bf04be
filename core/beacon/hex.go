package beacon

import (
	"encoding/hex"
	"fmt"
	"slices"
	"unsafe"

	ssz "github.com/ferranbt/fastssz"
	"github.com/holiman/uint256"
)

// decodeHexFixed decodes 0x-prefixed hex that must hold exactly len(dst) bytes.
func decodeHexFixed(dst []byte, s []byte) error {
	body, err := hexBody(s)
	if err != nil {
		return err
	}
	if len(body) != 2*len(dst) {
		return fmt.Errorf("%w: got %d hex digits, expected %d (%d bytes)", ErrInvalidLength, len(body), 2*len(dst), len(dst))
	}
	return hexDecode(dst, body)
}

// decodeHexVar decodes 0x-prefixed hex of at most max bytes.
func decodeHexVar(s []byte, max int) ([]byte, error) {
	body, err := hexBody(s)
	if err != nil {
		return nil, err
	}
	if len(body)/2 > max {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrListTooLong, len(body)/2, max)
	}
	out := make([]byte, len(body)/2)
	if err := hexDecode(out, body); err != nil {
		return nil, err
	}
	return out, nil
}

func hexBody(s []byte) ([]byte, error) {
	if len(s) < 2 || s[0] != '0' || s[1] != 'x' {
		return nil, fmt.Errorf("%w: missing 0x prefix", ErrInvalidHex)
	}
	body := s[2:]
	if len(body)%2 != 0 {
		return nil, fmt.Errorf("%w: odd number of hex digits (%d)", ErrInvalidHex, len(body))
	}
	return body, nil
}

func hexDecode(dst, body []byte) error {
	if _, err := hex.Decode(dst, body); err != nil {
		if e, ok := err.(hex.InvalidByteError); ok {
			return fmt.Errorf("%w: invalid character %q", ErrInvalidHex, byte(e))
		}
		return fmt.Errorf("%w: %v", ErrInvalidHex, err)
	}
	return nil
}

// parseUint64 parses a decimal without sign, spaces or leading zeros.
func parseUint64(s []byte) (uint64, error) {
	if err := checkDecimal(s, 20); err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range s {
		d := uint64(c - '0')
		if v > (^uint64(0)-d)/10 {
			return 0, fmt.Errorf("%w: %s overflows uint64", ErrInvalidNumber, s)
		}
		v = v*10 + d
	}
	return v, nil
}

// parseU256 parses a decimal without sign, spaces or leading zeros that fits 256 bits.
func parseU256(s []byte) (U256, error) {
	if err := checkDecimal(s, 78); err != nil {
		return U256{}, err
	}
	if len(s) <= 19 {
		v, _ := parseUint64(s)
		return U256FromUint64(v), nil
	}
	v, err := uint256.FromDecimal(string(s))
	if err != nil {
		return U256{}, fmt.Errorf("%w: %s does not fit uint256", ErrInvalidNumber, s)
	}
	return U256FromUint256(v), nil
}

func checkDecimal(s []byte, maxDigits int) error {
	if len(s) == 0 {
		return fmt.Errorf("%w: empty string, expected a decimal", ErrInvalidNumber)
	}
	if len(s) > maxDigits {
		return fmt.Errorf("%w: %d digits, at most %d fit", ErrInvalidNumber, len(s), maxDigits)
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return fmt.Errorf("%w: %q is not a decimal (digits only, no sign)", ErrInvalidNumber, s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return fmt.Errorf("%w: %q has a leading zero", ErrInvalidNumber, s)
	}
	return nil
}

// decodeDynamicLength is ssz.DecodeDynamicLength plus the check that the first offset lies
// inside the buffer: fastssz v0.1.4 trusts it, so a 1 KB input could make a decoder
// allocate a list of a million transaction slices. `make ssz` rewrites the generated code to
// call this instead.
func decodeDynamicLength(buf []byte, maxSize int) (int, error) {
	n, err := ssz.DecodeDynamicLength(buf, maxSize)
	if err != nil {
		return 0, err
	}
	if n*4 > len(buf) {
		return 0, fmt.Errorf("%w: first offset %d points past the list's %d bytes", ssz.ErrOffset, n*4, len(buf))
	}
	return n, nil
}

// aliasBlobs views num blobs in buf (len(buf) == num*BlobLength, checked by the caller)
// without copying them: the decoded blobs alias the input, which the decoded value then
// owns (see the package doc). `make ssz` rewrites the generated code to call it.
func aliasBlobs(buf []byte, num int) []Blob {
	if num == 0 {
		return []Blob{}
	}
	return unsafe.Slice((*Blob)(unsafe.Pointer(&buf[0])), num)[:num:num]
}

// AppendHexJSON appends b as a JSON string of 0x-prefixed lowercase hex, the
// beacon API's form of byte fields. Encoders that write beacon JSON by hand
// (the relay's data API) use it so their bytes match this package's.
func AppendHexJSON(dst, b []byte) []byte {
	dst = slices.Grow(dst, 4+2*len(b))
	dst = append(dst, '"')
	return append(appendHexDigits(dst, b), '"')
}

// appendHexDigits appends b as 0x-prefixed lowercase hex.
func appendHexDigits(dst, b []byte) []byte {
	dst = append(dst, '0', 'x')
	n := len(dst)
	dst = slices.Grow(dst, 2*len(b))[:n+2*len(b)]
	hex.Encode(dst[n:], b)
	return dst
}

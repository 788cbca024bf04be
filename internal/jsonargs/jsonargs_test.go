package jsonargs

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

var errOwn = errors.New("own sentinel")

type ownType struct{}

func (*ownType) UnmarshalJSON([]byte) error { return errOwn }

type args struct {
	Txs     []hexutil.Bytes `json:"txs"`
	Block   hexutil.Uint64  `json:"blockNumber"`
	Hashes  []common.Hash   `json:"revertingTxHashes,omitempty"`
	UUID    string          `json:"replacementUuid,omitempty"`
	Flag    bool            `json:"flag"`
	Own     *ownType        `json:"own"`
	skipped int
}

func (a *args) UnmarshalJSON(b []byte) error {
	type plain args
	return DecodeObject(b, (*plain)(a))
}

// TestDecodeNamesFieldAndIndex: each malformed value is named by its JSON
// path, in JSON terms, never by a Go type.
func TestDecodeNamesFieldAndIndex(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"txs":["0x01","zz"]}`, "txs[1]: invalid hex: hex string without 0x prefix"},
		{`{"txs":["0x0"]}`, "txs[0]: invalid hex: hex string of odd length"},
		{`{"txs":[1]}`, "txs[0]: expected a 0x-prefixed hex string, got a non-string value"},
		{`{"txs":"0x01"}`, "txs: expected an array, got a string"},
		{`{"txs":["0x01"],"blockNumber":12}`, "blockNumber: expected a 0x-prefixed hex number, got a non-string value"},
		{`{"blockNumber":"0xzz"}`, "blockNumber: invalid hex number: invalid hex string"},
		{`{"revertingTxHashes":["0x12"]}`, "revertingTxHashes[0]: invalid hash: hex string has length 2, want 64"},
		{`{"replacementUuid":7}`, "replacementUuid: expected a string, got a number"},
		{`{"flag":"yes"}`, "flag: expected true or false, got a string"},
		{`[1]`, "expected a JSON object, got an array"},
		{`"x"`, "expected a JSON object, got a string"},
		{`{"txs":[}`, "malformed JSON"},
		// Keys match case-insensitively, as encoding/json matches them.
		{`{"TXS":["nope"]}`, "txs[0]: invalid hex"},
	} {
		var a args
		err := a.UnmarshalJSON([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want %q", tc.in, err, tc.want)
			continue
		}
		for _, goWords := range []string{"Go ", "of type", "hexutil", "common.", "args"} {
			if strings.Contains(err.Error(), goWords) {
				t.Errorf("%s: %q names a Go type", tc.in, err)
			}
		}
	}
	// A type's own error is kept for errors.Is.
	var a args
	if err := a.UnmarshalJSON([]byte(`{"own":1}`)); !errors.Is(err, errOwn) || !strings.HasPrefix(err.Error(), "own: ") {
		t.Fatalf("own error: %v", err)
	}
}

// TestDecodeValid: a valid object decodes as encoding/json would.
func TestDecodeValid(t *testing.T) {
	var a args
	if err := a.UnmarshalJSON([]byte(`{"txs":["0x01","0x0203"],"blockNumber":"0x10","replacementUuid":"u","unknown":1,"revertingTxHashes":null}`)); err != nil {
		t.Fatal(err)
	}
	if len(a.Txs) != 2 || a.Txs[1][1] != 3 || a.Block != 16 || a.UUID != "u" || a.Hashes != nil {
		t.Fatalf("decoded %+v", a)
	}
	if err := a.UnmarshalJSON([]byte(`null`)); err != nil {
		t.Fatal(err)
	}
	var h Hash
	if err := h.UnmarshalJSON([]byte(`"0x12"`)); err == nil || err.Error() != "invalid hash: hex string has length 2, want 64" {
		t.Fatalf("hash: %v", err)
	}
	var ad Address
	if err := ad.UnmarshalJSON([]byte(`5`)); err == nil || err.Error() != "expected a 0x-prefixed hex address of 20 bytes, got a non-string value" {
		t.Fatalf("address: %v", err)
	}
}

// FuzzDecodeObject: any input decodes or fails with an Error, never panics,
// and no message names a Go type.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"txs":["0x01"],"blockNumber":"0x1"}`, `{"txs":[1,"x"]}`, `{"revertingTxHashes":["0x"]}`, `[]`, `null`, `{"flag":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var a args
		err := a.UnmarshalJSON(b)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrInvalid) && !errors.Is(err, errOwn) {
			t.Fatalf("%q: error %v is not ErrInvalid", b, err)
		}
		if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "hexutil") {
			t.Fatalf("%q: %v names a Go type", b, err)
		}
	})
}

// BenchmarkDecodeObject: a valid object costs what encoding/json costs.
func BenchmarkDecodeObject(b *testing.B) {
	in := []byte(`{"txs":["0x02f86b0180843b9aca00850ba43b740082520894000000000000000000000000000000000000beef0180c001a0","0x01"],"blockNumber":"0x10","replacementUuid":"u"}`)
	b.Run("jsonargs", func(b *testing.B) {
		for range b.N {
			var a args
			if err := a.UnmarshalJSON(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		type plain args
		for range b.N {
			var a plain
			if err := json.Unmarshal(in, &a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

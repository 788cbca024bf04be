package reqsig

import (
	"errors"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// The vector of Flashbots' go-utils signature tests (public test key).
const (
	vectorKey    = "fad9c8855b740a0b7ed4c221dbad0f33a83a49cad6b3fe8d5817ac83d38b6a19"
	vectorBody   = "Hello"
	vectorHeader = "0x96216849c49358B10257cb55b28eA603c874b05E:0x1446053488f02d460c012c84c4091cd5054d98c6cfca01b65f6c1a72773e80e60b8a4931aeee7ed18ce3adb45b2107e8c59e25556c1f871a8334e30e5bddbed21c"
)

func TestKnownVector(t *testing.T) {
	signer, err := Verify(vectorHeader, []byte(vectorBody))
	if err != nil {
		t.Fatal(err)
	}
	if want := common.HexToAddress("0x96216849c49358B10257cb55b28eA603c874b05E"); signer != want {
		t.Fatalf("signer %s, want %s", signer, want)
	}
	key, _ := crypto.HexToECDSA(vectorKey)
	got, err := Sign([]byte(vectorBody), key)
	if err != nil {
		t.Fatal(err)
	}
	if got != vectorHeader {
		t.Fatalf("Sign:\n got %s\nwant %s", got, vectorHeader)
	}
}

func TestVerifyFailures(t *testing.T) {
	key, _ := crypto.HexToECDSA(vectorKey)
	other, _ := crypto.GenerateKey()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_sendBundle","params":[]}`)
	good, _ := Sign(body, key)
	addr, sig, _ := strings.Cut(good, ":")
	byOther, _ := Sign(body, other)
	_, otherSig, _ := strings.Cut(byOther, ":")
	// A signature over the 32 raw hash bytes instead of the hex text.
	raw, _ := crypto.Sign(crypto.Keccak256(append([]byte("\x19Ethereum Signed Message:\n32"), crypto.Keccak256(body)...)), key)
	raw[64] += 27

	tests := []struct {
		name   string
		header string
		body   []byte
		want   error
	}{
		{"empty", "", body, ErrNoSignature},
		{"no colon", addr + sig, body, ErrMalformedHeader},
		{"tampered body", good, append([]byte{' '}, body...), ErrSignerMismatch},
		{"signed by another key", addr + ":" + otherSig, body, ErrSignerMismatch},
		{"raw-bytes variant", addr + ":0x" + common.Bytes2Hex(raw), body, ErrSignerMismatch},
		{"signature without 0x", addr + ":" + sig[2:], body, ErrBadSignatureHex},
		{"address without 0x", addr[2:] + ":" + sig, body, ErrBadAddress},
		{"short address", addr[:40] + ":" + sig, body, ErrBadAddress},
		{"non-hex address", "0x" + strings.Repeat("z", 40) + ":" + sig, body, ErrBadAddress},
		{"odd hex", addr + ":" + sig + "0", body, ErrBadSignatureHex},
		{"short signature", addr + ":" + sig[:128], body, ErrBadSignatureLen},
		{"bad v", addr + ":" + sig[:130] + "05", body, ErrBadRecoveryID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Verify(tt.header, tt.body)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyAccepts(t *testing.T) {
	key, _ := crypto.HexToECDSA(vectorKey)
	body := []byte(`{"x":1}`)
	good, _ := Sign(body, key)
	addr, sig, _ := strings.Cut(good, ":")
	v01 := sig[:130] + map[string]string{"1b": "00", "1c": "01"}[sig[130:]]
	for name, h := range map[string]string{
		"checksummed":     good,
		"lowercase addr":  strings.ToLower(addr) + ":" + sig,
		"uppercase hex":   "0x" + strings.ToUpper(addr[2:]) + ":0x" + strings.ToUpper(sig[2:]),
		"v as 0/1":        addr + ":" + v01,
		"colon in spaces": addr + " : " + sig,
	} {
		if got, err := Verify(h, body); err != nil || got != crypto.PubkeyToAddress(key.PublicKey) {
			t.Errorf("%s: signer %s, err %v", name, got, err)
		}
	}
}

func TestFromRequest(t *testing.T) {
	h := http.Header{}
	h.Set("x-flashbots-signature", "a") // canonicalised like a real server does
	if v, err := FromRequest(h); v != "a" || err != nil {
		t.Fatalf("flashbots only: %q %v", v, err)
	}
	h.Set("X-ETHEREUM-SIGNATURE", "a")
	if v, err := FromRequest(h); v != "a" || err != nil {
		t.Fatalf("both equal: %q %v", v, err)
	}
	h.Set(HeaderEthereum, "b")
	if _, err := FromRequest(h); !errors.Is(err, ErrConflictingHeader) {
		t.Fatalf("both differ: %v", err)
	}
	// The same signature with the address in another case is one signature.
	lower := strings.ToLower(vectorHeader[:42]) + vectorHeader[42:]
	h.Set(HeaderEthereum, vectorHeader)
	h.Set(HeaderFlashbots, lower)
	if v, err := FromRequest(h); err != nil || v != vectorHeader {
		t.Fatalf("address case differs: %q %v", v, err)
	}
	h.Set(HeaderFlashbots, strings.ToLower(vectorHeader[:42])+":0x"+strings.Repeat("ab", 65))
	if _, err := FromRequest(h); !errors.Is(err, ErrConflictingHeader) {
		t.Fatalf("signatures differ: %v", err)
	}
	// Issue 14: a repeated header is checked in every value, not the first.
	r := http.Header{}
	r.Add(HeaderEthereum, "a")
	r.Add(HeaderEthereum, "forged")
	if _, err := FromRequest(r); !errors.Is(err, ErrConflictingHeader) || !strings.Contains(err.Error(), "X-Ethereum-Signature is repeated") {
		t.Fatalf("repeated header with two values: %v", err)
	}
	// The error names the header at fault: a repeated X-Flashbots-Signature
	// is not a conflict with an X-Ethereum-Signature the request never had.
	r = http.Header{}
	r.Add(HeaderFlashbots, "a")
	r.Add(HeaderFlashbots, "forged")
	if _, err := FromRequest(r); err == nil || strings.Contains(err.Error(), HeaderEthereum) || !strings.Contains(err.Error(), "X-Flashbots-Signature is repeated") {
		t.Fatalf("repeated X-Flashbots-Signature: %v", err)
	}
}

// TestHighS: the malleable twin of a valid signature (s' = n - s, v
// flipped) recovers the same signer; EIP-2 refuses it.
func TestHighS(t *testing.T) {
	key, _ := crypto.GenerateKey()
	body := []byte(`{"x":1}`)
	header, err := Sign(body, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(header, body); err != nil {
		t.Fatal(err)
	}
	addr, sigHex, _ := strings.Cut(header, ":")
	sig := hexutil.MustDecode(sigHex)
	n := crypto.S256().Params().N
	s := new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64]))
	s.FillBytes(sig[32:64])
	sig[64] = 27 + 28 - sig[64] // 27 <-> 28
	if _, err := Verify(addr+":"+hexutil.Encode(sig), body); !errors.Is(err, ErrHighS) {
		t.Fatalf("high-s twin: %v", err)
	}
}

func FuzzVerify(f *testing.F) {
	f.Add(vectorHeader, []byte(vectorBody))
	f.Add("0x:0x", []byte{})
	f.Add(":", []byte("x"))
	f.Add("0x96216849c49358B10257cb55b28eA603c874b05E:0x"+strings.Repeat("ff", 65), []byte("Hello"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		signer, err := Verify(header, body)
		if err == nil && header != "" {
			// A success must name the address the header states.
			a, _, _ := strings.Cut(header, ":")
			if !strings.EqualFold(strings.TrimSpace(a), signer.Hex()) {
				t.Fatalf("accepted %q for signer %s", header, signer)
			}
		}
	})
}

func BenchmarkVerify(b *testing.B) {
	key, _ := crypto.HexToECDSA(vectorKey)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[{"txs":["0x02f870"],"slot":"12345"}]}`)
	h, _ := Sign(body, key)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(h, body); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeccakBody is the baseline: hashing the body alone.
func BenchmarkKeccakBody(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[{"txs":["0x02f870"],"slot":"12345"}]}`)
	for b.Loop() {
		crypto.Keccak256Hash(body)
	}
}

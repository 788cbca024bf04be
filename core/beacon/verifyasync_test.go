package beacon

import (
	"errors"
	"testing"

	blst "github.com/supranational/blst/bindings/go"
)

// TestSplitVerificationParts: the verification's result does not depend on
// which goroutine ran its first parts, and a signature the caller found
// invalid ends it before the root is hashed.
func TestSplitVerificationParts(t *testing.T) {
	sk, _ := DeriveSecretKey(make([]byte, 32))
	pk, _ := ParsePublicKey(sk.PublicKey())
	root := Root{5}
	valid := sk.SignRoot(root)
	other := sk.SignRoot(Root{6})
	split := func(sig BLSSignature) *Verification {
		return &Verification{
			pk:   pk,
			sig:  newPart(func() (*blst.P2Affine, error) { return checkedSignature(sig) }),
			hash: newPart(func() (*blst.P2Affine, error) { return blst.HashToG2(root[:], dst).ToAffine(), nil }),
		}
	}
	for _, c := range []struct {
		name         string
		sig          BLSSignature
		callerClaims func(v *Verification)
		valid        bool
	}{
		{"valid, the caller checked the signature", valid, func(v *Verification) { v.sig.claim() }, true},
		{"valid, the caller ran both parts", valid, func(v *Verification) { v.sig.claim(); v.hash.claim() }, true},
		{"valid, the new goroutine ran both", valid, func(*Verification) {}, true},
		{"another root's signature, the caller ran both", other, func(v *Verification) { v.sig.claim(); v.hash.claim() }, false},
		{"another root's signature, the new goroutine ran both", other, func(*Verification) {}, false},
	} {
		v := split(c.sig)
		c.callerClaims(v)
		if err := v.finish(); (err == nil) != c.valid || err != nil && !errors.Is(err, ErrInvalidSignature) {
			t.Errorf("%s: %v", c.name, err)
		}
	}

	v := split(BLSSignature{0: 0xc0}) // the point at infinity
	v.sig.claim()
	if err := v.finish(); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("the point at infinity: %v", err)
	}
	if v.hash.state.Load() != partFree {
		t.Fatal("the root was hashed for a signature already found invalid")
	}
}

// TestVerifyRootBeside: the split verification agrees with VerifyRoot, and
// runs beside exactly when the signature decodes.
func TestVerifyRootBeside(t *testing.T) {
	key, err := GenerateSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	pk, err := ParsePublicKey(key.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	root := Root{1, 2, 3}
	sig := key.SignRoot(root)
	var other Root
	other[0] = 9
	cases := []struct {
		name       string
		root       Root
		sig        BLSSignature
		ok, beside bool
	}{
		{"valid", root, sig, true, true},
		{"other root", other, sig, false, true},
		{"garbage signature", root, BLSSignature{1}, false, false},
		{"infinity", root, BLSSignature{0xc0}, false, false},
	}
	for _, c := range cases {
		ran := 0
		err := VerifyRootBeside(pk, c.root, c.sig, nil, func() { ran++ })
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrInvalidSignature)) {
			t.Errorf("%s: %v", c.name, err)
		}
		if want := VerifyRoot(pk, c.root, c.sig); (want == nil) != (err == nil) {
			t.Errorf("%s: VerifyRoot says %v, VerifyRootBeside %v", c.name, want, err)
		}
		if (ran == 1) != c.beside || ran > 1 {
			t.Errorf("%s: beside ran %d times", c.name, ran)
		}
	}
}

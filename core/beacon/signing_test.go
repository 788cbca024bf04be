package beacon

import (
	"errors"
	"testing"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/gavel-eth/gavel/params"
)

func mustHex32(t *testing.T, s string) (d Domain) {
	t.Helper()
	if err := decodeHexFixed(d[:], []byte(s)); err != nil {
		t.Fatal(err)
	}
	return d
}

// Domains from the relay fact sheet (computed independently with the consensus-specs
// formula); the mainnet builder domain is the widely published f5a5fd42... value.
func TestDomains(t *testing.T) {
	if got, want := BuilderDomain(params.MainnetBeaconConfig), mustHex32(t, "0x00000001f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a9"); got != want {
		t.Fatalf("mainnet builder domain %x", got)
	}
	if got, want := BuilderDomain(params.HoodiBeaconConfig), mustHex32(t, "0x00000001719103511efa4f1362ff2a50996cccf329cc84cb410c5e5c7d351d03"); got != want {
		t.Fatalf("hoodi builder domain %x", got)
	}
	tests := []struct {
		cfg  *params.BeaconConfig
		fork params.ConsensusFork
		want string
	}{
		{params.MainnetBeaconConfig, params.ForkCapella, "0x00000000bba4da96354c9f25476cf1bc69bf583a7f9e0af049305b62de676640"},
		{params.MainnetBeaconConfig, params.ForkFulu, "0x0000000082fae541f8a3db43adb5e7997ac5f562cf682ce6bc41b8ec28ba1a07"},
		{params.SepoliaBeaconConfig, params.ForkElectra, "0x0000000014045b5a1d8da091c2ee9e635b64eb2f9c81e0683f21dd0491e95aaa"},
		{params.HoleskyBeaconConfig, params.ForkDeneb, "0x0000000069ae0e9900d509b38350c53915fccde15c6ef44214aa1b5bdec34d3a"},
		{params.HoodiBeaconConfig, params.ForkFulu, "0x00000000e9730835ed8469ff3cbc6064cb6e858ed44584ee2b21754ea0cd0ab5"},
	}
	for _, tt := range tests {
		got, err := ProposerDomain(tt.cfg, tt.fork)
		if err != nil {
			t.Fatal(err)
		}
		if got != mustHex32(t, tt.want) {
			t.Errorf("%s %s proposer domain %x, want %s", tt.cfg.Name, tt.fork, got, tt.want)
		}
	}
	if _, err := ProposerDomain(params.GoerliBeaconConfig, params.ForkFulu); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("goerli fulu: got %v", err)
	}
}

func TestSignVerify(t *testing.T) {
	key, err := DeriveSecretKey([]byte("gavel test key material, 32 bytes at least"))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := SecretKeyFromBytes(key.Bytes())
	if again.PublicKey() != key.PublicKey() {
		t.Fatal("secret key bytes do not round-trip")
	}
	domain := BuilderDomain(params.DevBeaconConfig(0, 2, Root{}))
	bt := &BidTrace{Slot: 3, BuilderPubkey: key.PublicKey(), Value: U256FromUint64(1)}
	sig, err := key.Sign(bt, domain)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(key.PublicKey(), bt, domain, sig); err != nil {
		t.Fatal(err)
	}
	bt.Slot++
	if err := Verify(key.PublicKey(), bt, domain, sig); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("changed message: got %v", err)
	}
	bt.Slot--
	if err := Verify(key.PublicKey(), bt, BuilderDomain(params.MainnetBeaconConfig), sig); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("other domain: got %v", err)
	}
	var junk BLSSignature
	junk[0] = 0xff
	if err := Verify(key.PublicKey(), bt, domain, junk); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("junk signature: got %v", err)
	}
	var badKey BLSPubkey
	if err := Verify(badKey, bt, domain, sig); !errors.Is(err, ErrInvalidPubkey) {
		t.Fatalf("zero pubkey: got %v", err)
	}
	if _, err := SecretKeyFromBytes(make([]byte, 32)); !errors.Is(err, ErrInvalidSecretKey) {
		t.Fatalf("zero secret key: got %v", err)
	}
	if _, err := SecretKeyFromBytes(make([]byte, 31)); !errors.Is(err, ErrInvalidSecretKey) {
		t.Fatalf("short secret key: got %v", err)
	}
}

// The proposer path with our own key: no vector carries a proposer's public key, so the
// Goerli blinded block is re-signed here with DOMAIN_BEACON_PROPOSER.
func TestProposerSignature(t *testing.T) {
	key, _ := DeriveSecretKey(make([]byte, 32))
	b, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkDeneb, readVector(t, "signedBlindedBeaconBlockDeneb_Goerli.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := params.GoerliBeaconConfig
	domain, _ := ProposerDomain(cfg, params.ForkDeneb)
	if b.Deneb.Signature, err = key.Sign(b.Message(), domain); err != nil {
		t.Fatal(err)
	}
	if err := b.VerifySignature(cfg, key.PublicKey()); err != nil {
		t.Fatal(err)
	}
	if err := b.VerifySignature(params.MainnetBeaconConfig, key.PublicKey()); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("other network: got %v", err)
	}
	b.Fork = params.ForkCapella // wrong fork version in the domain
	if err := b.VerifySignature(cfg, key.PublicKey()); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("other fork: got %v", err)
	}
	b.Fork = params.ForkDeneb
	b.Deneb.Message.ProposerIndex ^= 1
	if err := b.VerifySignature(cfg, key.PublicKey()); !errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("changed block: got %v", err)
	}
}

// A relay re-signs each bid with its own key; the bid must verify and carry the payload's
// header.
func TestNewSignedBuilderBid(t *testing.T) {
	key, _ := DeriveSecretKey(make([]byte, 32))
	domain := BuilderDomain(params.GoerliBeaconConfig)
	for _, name := range []string{"submitBlockPayloadCapella_Goerli", "submitBlockPayloadDeneb_Goerli", "submitBlockPayloadElectra", "submitBlockPayloadFulu"} {
		var fork params.ConsensusFork
		switch {
		case name == "submitBlockPayloadCapella_Goerli":
			fork = params.ForkCapella
		case name == "submitBlockPayloadDeneb_Goerli":
			fork = params.ForkDeneb
		case name == "submitBlockPayloadElectra":
			fork = params.ForkElectra
		default:
			fork = params.ForkFulu
		}
		sub, err := DecodeSubmissionSSZ(MainnetSpec, fork, readVector(t, name+".ssz.gz"))
		if err != nil {
			t.Fatal(err)
		}
		var commitments []KZGCommitment
		if bb := sub.BlobsBundle(); bb != nil {
			commitments = bb.Commitments
		}
		bid, err := NewSignedBuilderBid(MainnetSpec, sub.Payload(), commitments, sub.ExecutionRequests(), sub.BidTrace().Value, key, domain)
		if err != nil {
			t.Fatal(err)
		}
		if err := bid.VerifySignature(domain); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if bid.Header().BlockHash() != sub.BidTrace().BlockHash || bid.Value() != sub.BidTrace().Value || bid.Pubkey() != key.PublicKey() {
			t.Fatalf("%s: bid does not carry the submission's header and value", name)
		}
		// Encodings decode back to the same bid.
		enc, _ := bid.MarshalSSZ()
		back, err := DecodeSignedBuilderBidSSZ(MainnetSpec, fork, enc)
		if err != nil || back.Signature() != bid.Signature() {
			t.Fatalf("%s: SSZ round trip: %v", name, err)
		}
		js, _ := bid.MarshalJSON()
		back, err = DecodeSignedBuilderBidJSON(MainnetSpec, fork, js)
		if err != nil || back.Signature() != bid.Signature() {
			t.Fatalf("%s: JSON round trip: %v", name, err)
		}
		// The payload response for getPayload.
		resp, err := PayloadResponse(sub.Payload(), sub.BlobsBundle())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := resp.MarshalSSZ(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestVerifyBatchEdgeCases(t *testing.T) {
	if err := VerifyBatch(nil); err != nil {
		t.Fatalf("empty batch: %v", err)
	}
	key, _ := GenerateSecretKey()
	root := Root{1}
	set := SignatureSet{Pubkey: key.PublicKey(), Root: root, Signature: key.SignRoot(root)}
	if err := VerifyBatch([]SignatureSet{set, set}); err != nil {
		t.Fatalf("repeated set: %v", err)
	}
	bad := set
	bad.Pubkey = BLSPubkey{}
	var be *BatchError
	if err := VerifyBatch([]SignatureSet{set, bad}); !errors.As(err, &be) || be.Index != 1 || !errors.Is(err, ErrInvalidPubkey) {
		t.Fatalf("bad pubkey: got %v", err)
	}
	// Two wrong signatures whose errors cancel in an unweighted sum must still fail.
	other, _ := GenerateSecretKey()
	s1 := SignatureSet{Pubkey: key.PublicKey(), Root: root, Signature: other.SignRoot(root)}
	s2 := SignatureSet{Pubkey: other.PublicKey(), Root: root, Signature: key.SignRoot(root)}
	if err := VerifyBatch([]SignatureSet{s1, s2}); !errors.As(err, &be) || be.Index != 0 {
		t.Fatalf("swapped signatures: got %v", err)
	}
}

// TestVerifyBatchFirstBad checks that the growing batches and bisection
// name the first bad set wherever it is (inside the first batch, in a later
// one, at a boundary) with good and bad sets after it.
func TestVerifyBatchFirstBad(t *testing.T) {
	key, _ := GenerateSecretKey()
	sets := make([]SignatureSet, 300)
	for i := range sets {
		root := Root{byte(i), byte(i >> 8)}
		sets[i] = SignatureSet{Pubkey: key.PublicKey(), Root: root, Signature: key.SignRoot(root)}
	}
	if err := VerifyBatch(sets); err != nil {
		t.Fatalf("good sets: %v", err)
	}
	for _, bad := range []int{0, 63, 64, 100, 191, 192, 299} {
		broken := append([]SignatureSet(nil), sets...)
		broken[bad].Root[31] = 1
		if bad+7 < len(broken) {
			broken[bad+7].Root[31] = 1
		}
		var be *BatchError
		if err := VerifyBatch(broken); !errors.As(err, &be) || be.Index != bad || !errors.Is(err, ErrInvalidSignature) {
			t.Fatalf("bad set %d: got %v", bad, err)
		}
	}
}

// TestVerifyRootAsync: the split verification agrees with VerifyRoot on a
// valid signature, a wrong root, a wrong key, a point on the curve outside
// the G2 subgroup, the point at infinity and bytes that do not decompress.
func TestVerifyRootAsync(t *testing.T) {
	sk, _ := GenerateSecretKey()
	other, _ := GenerateSecretKey()
	pk, _ := ParsePublicKey(sk.PublicKey())
	otherPK, _ := ParsePublicKey(other.PublicKey())
	root := Root{1, 2, 3}
	sig := sk.SignRoot(root)

	var outside BLSSignature // x = i, compressed: the first i whose point is on the curve
	for i := byte(1); ; i++ {
		outside = BLSSignature{0: 0x80, 95: i}
		if p := new(blst.P2Affine).Uncompress(outside[:]); p != nil {
			if p.InG2() {
				t.Fatal("a point of the subgroup found by counting")
			}
			break
		}
	}
	infinity := BLSSignature{0: 0xc0}
	garbage := BLSSignature{0: 0x80, 1: 0xff, 95: 0xff}

	for _, c := range []struct {
		name  string
		pk    *PublicKey
		root  Root
		sig   BLSSignature
		valid bool
	}{
		{"valid", pk, root, sig, true},
		{"wrong root", pk, Root{9}, sig, false},
		{"wrong key", otherPK, root, sig, false},
		{"outside the subgroup", pk, root, outside, false},
		{"infinity", pk, root, infinity, false},
		{"not a point", pk, root, garbage, false},
	} {
		want := VerifyRoot(c.pk, c.root, c.sig)
		if (want == nil) != c.valid {
			t.Fatalf("%s: VerifyRoot %v", c.name, want)
		}
		got := make(chan error, 1)
		VerifyRootAsync(c.pk, c.root, c.sig, nil, func(err error) { got <- err })
		err := <-got
		if (err == nil) != c.valid || !c.valid && !errors.Is(err, ErrInvalidSignature) {
			t.Errorf("%s: VerifyRootAsync %v, VerifyRoot %v", c.name, err, want)
		}
	}
}

// FuzzVerifyRootAsync: on any 96 bytes as a signature, the split
// verification gives VerifyRoot's answer, never a panic.
func FuzzVerifyRootAsync(f *testing.F) {
	sk, err := DeriveSecretKey(make([]byte, 32))
	if err != nil {
		f.Fatal(err)
	}
	pk, _ := ParsePublicKey(sk.PublicKey())
	root := Root{7}
	valid := sk.SignRoot(root)
	f.Add(valid[:])
	f.Add(append([]byte{0xc0}, make([]byte, 95)...))
	f.Add(append([]byte{0x80}, make([]byte, 95)...))
	f.Fuzz(func(t *testing.T, b []byte) {
		var sig BLSSignature
		copy(sig[:], b)
		want := VerifyRoot(pk, root, sig)
		got := make(chan error, 1)
		VerifyRootAsync(pk, root, sig, nil, func(err error) { got <- err })
		if err := <-got; (err == nil) != (want == nil) {
			t.Fatalf("VerifyRootAsync %v, VerifyRoot %v", err, want)
		}
	})
}

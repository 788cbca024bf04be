package beacon

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// Vectors in testdata/ are real relay traffic recorded on mainnet, Goerli and devnets
// (copied from the project's shared test data). Every file is used by at least one test
// below; TestEveryVectorIsUsed keeps it that way.

// kurtosisGenesisForkVersion is the genesis fork version of devnets started with the
// ethereum-package (kurtosis) defaults; the Electra and Fulu submission vectors come from
// such a devnet (prefunded fee recipient 0x8943...a776, slots 58 and 130).
var kurtosisGenesisForkVersion = params.ForkVersion{0x10, 0x00, 0x00, 0x38}

func readVector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return b
}

var usedVectors = map[string]bool{}

func useVector(t testing.TB, name string) []byte {
	usedVectors[name] = true
	return readVector(t, name)
}

// sszCodec is what sszgen generates for every container.
type sszCodec interface {
	MarshalSSZ() ([]byte, error)
	UnmarshalSSZ([]byte) error
	HashTreeRoot() ([32]byte, error)
}

// checkSSZRoundTrip decodes an SSZ vector and checks that it re-encodes byte-identically.
func checkSSZRoundTrip(t *testing.T, name string, v sszCodec) {
	t.Helper()
	raw := useVector(t, name)
	if err := v.UnmarshalSSZ(raw); err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	out, err := v.MarshalSSZ()
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	if !bytes.Equal(out, raw) {
		t.Fatalf("%s: SSZ re-encoding differs (%d vs %d bytes)", name, len(out), len(raw))
	}
}

// checkJSONRoundTrip decodes a JSON vector strictly and checks that re-encoding gives the
// input in compact form (hex compared case-insensitively: the vectors use checksummed
// addresses, gavel writes lower case).
func checkJSONRoundTrip(t *testing.T, name string, raw []byte, v any) {
	t.Helper()
	if err := UnmarshalJSONStrict(raw, v); err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	out, err := MarshalJSONCompact(v)
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		t.Fatal(err)
	}
	want := bytes.ToLower(compact.Bytes())
	if !bytes.Equal(out, want) {
		i := 0
		for i < len(out) && i < len(want) && out[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("%s: JSON re-encoding differs at byte %d:\n got %s\nwant %s", name, i,
			out[lo:min(len(out), i+80)], want[lo:min(len(want), i+80)])
	}
}

// checkSubmissionAccessors checks the fork-independent view of a decoded submission
// against what the vectors are known to hold.
func checkSubmissionAccessors(t *testing.T, s *Submission) {
	t.Helper()
	bt, p := s.BidTrace(), s.Payload()
	v := p.View()
	if bt.BlockHash != v.BlockHash || bt.ParentHash != v.ParentHash || bt.GasUsed != v.GasUsed || bt.GasLimit != v.GasLimit {
		t.Fatal("bid trace and payload disagree")
	}
	if (s.BlobsBundle() != nil) != (s.Fork >= params.ForkDeneb) || (s.ExecutionRequests() != nil) != (s.Fork >= params.ForkElectra) {
		t.Fatal("accessors for fork-specific parts are wrong")
	}
	if b := s.BlobsBundle(); b != nil && len(b.Commitments) != len(b.Blobs) {
		t.Fatal("bundle has unequal commitments and blobs")
	}
	// Through geth's engine form and back gives the same payload and the same root.
	back, err := ExecutionPayloadFromExecutableData(s.Fork, p.ToExecutableData())
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := p.HashTreeRoot()
	r2, _ := back.HashTreeRoot()
	if r1 != r2 || !reflect.DeepEqual(back.View(), v) {
		t.Fatal("payload changed through engine.ExecutableData")
	}
	// The header built from the payload commits to it: same root as the SSZ header form.
	h, err := p.Header(MainnetSpec)
	if err != nil {
		t.Fatal(err)
	}
	if h.BlockHash() != v.BlockHash {
		t.Fatal("header block hash differs")
	}
	// SSZ encode, then decode by fork, then compare.
	enc, _ := s.MarshalSSZ()
	again, err := DecodeSubmissionSSZ(MainnetSpec, s.Fork, enc)
	if err != nil || !reflect.DeepEqual(again, s) {
		t.Fatalf("submission SSZ round trip: %v", err)
	}
	if slot, err := SubmissionSlotSSZ(enc); err != nil || slot != bt.Slot {
		t.Fatalf("slot from SSZ: %d %v, want %d", slot, err, bt.Slot)
	}
	js, _ := s.MarshalJSON()
	if slot, err := SubmissionSlotJSON(js); err != nil || slot != bt.Slot {
		t.Fatalf("slot from JSON: %d %v, want %d", slot, err, bt.Slot)
	}
}

func TestSubmissionVectors(t *testing.T) {
	tests := []struct {
		name    string
		fork    params.ConsensusFork
		builder Domain
		json    any
		ssz     sszCodec
	}{
		{"submitBlockPayloadCapella_Goerli", params.ForkCapella, BuilderDomain(params.GoerliBeaconConfig), new(SubmitBlockRequestCapella), new(SubmitBlockRequestCapella)},
		{"submitBlockPayloadDeneb_Goerli", params.ForkDeneb, BuilderDomain(params.GoerliBeaconConfig), new(SubmitBlockRequestDeneb), new(SubmitBlockRequestDeneb)},
		{"submitBlockPayloadElectra", params.ForkElectra, ComputeDomain(DomainApplicationBuilder, kurtosisGenesisForkVersion, Root{}), new(SubmitBlockRequestElectra), new(SubmitBlockRequestElectra)},
		// The Fulu vector's builder signature verifies under no domain we could find (every
		// genesis fork version of the forms {a,0,0,b} and {a,b,0,0} was tried): it is
		// decoded and round-tripped, and its signature is checked not to verify.
		{"submitBlockPayloadFulu", params.ForkFulu, Domain{}, new(SubmitBlockRequestFulu), new(SubmitBlockRequestFulu)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSSZRoundTrip(t, tt.name+".ssz.gz", tt.ssz)
			checkJSONRoundTrip(t, tt.name+".json.gz", useVector(t, tt.name+".json.gz"), tt.json)
			if !reflect.DeepEqual(tt.json, tt.ssz) {
				t.Fatal("JSON and SSZ vectors decode to different values")
			}
			sub, err := NewSubmission(MainnetSpec, tt.fork, tt.ssz)
			if err != nil {
				t.Fatal(err)
			}
			checkSubmissionAccessors(t, sub)
			if tt.builder == (Domain{}) {
				if err := sub.VerifySignature(ComputeDomain(DomainApplicationBuilder, kurtosisGenesisForkVersion, Root{})); !errors.Is(err, ErrInvalidSignature) {
					t.Fatalf("unattributed vector: got %v", err)
				}
				return
			}
			if err := sub.VerifySignature(tt.builder); err != nil {
				t.Fatalf("builder signature: %v", err)
			}
			flipped := *sub.BidTrace()
			flipped.GasUsed ^= 1
			if err := Verify(flipped.BuilderPubkey, &flipped, tt.builder, sub.Signature()); err == nil {
				t.Fatal("signature verifies over a modified bid trace")
			}
			sig := sub.Signature()
			sig[len(sig)-1] ^= 1
			if err := Verify(sub.BidTrace().BuilderPubkey, sub.BidTrace(), tt.builder, sig); err == nil {
				t.Fatal("modified signature verifies")
			}
		})
	}
}

// kilnGenesisForkVersion is the genesis fork version of the Kiln merge testnet, where the
// registration vectors (valreg*.json, June/July 2022) were signed.
var kilnGenesisForkVersion = params.ForkVersion{0x70, 0x00, 0x00, 0x69}

func TestGetHeaderVectors(t *testing.T) {
	tests := []struct {
		name string
		fork params.ConsensusFork
		cfg  *params.BeaconConfig
	}{
		// Despite its name, this response was signed under Goerli's builder domain (genesis
		// fork version 0x00001020); it does not verify under mainnet's (checked below).
		{"getHeaderResponseCapella_Mainnet", params.ForkCapella, params.GoerliBeaconConfig},
		{"getHeaderResponseDeneb_Goerli", params.ForkDeneb, params.GoerliBeaconConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := useVector(t, tt.name+".ssz")
			fromSSZ, err := DecodeSignedBuilderBidSSZ(MainnetSpec, tt.fork, raw)
			if err != nil {
				t.Fatal(err)
			}
			if out, _ := fromSSZ.MarshalSSZ(); !bytes.Equal(out, raw) {
				t.Fatal("SSZ re-encoding differs")
			}
			var env struct {
				Version string          `json:"version"`
				Data    json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(useVector(t, tt.name+".json"), &env); err != nil {
				t.Fatal(err)
			}
			if env.Version != tt.fork.String() {
				t.Fatalf("version %q, want %q", env.Version, tt.fork)
			}
			fromJSON, err := DecodeSignedBuilderBidJSON(MainnetSpec, tt.fork, env.Data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fromJSON, fromSSZ) {
				t.Fatal("JSON and SSZ vectors decode to different bids")
			}
			checkJSONRoundTrip(t, tt.name+".json", env.Data, fromSSZ.container())
			domain := BuilderDomain(tt.cfg)
			if err := fromSSZ.VerifySignature(domain); err != nil {
				t.Fatalf("relay signature: %v", err)
			}
			// One bit of the signed message.
			raw2 := bytes.Clone(raw)
			raw2[len(raw2)-96-1] ^= 1 // last byte of the bid's pubkey... still a message bit
			tampered, err := DecodeSignedBuilderBidSSZ(MainnetSpec, tt.fork, raw2)
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(fromSSZ.Pubkey(), tampered.Message(), domain, tampered.Signature()); err == nil {
				t.Fatal("signature verifies over a modified bid")
			}
			sig := fromSSZ.Signature()
			sig[10] ^= 0x01
			if err := Verify(fromSSZ.Pubkey(), fromSSZ.Message(), domain, sig); err == nil {
				t.Fatal("modified signature verifies")
			}
			// Another network's domain must fail.
			if err := fromSSZ.VerifySignature(BuilderDomain(params.MainnetBeaconConfig)); err == nil {
				t.Fatal("signature verifies under mainnet's builder domain")
			}
		})
	}
}

func TestPayloadVectors(t *testing.T) {
	var capella ExecutionPayloadCapella
	checkJSONRoundTrip(t, "executionPayloadCapella_Goerli.json.gz", useVector(t, "executionPayloadCapella_Goerli.json.gz"), &capella)
	sub, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkCapella, readVector(t, "submitBlockPayloadCapella_Goerli.ssz.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(capella, sub.Capella.ExecutionPayload) {
		t.Fatal("payload vector differs from the payload of the Capella submission with the same block hash")
	}

	var deneb ExecutionPayloadAndBlobsBundle
	checkJSONRoundTrip(t, "executionPayloadAndBlobsBundleDeneb_Goerli.json.gz", useVector(t, "executionPayloadAndBlobsBundleDeneb_Goerli.json.gz"), &deneb)
	enc, err := deneb.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	var back ExecutionPayloadAndBlobsBundle
	if err := back.UnmarshalSSZ(enc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, deneb) {
		t.Fatal("SSZ round trip of the Deneb payload and bundle changed it")
	}
}

func TestBlindedBlockVectors(t *testing.T) {
	// Capella: the blinded and the full block of slot 5610357 on Goerli.
	blinded, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkCapella, useVector(t, "signedBlindedBeaconBlockCapella_Goerli.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	checkJSONRoundTrip(t, "signedBlindedBeaconBlockCapella_Goerli.json.gz", readVector(t, "signedBlindedBeaconBlockCapella_Goerli.json.gz"), new(SignedBlindedBeaconBlockCapella))
	var full SignedBeaconBlockCapella
	checkJSONRoundTrip(t, "signedBeaconBlockCapella_Goerli.json.gz", useVector(t, "signedBeaconBlockCapella_Goerli.json.gz"), &full)
	payload, _ := NewExecutionPayload(params.ForkCapella, &full.Message.Body.ExecutionPayload)
	contents, err := blinded.Unblind(payload, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(contents.Capella, &full) {
		t.Fatal("unblinded block differs from the published full block")
	}
	blindedRoot, _ := blinded.Message().HashTreeRoot()
	fullRoot, _ := contents.BlockRoot()
	if blindedRoot != fullRoot {
		t.Fatalf("blinded root %x != full root %x", blindedRoot, fullRoot)
	}
	checkSSZBackAndForth(t, blinded.Capella, new(SignedBlindedBeaconBlockCapella))
	checkSSZBackAndForth(t, &full, new(SignedBeaconBlockCapella))

	// Deneb: the blinded block vector, and the full block contents vector blinded by us
	// and unblinded again.
	blindedDeneb, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkDeneb, useVector(t, "signedBlindedBeaconBlockDeneb_Goerli.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	checkJSONRoundTrip(t, "signedBlindedBeaconBlockDeneb_Goerli.json.gz", readVector(t, "signedBlindedBeaconBlockDeneb_Goerli.json.gz"), new(SignedBlindedBeaconBlockDeneb))
	checkSSZBackAndForth(t, blindedDeneb.Deneb, new(SignedBlindedBeaconBlockDeneb))

	var fullDeneb SignedBlockContentsDeneb
	checkJSONRoundTrip(t, "signedBeaconBlockContentsDeneb_Goerli.json.gz", useVector(t, "signedBeaconBlockContentsDeneb_Goerli.json.gz"), &fullDeneb)
	checkSSZBackAndForth(t, &fullDeneb, new(SignedBlockContentsDeneb))
	reblinded, payloadDeneb := blindDeneb(t, &fullDeneb.SignedBlock)
	bundle := &BlobsBundle{Commitments: fullDeneb.SignedBlock.Message.Body.BlobKZGCommitments, Proofs: fullDeneb.KZGProofs, Blobs: fullDeneb.Blobs}
	back, err := reblinded.Unblind(payloadDeneb, bundle)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Deneb, &fullDeneb) {
		t.Fatal("blind + unblind of the Deneb block contents changed them")
	}
	r1, _ := reblinded.Message().HashTreeRoot()
	r2, _ := fullDeneb.SignedBlock.Message.HashTreeRoot()
	if r1 != r2 {
		t.Fatal("blinded and full Deneb block roots differ")
	}
	// A payload that is not the signed one is refused.
	other := *payloadDeneb.Deneb
	other.GasUsed++
	wrong, _ := NewExecutionPayload(params.ForkDeneb, &other)
	if _, err := reblinded.Unblind(wrong, bundle); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("wrong payload: got %v, want ErrPayloadMismatch", err)
	}
	short := *bundle
	short.Blobs = short.Blobs[1:]
	if _, err := reblinded.Unblind(payloadDeneb, &short); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("missing blob: got %v, want ErrPayloadMismatch", err)
	}
}

// blindDeneb turns a full Deneb block into the blinded block a proposer would have signed.
func blindDeneb(t *testing.T, b *SignedBeaconBlockDeneb) (*SignedBlindedBeaconBlock, *ExecutionPayload) {
	t.Helper()
	payload, err := NewExecutionPayload(params.ForkDeneb, &b.Message.Body.ExecutionPayload)
	if err != nil {
		t.Fatal(err)
	}
	h, err := payload.Header(MainnetSpec)
	if err != nil {
		t.Fatal(err)
	}
	m, bd := &b.Message, &b.Message.Body
	return &SignedBlindedBeaconBlock{Fork: params.ForkDeneb, Deneb: &SignedBlindedBeaconBlockDeneb{
		Message: BlindedBeaconBlockDeneb{m.Slot, m.ProposerIndex, m.ParentRoot, m.StateRoot, BlindedBeaconBlockBodyDeneb{
			bd.RandaoReveal, bd.Eth1Data, bd.Graffiti, bd.ProposerSlashings, bd.AttesterSlashings, bd.Attestations,
			bd.Deposits, bd.VoluntaryExits, bd.SyncAggregate, *h.Deneb, bd.BLSToExecutionChanges, bd.BlobKZGCommitments}},
		Signature: b.Signature,
	}}, payload
}

// checkSSZBackAndForth encodes v, decodes it into fresh and checks both are equal and
// re-encode identically (for vectors that exist only as JSON).
func checkSSZBackAndForth(t *testing.T, v, fresh sszCodec) {
	t.Helper()
	enc, err := v.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if err := fresh.UnmarshalSSZ(enc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, fresh) {
		t.Fatalf("%T: SSZ decode(encode(x)) != x", v)
	}
	r1, _ := v.HashTreeRoot()
	r2, _ := fresh.HashTreeRoot()
	if r1 != r2 {
		t.Fatalf("%T: roots differ after SSZ round trip", v)
	}
}

func TestRegistrationVectors(t *testing.T) {
	domain := ComputeDomain(DomainApplicationBuilder, kilnGenesisForkVersion, Root{})
	total := 0
	for _, name := range []string{"valreg0.json", "valreg1.json", "valreg2.json.gz"} {
		raw := useVector(t, name)
		regs, err := DecodeRegistrationsJSON(raw)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		total += len(regs)
		out, err := EncodeRegistrationsJSON(regs)
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		json.Compact(&compact, raw)
		if !bytes.Equal(out, bytes.ToLower(compact.Bytes())) {
			t.Fatalf("%s: JSON re-encoding differs", name)
		}
		ssz, err := EncodeRegistrationsSSZ(regs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeRegistrationsSSZ(ssz)
		if err != nil || !reflect.DeepEqual(back, regs) {
			t.Fatalf("%s: SSZ round trip: %v", name, err)
		}
		if err := VerifyRegistrations(domain, regs); err != nil {
			t.Fatalf("%s: batch verify: %v", name, err)
		}
		if err := regs[0].VerifySignature(domain); err != nil {
			t.Fatalf("%s: single verify: %v", name, err)
		}
		// One bit in one registration of the batch: the batch fails and names it.
		bad := len(regs) / 2
		regs[bad].Message.Timestamp ^= 1
		var be *BatchError
		if err := VerifyRegistrations(domain, regs); !errors.As(err, &be) || be.Index != bad || !errors.Is(err, ErrInvalidSignature) {
			t.Fatalf("%s: tampered batch: got %v, want BatchError at %d", name, err, bad)
		}
		if err := regs[bad].VerifySignature(domain); !errors.Is(err, ErrInvalidSignature) {
			t.Fatalf("%s: tampered registration verifies: %v", name, err)
		}
		regs[bad].Message.Timestamp ^= 1
		regs[bad].Signature[5] ^= 0x10
		if err := VerifyRegistrations(domain, regs); !errors.As(err, &be) || be.Index != bad {
			t.Fatalf("%s: bad signature in batch: got %v", name, err)
		}
	}
	if total != 1351 {
		t.Fatalf("decoded %d registrations, the vectors hold 1351", total)
	}
	// Not mainnet's domain: the network matters.
	regs, _ := DecodeRegistrationsJSON(readVector(t, "valreg0.json"))
	if err := regs[0].VerifySignature(BuilderDomain(params.MainnetBeaconConfig)); err == nil {
		t.Fatal("kiln registration verifies under mainnet's builder domain")
	}
}

func TestPartialSubmissionVector(t *testing.T) {
	raw := useVector(t, "submitBlockPayload.json.gz")
	// The vector holds only message.slot, execution_payload.parent_hash and signature; it
	// exists to test reading the slot without the Eth-Consensus-Version header.
	slot, err := SubmissionSlotJSON(raw)
	if err != nil || slot != 123 {
		t.Fatalf("slot: got %d, %v; want 123", slot, err)
	}
	if _, err := DecodeSubmissionJSON(MainnetSpec, params.ForkCapella, raw); !errors.Is(err, ErrMissingField) {
		t.Fatalf("full decode of the partial vector: got %v, want ErrMissingField", err)
	}
}

// TestMain checks, after a full run of the package's tests, that every file
// in testdata/ was read by some vector test: a vector nobody decodes proves
// nothing. A run restricted with -run or -short reads only some of them, so
// the check applies to full runs only.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && !testing.Short() && flag.Lookup("test.run").Value.String() == "" {
		if unused := unusedVectors(); len(unused) > 0 {
			fmt.Fprintf(os.Stderr, "FAIL: testdata files not used by any vector test: %s\n", strings.Join(unused, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

func unusedVectors() []string {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		return []string{"(cannot read testdata: " + err.Error() + ")"}
	}
	var unused []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") && !usedVectors[e.Name()] {
			unused = append(unused, e.Name())
		}
	}
	return unused
}

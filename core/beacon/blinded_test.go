package beacon

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// blindedFromSubmission builds the blinded block a proposer would sign for a submission's
// payload (Electra/Fulu container), signs it with key and returns it.
func blindedFromSubmission(t *testing.T, fork params.ConsensusFork, s *Submission, cfg *params.BeaconConfig, key *SecretKey) *SignedBlindedBeaconBlock {
	t.Helper()
	h, err := s.Payload().Header(MainnetSpec)
	if err != nil {
		t.Fatal(err)
	}
	body := BlindedBeaconBlockBodyElectra{
		RandaoReveal:           BLSSignature{0xc0},
		Eth1Data:               Eth1Data{DepositCount: 3},
		Graffiti:               Root{'g', 'a', 'v', 'e', 'l'},
		ProposerSlashings:      []ProposerSlashing{},
		AttesterSlashings:      []AttesterSlashingElectra{},
		Attestations:           []AttestationElectra{{AggregationBits: []byte{0x0f}, CommitteeBits: []byte{1, 0, 0, 0, 0, 0, 0, 0}}},
		Deposits:               []Deposit{},
		VoluntaryExits:         []SignedVoluntaryExit{},
		SyncAggregate:          SyncAggregate{SyncCommitteeBits: make([]byte, 64), SyncCommitteeSignature: BLSSignature{0xc0}},
		ExecutionPayloadHeader: *h.Deneb,
		BLSToExecutionChanges:  []SignedBLSToExecutionChange{},
		BlobKZGCommitments:     s.BlobsBundle().Commitments,
		ExecutionRequests:      *s.ExecutionRequests(),
	}
	b := &SignedBlindedBeaconBlock{Fork: fork, Electra: &SignedBlindedBeaconBlockElectra{
		Message: BlindedBeaconBlockElectra{Slot: s.BidTrace().Slot, ProposerIndex: 5, ParentRoot: Root{1}, StateRoot: Root{2}, Body: body},
	}}
	domain, err := ProposerDomain(cfg, fork)
	if err != nil {
		t.Fatal(err)
	}
	if b.Electra.Signature, err = key.Sign(b.Message(), domain); err != nil {
		t.Fatal(err)
	}
	return b
}

func TestUnblindElectraAndFulu(t *testing.T) {
	cfg := params.DevBeaconConfig(1_700_000_000, 2, Root{9})
	key, _ := DeriveSecretKey([]byte("proposer key material for the unblind test"))
	for _, tt := range []struct {
		fork   params.ConsensusFork
		vector string
		proofs int
	}{
		{params.ForkElectra, "submitBlockPayloadElectra.ssz.gz", 1},
		{params.ForkFulu, "submitBlockPayloadFulu.ssz.gz", CellsPerExtBlob},
	} {
		t.Run(tt.fork.String(), func(t *testing.T) {
			sub, err := DecodeSubmissionSSZ(MainnetSpec, tt.fork, readVector(t, tt.vector))
			if err != nil {
				t.Fatal(err)
			}
			bundle := sub.BlobsBundle()
			if len(bundle.Proofs) != tt.proofs*len(bundle.Blobs) {
				t.Fatalf("vector has %d proofs for %d blobs", len(bundle.Proofs), len(bundle.Blobs))
			}
			blinded := blindedFromSubmission(t, tt.fork, sub, cfg, key)
			if err := blinded.VerifySignature(cfg, key.PublicKey()); err != nil {
				t.Fatal(err)
			}
			// Through the wire forms first, as a relay would receive it.
			enc, _ := blinded.MarshalSSZ()
			fromSSZ, err := DecodeSignedBlindedBeaconBlockSSZ(MainnetSpec, tt.fork, enc)
			if err != nil {
				t.Fatal(err)
			}
			js, _ := blinded.MarshalJSON()
			fromJSON, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, tt.fork, js)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fromSSZ, fromJSON) {
				t.Fatal("blinded block differs between SSZ and JSON")
			}
			if fromJSON.Slot() != sub.BidTrace().Slot || fromJSON.ProposerIndex() != 5 || len(fromJSON.BlobKZGCommitments()) != len(bundle.Blobs) {
				t.Fatal("accessors wrong")
			}
			contents, err := fromJSON.Unblind(sub.Payload(), bundle)
			if err != nil {
				t.Fatal(err)
			}
			if (tt.fork == params.ForkFulu) != (contents.Fulu != nil) || (tt.fork == params.ForkElectra) != (contents.Electra != nil) {
				t.Fatal("wrong block contents container for the fork")
			}
			r1, _ := blinded.Message().HashTreeRoot()
			r2, err := contents.BlockRoot()
			if err != nil || r1 != r2 {
				t.Fatalf("full block root differs from the signed blinded root: %v", err)
			}
			pub, err := contents.MarshalSSZ()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := contents.MarshalJSON(); err != nil {
				t.Fatal(err)
			}
			if tt.fork == params.ForkFulu {
				var back SignedBlockContentsFulu
				if err := back.UnmarshalSSZ(pub); err != nil || !reflect.DeepEqual(&back, contents.Fulu) {
					t.Fatalf("publish body round trip: %v", err)
				}
			}
			// A bundle missing a cell proof, or with another fork's proof count, is refused.
			short := *bundle
			short.Proofs = short.Proofs[:len(short.Proofs)-1]
			if _, err := fromJSON.Unblind(sub.Payload(), &short); !errors.Is(err, ErrPayloadMismatch) {
				t.Fatalf("short proofs: got %v", err)
			}
			if _, err := fromJSON.Unblind(sub.Payload(), nil); !errors.Is(err, ErrMissingField) {
				t.Fatalf("no bundle: got %v", err)
			}
			// getPayload's answer for the fork.
			resp, err := PayloadResponse(sub.Payload(), bundle)
			if err != nil {
				t.Fatal(err)
			}
			if _, isFulu := resp.(*ExecutionPayloadAndBlobsBundleFulu); isFulu != (tt.fork == params.ForkFulu) {
				t.Fatalf("payload response type %T for %s", resp, tt.fork)
			}
		})
	}
}

func TestUnblindRejectsWrongFork(t *testing.T) {
	sub, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkCapella, readVector(t, "submitBlockPayloadCapella_Goerli.ssz.gz"))
	if err != nil {
		t.Fatal(err)
	}
	blinded, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkDeneb, readVector(t, "signedBlindedBeaconBlockDeneb_Goerli.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blinded.Unblind(sub.Payload(), &BlobsBundle{}); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("capella payload for a deneb block: got %v", err)
	}
	if _, err := NewSubmission(MainnetSpec, params.ForkDeneb, sub.Capella); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("capella request as deneb: got %v", err)
	}
	if _, err := NewExecutionPayload(params.ForkDeneb, &sub.Capella.ExecutionPayload); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("capella payload as deneb: got %v", err)
	}
}

func TestTextMarshalers(t *testing.T) {
	// The leaf types also work with encoding/json and in query strings.
	type row struct {
		Hash  Root
		Value U256
		Key   BLSPubkey
	}
	in := row{Hash: Root{0xab}, Value: U256FromUint64(12345), Key: BLSPubkey{1}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out row
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Fatalf("encoding/json round trip: %v %s", err, b)
	}
	if in.Hash.String()[:6] != "0xab00" || in.Value.String() != "12345" {
		t.Fatal("String forms wrong")
	}
	var a Address
	if err := a.UnmarshalText([]byte("0x1234")); !errors.Is(err, ErrInvalidLength) {
		t.Fatalf("short address: got %v", err)
	}
	var u U256
	if err := u.UnmarshalText([]byte("00")); !errors.Is(err, ErrInvalidNumber) {
		t.Fatalf("leading zero: got %v", err)
	}
}

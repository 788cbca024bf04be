package beacon

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// headerVectors are the submissions whose header-first form the tests derive.
var headerVectors = []struct {
	name string
	fork params.ConsensusFork
}{
	{"submitBlockPayloadDeneb_Goerli", params.ForkDeneb},
	{"submitBlockPayloadElectra", params.ForkElectra},
	{"submitBlockPayloadFulu", params.ForkFulu},
}

func vectorSubmission(t testing.TB, name string, fork params.ConsensusFork) *Submission {
	t.Helper()
	sub, err := DecodeSubmissionSSZ(MainnetSpec, fork, readVector(t, name+".ssz.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func TestHeaderSubmissionRoundTrip(t *testing.T) {
	for _, v := range headerVectors {
		t.Run(v.name, func(t *testing.T) {
			sub := vectorSubmission(t, v.name, v.fork)
			h, err := NewHeaderSubmission(sub)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := h.MarshalSSZ()
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeHeaderSubmissionSSZ(MainnetSpec, v.fork, raw)
			if err != nil {
				t.Fatal(err)
			}
			if *back.BidTrace() != *sub.BidTrace() || back.Signature() != sub.Signature() {
				t.Fatal("trace or signature changed in the SSZ round trip")
			}
			if slot, err := HeaderSubmissionSlotSSZ(raw); err != nil || slot != sub.BidTrace().Slot {
				t.Fatalf("slot from SSZ: %d, %v; want %d", slot, err, sub.BidTrace().Slot)
			}
			js, err := h.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			fromJSON, err := DecodeHeaderSubmissionJSON(MainnetSpec, v.fork, js)
			if err != nil {
				t.Fatal(err)
			}
			if again, _ := fromJSON.MarshalSSZ(); !bytes.Equal(again, raw) {
				t.Fatal("JSON round trip changed the header submission")
			}
			if slot, err := HeaderSubmissionSlotJSON(js); err != nil || slot != sub.BidTrace().Slot {
				t.Fatalf("slot from JSON: %d, %v", slot, err)
			}
			if err := back.MatchPayload(sub); err != nil {
				t.Fatalf("the block does not match its own header: %v", err)
			}
			if (v.fork >= params.ForkElectra) != (back.ExecutionRequests() != nil) {
				t.Fatal("execution requests present in the wrong forks")
			}
		})
	}
}

// TestHeaderSubmissionMismatch: every part of the block the header announces is compared.
func TestHeaderSubmissionMismatch(t *testing.T) {
	sub := vectorSubmission(t, "submitBlockPayloadElectra", params.ForkElectra)
	fresh := func() *HeaderSubmission {
		h, err := NewHeaderSubmission(sub)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	cases := []struct {
		name   string
		change func(h *HeaderSubmission)
		want   string
	}{
		{"trace value", func(h *HeaderSubmission) { h.Electra.Message.BidTrace.Value[0] ^= 1 }, "bid trace"},
		{"signature", func(h *HeaderSubmission) { h.Electra.Signature[5] ^= 1 }, "signature"},
		{"transactions root", func(h *HeaderSubmission) { h.Header().TransactionsRoot[0] ^= 1 }, "transactions_root"},
		{"state root", func(h *HeaderSubmission) { h.Header().StateRoot[0] ^= 1 }, "state_root"},
		{"extra data", func(h *HeaderSubmission) { h.Header().ExtraData = append([]byte{1}, h.Header().ExtraData...) }, "extra_data"},
		{"commitments", func(h *HeaderSubmission) {
			h.Electra.Message.Commitments = append(h.Electra.Message.Commitments, KZGCommitment{})
		}, "blob commitments"},
		{"requests", func(h *HeaderSubmission) {
			h.Electra.Message.ExecutionRequests.Consolidations = append(h.Electra.Message.ExecutionRequests.Consolidations, ConsolidationRequest{})
		}, "execution requests"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := fresh()
			c.change(h)
			err := h.MatchPayload(sub)
			if !errors.Is(err, ErrPayloadMismatch) || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
				t.Fatalf("got %v, want ErrPayloadMismatch naming %q", err, c.want)
			}
		})
	}
	deneb := vectorSubmission(t, "submitBlockPayloadDeneb_Goerli", params.ForkDeneb)
	if err := fresh().MatchPayload(deneb); !errors.Is(err, ErrPayloadMismatch) {
		t.Fatalf("a Deneb block matched an Electra header: %v", err)
	}
}

// TestSignBuilderBidFromHeader: the bid signed from a header submission is the bid signed
// from its payload.
func TestSignBuilderBidFromHeader(t *testing.T) {
	key, err := GenerateSecretKey()
	if err != nil {
		t.Fatal(err)
	}
	domain := BuilderDomain(params.MainnetBeaconConfig)
	for _, v := range headerVectors {
		sub := vectorSubmission(t, v.name, v.fork)
		h, err := NewHeaderSubmission(sub)
		if err != nil {
			t.Fatal(err)
		}
		var commitments []KZGCommitment
		if b := sub.BlobsBundle(); b != nil {
			commitments = b.Commitments
		}
		want, err := NewSignedBuilderBid(MainnetSpec, sub.Payload(), commitments, sub.ExecutionRequests(), sub.BidTrace().Value, key, domain)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SignBuilderBid(MainnetSpec, h.PayloadHeader(), h.Commitments(), h.ExecutionRequests(), h.BidTrace().Value, key, domain)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := want.MarshalSSZ()
		b, _ := got.MarshalSSZ()
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the bid signed from the header differs from the payload's", v.name)
		}
	}
	if _, err := SignBuilderBid(MainnetSpec, &ExecutionPayloadHeader{Fork: params.ForkElectra}, nil, nil, U256{}, key, domain); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("a header without its fork's container: %v", err)
	}
}

func TestHeaderSubmissionBadInput(t *testing.T) {
	if _, err := DecodeHeaderSubmissionSSZ(MainnetSpec, params.ForkCapella, make([]byte, 400)); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("Capella header submission: %v", err)
	}
	if _, err := DecodeHeaderSubmissionSSZ(MainnetSpec, params.ForkElectra, make([]byte, 400)); !errors.Is(err, ErrInvalidSSZ) {
		t.Fatalf("zeros: %v", err)
	}
	if _, err := HeaderSubmissionSlotSSZ([]byte{1, 2, 3}); !errors.Is(err, ErrInvalidSSZ) {
		t.Fatalf("short prefix: %v", err)
	}
	if _, err := DecodeHeaderSubmissionJSON(MainnetSpec, params.ForkElectra, []byte(`{"message":{}}`)); !errors.Is(err, ErrMissingField) {
		t.Fatalf("empty message: %v", err)
	}
}

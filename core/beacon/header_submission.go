package beacon

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"

	"github.com/gavel-eth/gavel/params"
)

// HeaderSubmission is a builder's header-first submission (helix's optimistic v2, POST
// /relay/v1/builder/headers) of Deneb or later: the bid trace, the payload's header, the
// blob commitments and (Electra on) the execution requests, signed like a block
// submission. Exactly one pointer is set: Deneb for Deneb, Electra for Electra and Fulu,
// which share the container.
type HeaderSubmission struct {
	Fork    params.ConsensusFork
	Deneb   *SignedHeaderSubmissionDeneb
	Electra *SignedHeaderSubmissionElectra

	spec *Spec // the preset it was decoded with; nil: mainnet
}

func newHeaderSubmissionContainer(fork params.ConsensusFork) (*HeaderSubmission, Container, error) {
	h := &HeaderSubmission{Fork: fork}
	switch {
	case fork == params.ForkDeneb:
		h.Deneb = new(SignedHeaderSubmissionDeneb)
		return h, h.Deneb, nil
	case fork == params.ForkElectra || fork == params.ForkFulu:
		h.Electra = new(SignedHeaderSubmissionElectra)
		return h, h.Electra, nil
	}
	return nil, nil, unsupported(fork, "header submission (Deneb or later)")
}

// DecodeHeaderSubmissionSSZ decodes an SSZ SignedHeaderSubmission of fork under spec's
// preset.
func DecodeHeaderSubmissionSSZ(spec *Spec, fork params.ConsensusFork, data []byte) (*HeaderSubmission, error) {
	h, err := decodeSSZ(spec, newHeaderSubmissionContainer, "header submission", fork, data)
	if h != nil {
		h.spec = spec
	}
	return h, err
}

// DecodeHeaderSubmissionJSON decodes a JSON SignedHeaderSubmission of fork under spec's
// preset.
func DecodeHeaderSubmissionJSON(spec *Spec, fork params.ConsensusFork, data []byte) (*HeaderSubmission, error) {
	h, err := decodeJSON(spec, newHeaderSubmissionContainer, fork, data)
	if h != nil {
		h.spec = spec
	}
	return h, err
}

// headerSubmissionTraceAt is where an SSZ SignedHeaderSubmission's bid trace starts: after
// the message's offset and the signature.
const headerSubmissionTraceAt = 4 + 96

// HeaderSubmissionSlotSSZ reads the slot of an SSZ SignedHeaderSubmission without decoding
// it, so that a relay can pick the fork when the Eth-Consensus-Version header is absent.
func HeaderSubmissionSlotSSZ(data []byte) (uint64, error) {
	if len(data) < headerSubmissionTraceAt+8 || binary.LittleEndian.Uint32(data) != headerSubmissionTraceAt {
		return 0, fmt.Errorf("%w: header submission (%d bytes): expected the message's offset %d and a bid trace after the signature", ErrInvalidSSZ, len(data), headerSubmissionTraceAt)
	}
	return binary.LittleEndian.Uint64(data[headerSubmissionTraceAt:]), nil
}

// HeaderSubmissionSlotJSON reads message.bid_trace.slot of a JSON SignedHeaderSubmission.
// It checks only the path to the slot; the other fields are not validated.
func HeaderSubmissionSlotJSON(data []byte) (uint64, error) {
	d := jsonDecoder{data: data, skipUnknown: true}
	var s struct {
		Message struct {
			BidTrace struct {
				Slot uint64 `json:"slot"`
			} `json:"bid_trace"`
		} `json:"message"`
	}
	if err := d.decodeTop(reflect.ValueOf(&s).Elem(), fieldDims{}); err != nil {
		return 0, err
	}
	return s.Message.BidTrace.Slot, nil
}

func (h *HeaderSubmission) container() Container {
	if h.Deneb != nil {
		return h.Deneb
	}
	return h.Electra
}

// MarshalSSZ encodes the header submission.
func (h *HeaderSubmission) MarshalSSZ() ([]byte, error) {
	return specOr(h.spec).MarshalSSZ(h.container())
}

// MarshalJSON encodes the header submission as beacon-API JSON.
func (h *HeaderSubmission) MarshalJSON() ([]byte, error) {
	return specOr(h.spec).EncodeJSON(h.container())
}

// BidTrace returns the signed bid trace.
func (h *HeaderSubmission) BidTrace() *BidTrace {
	if h.Deneb != nil {
		return &h.Deneb.Message.BidTrace
	}
	return &h.Electra.Message.BidTrace
}

// Signature returns the builder's signature over the bid trace.
func (h *HeaderSubmission) Signature() BLSSignature {
	if h.Deneb != nil {
		return h.Deneb.Signature
	}
	return h.Electra.Signature
}

// Header returns the announced payload header.
func (h *HeaderSubmission) Header() *ExecutionPayloadHeaderDeneb {
	if h.Deneb != nil {
		return &h.Deneb.Message.ExecutionPayloadHeader
	}
	return &h.Electra.Message.ExecutionPayloadHeader
}

// PayloadHeader returns the announced header as a fork-tagged ExecutionPayloadHeader.
func (h *HeaderSubmission) PayloadHeader() *ExecutionPayloadHeader {
	return &ExecutionPayloadHeader{Fork: h.Fork, Deneb: h.Header()}
}

// Commitments returns the blob commitments (never nil).
func (h *HeaderSubmission) Commitments() []KZGCommitment {
	c := h.Electra.commitments()
	if h.Deneb != nil {
		c = h.Deneb.Message.Commitments
	}
	if c == nil {
		return []KZGCommitment{}
	}
	return c
}

func (s *SignedHeaderSubmissionElectra) commitments() []KZGCommitment {
	if s == nil {
		return nil
	}
	return s.Message.Commitments
}

// ExecutionRequests returns the execution requests (nil for Deneb).
func (h *HeaderSubmission) ExecutionRequests() *ExecutionRequests {
	if h.Electra != nil {
		return &h.Electra.Message.ExecutionRequests
	}
	return nil
}

// MatchPayload checks that sub is the block h announced: the same fork, bid trace and
// signature, a payload whose header (its transactions and withdrawals roots computed under
// h's preset) is h's, the same blob commitments and execution requests. The error wraps
// ErrPayloadMismatch and names the first part that differs.
func (h *HeaderSubmission) MatchPayload(sub *Submission) error {
	mismatch := func(what string) error {
		return fmt.Errorf("%w: the block's %s is not the one its header submission announced", ErrPayloadMismatch, what)
	}
	switch {
	case sub.Fork != h.Fork:
		return fmt.Errorf("%w: a %s block for a %s header submission", ErrPayloadMismatch, sub.Fork, h.Fork)
	case *sub.BidTrace() != *h.BidTrace():
		return mismatch("bid trace")
	case sub.Signature() != h.Signature():
		return mismatch("signature")
	}
	ph, err := sub.Payload().Header(specOr(h.spec))
	if err != nil {
		return fmt.Errorf("%w: the block's header: %v", ErrPayloadMismatch, err)
	}
	if field := firstDifference(ph.Deneb, h.Header()); field != "" {
		return mismatch("payload header field " + field)
	}
	var commitments []KZGCommitment
	if b := sub.BlobsBundle(); b != nil {
		commitments = b.Commitments
	}
	if len(commitments) != len(h.Commitments()) {
		return fmt.Errorf("%w: the block has %d blob commitments, its header submission %d", ErrPayloadMismatch, len(commitments), len(h.Commitments()))
	}
	for i, c := range h.Commitments() {
		if commitments[i] != c {
			return mismatch(fmt.Sprintf("blob commitment %d", i))
		}
	}
	if a, b := sub.ExecutionRequests(), h.ExecutionRequests(); (a == nil) != (b == nil) || a != nil && !reflect.DeepEqual(a.normalized(), b.normalized()) {
		return mismatch("execution requests")
	}
	return nil
}

// firstDifference names the first field (by its JSON name) where two headers differ, ""
// when they are equal; byte slices compare by content.
func firstDifference(a, b *ExecutionPayloadHeaderDeneb) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	for i := range va.NumField() {
		fa, fb := va.Field(i), vb.Field(i)
		equal := false
		if x, ok := fa.Interface().([]byte); ok {
			equal = bytes.Equal(x, fb.Interface().([]byte))
		} else {
			equal = reflect.DeepEqual(fa.Interface(), fb.Interface())
		}
		if !equal {
			return va.Type().Field(i).Tag.Get("json")
		}
	}
	return ""
}

// NewHeaderSubmission is the header-first submission that announces sub (Deneb or later):
// its bid trace and signature, its payload's header, blob commitments and execution
// requests. A builder sends it before sub.
func NewHeaderSubmission(sub *Submission) (*HeaderSubmission, error) {
	h, _, err := newHeaderSubmissionContainer(sub.Fork)
	if err != nil {
		return nil, err
	}
	h.spec = sub.spec
	ph, err := sub.Payload().Header(specOr(sub.spec))
	if err != nil {
		return nil, err
	}
	commitments := []KZGCommitment{}
	if b := sub.BlobsBundle(); b != nil && b.Commitments != nil {
		commitments = b.Commitments
	}
	if h.Deneb != nil {
		h.Deneb.Message = HeaderSubmissionDeneb{BidTrace: *sub.BidTrace(), ExecutionPayloadHeader: *ph.Deneb, Commitments: commitments}
		h.Deneb.Signature = sub.Signature()
		return h, nil
	}
	var reqs ExecutionRequests
	if r := sub.ExecutionRequests(); r != nil {
		reqs = *r
	}
	h.Electra.Message = HeaderSubmissionElectra{BidTrace: *sub.BidTrace(), ExecutionPayloadHeader: *ph.Deneb, ExecutionRequests: reqs.normalized(), Commitments: commitments}
	h.Electra.Signature = sub.Signature()
	return h, nil
}

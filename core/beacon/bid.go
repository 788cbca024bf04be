package beacon

import (
	"fmt"

	"github.com/gavel-eth/gavel/params"
)

// SignedBuilderBid is getHeader's answer of any fork: exactly one pointer is set (Electra
// holds Electra and Fulu bids, which share the container).
type SignedBuilderBid struct {
	Fork      params.ConsensusFork
	Bellatrix *SignedBuilderBidBellatrix
	Capella   *SignedBuilderBidCapella
	Deneb     *SignedBuilderBidDeneb
	Electra   *SignedBuilderBidElectra

	spec *Spec // the preset it was decoded or built with; nil: mainnet
}

func newBidContainer(fork params.ConsensusFork) (*SignedBuilderBid, Container, error) {
	b := &SignedBuilderBid{Fork: fork}
	switch {
	case fork == params.ForkBellatrix:
		b.Bellatrix = new(SignedBuilderBidBellatrix)
		return b, b.Bellatrix, nil
	case fork == params.ForkCapella:
		b.Capella = new(SignedBuilderBidCapella)
		return b, b.Capella, nil
	case fork == params.ForkDeneb:
		b.Deneb = new(SignedBuilderBidDeneb)
		return b, b.Deneb, nil
	case fork == params.ForkElectra || fork == params.ForkFulu:
		b.Electra = new(SignedBuilderBidElectra)
		return b, b.Electra, nil
	}
	return nil, nil, unsupported(fork, "builder bid")
}

// DecodeSignedBuilderBidSSZ decodes an SSZ SignedBuilderBid of fork.
func DecodeSignedBuilderBidSSZ(spec *Spec, fork params.ConsensusFork, data []byte) (*SignedBuilderBid, error) {
	b, err := decodeSSZ(spec, newBidContainer, "signed builder bid", fork, data)
	if b != nil {
		b.spec = spec
	}
	return b, err
}

// DecodeSignedBuilderBidJSON decodes a JSON SignedBuilderBid of fork (the "data" member of
// a getHeader response).
func DecodeSignedBuilderBidJSON(spec *Spec, fork params.ConsensusFork, data []byte) (*SignedBuilderBid, error) {
	b, err := decodeJSON(spec, newBidContainer, fork, data)
	if b != nil {
		b.spec = spec
	}
	return b, err
}

func (b *SignedBuilderBid) container() Container {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix
	case b.Capella != nil:
		return b.Capella
	case b.Deneb != nil:
		return b.Deneb
	default:
		return b.Electra
	}
}

// MarshalSSZ encodes the signed bid (getHeader's SSZ answer).
func (b *SignedBuilderBid) MarshalSSZ() ([]byte, error) {
	return specOr(b.spec).MarshalSSZ(b.container())
}

// MarshalJSON encodes the signed bid (the "data" member of getHeader's JSON answer).
func (b *SignedBuilderBid) MarshalJSON() ([]byte, error) {
	return specOr(b.spec).EncodeJSON(b.container())
}

// VersionedJSON encodes getHeader's JSON answer: {"version":"<fork>","data":<signed bid>}.
func (b *SignedBuilderBid) VersionedJSON() ([]byte, error) {
	body, err := b.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return versionedJSON(b.Fork, body), nil
}

// Message returns the signed BuilderBid container.
func (b *SignedBuilderBid) Message() Hashable {
	var m Container
	switch {
	case b.Bellatrix != nil:
		m = &b.Bellatrix.Message
	case b.Capella != nil:
		m = &b.Capella.Message
	case b.Deneb != nil:
		m = &b.Deneb.Message
	default:
		m = &b.Electra.Message
	}
	return specOr(b.spec).Hashable(m)
}

// Pubkey returns the signer's public key (the relay's).
func (b *SignedBuilderBid) Pubkey() BLSPubkey {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix.Message.Pubkey
	case b.Capella != nil:
		return b.Capella.Message.Pubkey
	case b.Deneb != nil:
		return b.Deneb.Message.Pubkey
	default:
		return b.Electra.Message.Pubkey
	}
}

// Value returns the bid value in wei.
func (b *SignedBuilderBid) Value() U256 {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix.Message.Value
	case b.Capella != nil:
		return b.Capella.Message.Value
	case b.Deneb != nil:
		return b.Deneb.Message.Value
	default:
		return b.Electra.Message.Value
	}
}

// Header returns the offered payload header.
func (b *SignedBuilderBid) Header() *ExecutionPayloadHeader {
	h := &ExecutionPayloadHeader{Fork: b.Fork}
	switch {
	case b.Bellatrix != nil:
		h.Bellatrix = &b.Bellatrix.Message.Header
	case b.Capella != nil:
		h.Capella = &b.Capella.Message.Header
	case b.Deneb != nil:
		h.Deneb = &b.Deneb.Message.Header
	default:
		h.Deneb = &b.Electra.Message.Header
	}
	return h
}

// Signature returns the signature over the BuilderBid.
func (b *SignedBuilderBid) Signature() BLSSignature {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix.Signature
	case b.Capella != nil:
		return b.Capella.Signature
	case b.Deneb != nil:
		return b.Deneb.Signature
	default:
		return b.Electra.Signature
	}
}

// VerifySignature checks the signature over the bid with the bid's pubkey under domain
// (the network's BuilderDomain).
func (b *SignedBuilderBid) VerifySignature(domain Domain) error {
	return Verify(b.Pubkey(), b.Message(), domain, b.Signature())
}

// NewSignedBuilderBid builds the bid a relay serves for payload and signs it with key under
// domain (the network's BuilderDomain). commitments are the blob KZG commitments (Deneb
// on) and requests the execution requests (Electra on; nil means none).
func NewSignedBuilderBid(spec *Spec, payload *ExecutionPayload, commitments []KZGCommitment, requests *ExecutionRequests, value U256, key *SecretKey, domain Domain) (*SignedBuilderBid, error) {
	header, err := payload.Header(specOr(spec))
	if err != nil {
		return nil, err
	}
	return SignBuilderBid(spec, header, commitments, requests, value, key, domain)
}

// SignBuilderBid is NewSignedBuilderBid for a payload known by its header alone (a
// header-first submission's).
func SignBuilderBid(spec *Spec, header *ExecutionPayloadHeader, commitments []KZGCommitment, requests *ExecutionRequests, value U256, key *SecretKey, domain Domain) (*SignedBuilderBid, error) {
	spec = specOr(spec)
	switch f := header.Fork; {
	case f == params.ForkBellatrix && header.Bellatrix == nil, f == params.ForkCapella && header.Capella == nil, f >= params.ForkDeneb && header.Deneb == nil:
		return nil, unsupported(f, "builder bid without its fork's payload header")
	}
	if commitments == nil {
		commitments = []KZGCommitment{}
	}
	if limit := spec.Value("MAX_BLOB_COMMITMENTS_PER_BLOCK"); uint64(len(commitments)) > limit {
		return nil, fmt.Errorf("%w: %d blob commitments, limit %d (MAX_BLOB_COMMITMENTS_PER_BLOCK)", ErrListTooLong, len(commitments), limit)
	}
	var reqs ExecutionRequests
	if requests != nil {
		reqs = *requests
	}
	reqs = reqs.normalized()
	b, _, err := newBidContainer(header.Fork)
	if err != nil {
		return nil, err
	}
	b.spec = spec
	pub := key.PublicKey()
	var msg Hashable
	switch {
	case b.Bellatrix != nil:
		b.Bellatrix.Message = BuilderBidBellatrix{Header: *header.Bellatrix, Value: value, Pubkey: pub}
		msg = &b.Bellatrix.Message
	case b.Capella != nil:
		b.Capella.Message = BuilderBidCapella{Header: *header.Capella, Value: value, Pubkey: pub}
		msg = &b.Capella.Message
	case b.Deneb != nil:
		b.Deneb.Message = BuilderBidDeneb{Header: *header.Deneb, BlobKZGCommitments: commitments, Value: value, Pubkey: pub}
		msg = &b.Deneb.Message
	default:
		b.Electra.Message = BuilderBidElectra{Header: *header.Deneb, BlobKZGCommitments: commitments, ExecutionRequests: reqs, Value: value, Pubkey: pub}
		msg = &b.Electra.Message
	}
	sig, err := key.Sign(spec.Hashable(msg.(Container)), domain)
	if err != nil {
		return nil, err
	}
	switch {
	case b.Bellatrix != nil:
		b.Bellatrix.Signature = sig
	case b.Capella != nil:
		b.Capella.Signature = sig
	case b.Deneb != nil:
		b.Deneb.Signature = sig
	default:
		b.Electra.Signature = sig
	}
	return b, nil
}

// normalized returns r with nil lists replaced by empty ones, so JSON shows [] not null.
func (r ExecutionRequests) normalized() ExecutionRequests {
	if r.Deposits == nil {
		r.Deposits = []DepositRequest{}
	}
	if r.Withdrawals == nil {
		r.Withdrawals = []WithdrawalRequest{}
	}
	if r.Consolidations == nil {
		r.Consolidations = []ConsolidationRequest{}
	}
	return r
}

// Spec returns the preset the bid was decoded or built with.
func (b *SignedBuilderBid) Spec() *Spec { return specOr(b.spec) }

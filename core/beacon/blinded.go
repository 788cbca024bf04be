package beacon

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/gavel-eth/gavel/params"
)

// SignedBlindedBeaconBlock is getPayload's request body of any fork: exactly one pointer is
// set (Electra holds Electra and Fulu blocks, which share the container; Fork tells them
// apart and selects the signing domain).
type SignedBlindedBeaconBlock struct {
	Fork      params.ConsensusFork
	Bellatrix *SignedBlindedBeaconBlockBellatrix
	Capella   *SignedBlindedBeaconBlockCapella
	Deneb     *SignedBlindedBeaconBlockDeneb
	Electra   *SignedBlindedBeaconBlockElectra

	spec *Spec // the preset it was decoded with; nil: mainnet
}

func newBlindedContainer(fork params.ConsensusFork) (*SignedBlindedBeaconBlock, Container, error) {
	b := &SignedBlindedBeaconBlock{Fork: fork}
	switch {
	case fork == params.ForkBellatrix:
		b.Bellatrix = new(SignedBlindedBeaconBlockBellatrix)
		return b, b.Bellatrix, nil
	case fork == params.ForkCapella:
		b.Capella = new(SignedBlindedBeaconBlockCapella)
		return b, b.Capella, nil
	case fork == params.ForkDeneb:
		b.Deneb = new(SignedBlindedBeaconBlockDeneb)
		return b, b.Deneb, nil
	case fork == params.ForkElectra || fork == params.ForkFulu:
		b.Electra = new(SignedBlindedBeaconBlockElectra)
		return b, b.Electra, nil
	}
	return nil, nil, unsupported(fork, "blinded beacon block")
}

// DecodeSignedBlindedBeaconBlockSSZ decodes an SSZ SignedBlindedBeaconBlock of fork under
// spec's preset (the sync committee bits have SYNC_COMMITTEE_SIZE/8 bytes).
func DecodeSignedBlindedBeaconBlockSSZ(spec *Spec, fork params.ConsensusFork, data []byte) (*SignedBlindedBeaconBlock, error) {
	b, err := decodeSSZ(spec, newBlindedContainer, "signed blinded beacon block", fork, data)
	if b != nil {
		b.spec = spec
	}
	return b, err
}

// DecodeSignedBlindedBeaconBlockJSON decodes a JSON SignedBlindedBeaconBlock of fork under
// spec's preset.
func DecodeSignedBlindedBeaconBlockJSON(spec *Spec, fork params.ConsensusFork, data []byte) (*SignedBlindedBeaconBlock, error) {
	b, err := decodeJSON(spec, newBlindedContainer, fork, data)
	if b != nil {
		b.spec = spec
	}
	return b, err
}

func (b *SignedBlindedBeaconBlock) container() Container {
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

// MarshalSSZ encodes the signed blinded block.
func (b *SignedBlindedBeaconBlock) MarshalSSZ() ([]byte, error) {
	return specOr(b.spec).MarshalSSZ(b.container())
}

// MarshalJSON encodes the signed blinded block as beacon-API JSON.
func (b *SignedBlindedBeaconBlock) MarshalJSON() ([]byte, error) {
	return specOr(b.spec).EncodeJSON(b.container())
}

// Message returns the signed BlindedBeaconBlock container, hashed under the block's preset.
func (b *SignedBlindedBeaconBlock) Message() Hashable {
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

// Slot returns the block's slot.
func (b *SignedBlindedBeaconBlock) Slot() uint64 {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix.Message.Slot
	case b.Capella != nil:
		return b.Capella.Message.Slot
	case b.Deneb != nil:
		return b.Deneb.Message.Slot
	default:
		return b.Electra.Message.Slot
	}
}

// ProposerIndex returns the proposer's validator index.
func (b *SignedBlindedBeaconBlock) ProposerIndex() uint64 {
	switch {
	case b.Bellatrix != nil:
		return b.Bellatrix.Message.ProposerIndex
	case b.Capella != nil:
		return b.Capella.Message.ProposerIndex
	case b.Deneb != nil:
		return b.Deneb.Message.ProposerIndex
	default:
		return b.Electra.Message.ProposerIndex
	}
}

// Signature returns the proposer's signature.
func (b *SignedBlindedBeaconBlock) Signature() BLSSignature {
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

// Header returns the execution payload header the proposer signed.
func (b *SignedBlindedBeaconBlock) Header() *ExecutionPayloadHeader {
	h := &ExecutionPayloadHeader{Fork: b.Fork}
	switch {
	case b.Bellatrix != nil:
		h.Bellatrix = &b.Bellatrix.Message.Body.ExecutionPayloadHeader
	case b.Capella != nil:
		h.Capella = &b.Capella.Message.Body.ExecutionPayloadHeader
	case b.Deneb != nil:
		h.Deneb = &b.Deneb.Message.Body.ExecutionPayloadHeader
	default:
		h.Deneb = &b.Electra.Message.Body.ExecutionPayloadHeader
	}
	return h
}

// BlobKZGCommitments returns the block's blob commitments (nil before Deneb).
func (b *SignedBlindedBeaconBlock) BlobKZGCommitments() []KZGCommitment {
	switch {
	case b.Deneb != nil:
		return b.Deneb.Message.Body.BlobKZGCommitments
	case b.Electra != nil:
		return b.Electra.Message.Body.BlobKZGCommitments
	}
	return nil
}

// VerifySignature checks the proposer's signature with DOMAIN_BEACON_PROPOSER of the block's
// fork on cfg's network.
func (b *SignedBlindedBeaconBlock) VerifySignature(cfg *params.BeaconConfig, proposer BLSPubkey) error {
	domain, err := ProposerDomain(cfg, b.Fork)
	if err != nil {
		return err
	}
	return Verify(proposer, b.Message(), domain, b.Signature())
}

// SignedBlockContents is what a relay publishes for a block: the full SignedBeaconBlock
// (Bellatrix, Capella) or the block with its blobs and proofs (Deneb on). Exactly one
// pointer is set.
type SignedBlockContents struct {
	Fork      params.ConsensusFork
	Bellatrix *SignedBeaconBlockBellatrix
	Capella   *SignedBeaconBlockCapella
	Deneb     *SignedBlockContentsDeneb
	Electra   *SignedBlockContentsElectra
	Fulu      *SignedBlockContentsFulu

	spec *Spec // the blinded block's preset; nil: mainnet
}

func (c *SignedBlockContents) container() Container {
	switch {
	case c.Bellatrix != nil:
		return c.Bellatrix
	case c.Capella != nil:
		return c.Capella
	case c.Deneb != nil:
		return c.Deneb
	case c.Electra != nil:
		return c.Electra
	default:
		return c.Fulu
	}
}

// MarshalSSZ encodes the publish body.
func (c *SignedBlockContents) MarshalSSZ() ([]byte, error) {
	return specOr(c.spec).MarshalSSZ(c.container())
}

// MarshalJSON encodes the publish body as beacon-API JSON.
func (c *SignedBlockContents) MarshalJSON() ([]byte, error) {
	return specOr(c.spec).EncodeJSON(c.container())
}

// BlockRoot returns the hash-tree-root of the full beacon block, which equals the root of
// the blinded block it was built from.
func (c *SignedBlockContents) BlockRoot() (Root, error) {
	var m Container
	switch {
	case c.Bellatrix != nil:
		m = &c.Bellatrix.Message
	case c.Capella != nil:
		m = &c.Capella.Message
	case c.Deneb != nil:
		m = &c.Deneb.SignedBlock.Message
	case c.Electra != nil:
		m = &c.Electra.SignedBlock.Message
	default:
		m = &c.Fulu.SignedBlock.Message
	}
	return specOr(c.spec).HashTreeRoot(m)
}

// Unblind combines the signed blinded block with the payload it commits to (and, from Deneb
// on, the payload's blobs bundle) into the signed block a relay publishes. It checks that
// the payload's header root equals the signed header's root and that the bundle's
// commitments equal the block's commitments, in order; blob proofs are not checked here
// (KZG verification belongs to the submission pipeline).
func (b *SignedBlindedBeaconBlock) Unblind(payload *ExecutionPayload, bundle *BlobsBundle) (*SignedBlockContents, error) {
	if err := payload.check(); err != nil {
		return nil, err
	}
	if blockContainerFork(payload.Fork) != blockContainerFork(b.Fork) {
		return nil, fmt.Errorf("%w: %s payload for a %s block", ErrPayloadMismatch, payload.Fork, b.Fork)
	}
	header, err := payload.Header(specOr(b.spec))
	if err != nil {
		return nil, err
	}
	got, err := header.HashTreeRoot()
	if err != nil {
		return nil, err
	}
	want, err := b.Header().HashTreeRoot()
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, fmt.Errorf("%w: payload header root %s, signed header root %s (block hash %s vs %s)",
			ErrPayloadMismatch, Root(got), Root(want), header.BlockHash(), b.Header().BlockHash())
	}
	if b.Fork >= params.ForkDeneb {
		if bundle == nil {
			return nil, fmt.Errorf("%w: %s block needs a blobs bundle", ErrMissingField, b.Fork)
		}
		if err := checkBundle(b.Fork, b.BlobKZGCommitments(), bundle); err != nil {
			return nil, err
		}
	}
	c := &SignedBlockContents{Fork: b.Fork, spec: b.spec}
	switch {
	case b.Bellatrix != nil:
		m := &b.Bellatrix.Message
		bd := &m.Body
		c.Bellatrix = &SignedBeaconBlockBellatrix{
			Message: BeaconBlockBellatrix{m.Slot, m.ProposerIndex, m.ParentRoot, m.StateRoot, BeaconBlockBodyBellatrix{
				bd.RandaoReveal, bd.Eth1Data, bd.Graffiti, bd.ProposerSlashings, bd.AttesterSlashings, bd.Attestations,
				bd.Deposits, bd.VoluntaryExits, bd.SyncAggregate, *payload.Bellatrix}},
			Signature: b.Bellatrix.Signature,
		}
	case b.Capella != nil:
		m := &b.Capella.Message
		bd := &m.Body
		c.Capella = &SignedBeaconBlockCapella{
			Message: BeaconBlockCapella{m.Slot, m.ProposerIndex, m.ParentRoot, m.StateRoot, BeaconBlockBodyCapella{
				bd.RandaoReveal, bd.Eth1Data, bd.Graffiti, bd.ProposerSlashings, bd.AttesterSlashings, bd.Attestations,
				bd.Deposits, bd.VoluntaryExits, bd.SyncAggregate, *payload.Capella, bd.BLSToExecutionChanges}},
			Signature: b.Capella.Signature,
		}
	case b.Deneb != nil:
		m := &b.Deneb.Message
		bd := &m.Body
		c.Deneb = &SignedBlockContentsDeneb{
			SignedBlock: SignedBeaconBlockDeneb{
				Message: BeaconBlockDeneb{m.Slot, m.ProposerIndex, m.ParentRoot, m.StateRoot, BeaconBlockBodyDeneb{
					bd.RandaoReveal, bd.Eth1Data, bd.Graffiti, bd.ProposerSlashings, bd.AttesterSlashings, bd.Attestations,
					bd.Deposits, bd.VoluntaryExits, bd.SyncAggregate, *payload.Deneb, bd.BLSToExecutionChanges, bd.BlobKZGCommitments}},
				Signature: b.Deneb.Signature,
			},
			KZGProofs: bundle.Proofs,
			Blobs:     bundle.Blobs,
		}
	default:
		m := &b.Electra.Message
		bd := &m.Body
		signed := SignedBeaconBlockElectra{
			Message: BeaconBlockElectra{m.Slot, m.ProposerIndex, m.ParentRoot, m.StateRoot, BeaconBlockBodyElectra{
				bd.RandaoReveal, bd.Eth1Data, bd.Graffiti, bd.ProposerSlashings, bd.AttesterSlashings, bd.Attestations,
				bd.Deposits, bd.VoluntaryExits, bd.SyncAggregate, *payload.Deneb, bd.BLSToExecutionChanges, bd.BlobKZGCommitments,
				bd.ExecutionRequests}},
			Signature: b.Electra.Signature,
		}
		if b.Fork == params.ForkElectra {
			c.Electra = &SignedBlockContentsElectra{SignedBlock: signed, KZGProofs: bundle.Proofs, Blobs: bundle.Blobs}
		} else {
			c.Fulu = &SignedBlockContentsFulu{SignedBlock: signed, KZGProofs: bundle.Proofs, Blobs: bundle.Blobs}
		}
	}
	return c, nil
}

// blockContainerFork maps a fork to the fork whose payload container it uses.
func blockContainerFork(f params.ConsensusFork) params.ConsensusFork {
	if f > params.ForkDeneb {
		return params.ForkDeneb
	}
	return f
}

// checkBundle checks a blobs bundle's shape against the block's commitments: the same
// commitments in the same order, one blob per commitment, and one proof per blob (before
// Fulu) or CellsPerExtBlob cell proofs per blob (Fulu on).
func checkBundle(fork params.ConsensusFork, commitments []KZGCommitment, bundle *BlobsBundle) error {
	if len(bundle.Commitments) != len(commitments) {
		return fmt.Errorf("%w: bundle has %d commitments, block has %d", ErrPayloadMismatch, len(bundle.Commitments), len(commitments))
	}
	for i := range commitments {
		if !bytes.Equal(bundle.Commitments[i][:], commitments[i][:]) {
			return fmt.Errorf("%w: commitment %d differs: bundle %s, block %s", ErrPayloadMismatch, i, bundle.Commitments[i], commitments[i])
		}
	}
	if len(bundle.Blobs) != len(commitments) {
		return fmt.Errorf("%w: %d blobs for %d commitments", ErrPayloadMismatch, len(bundle.Blobs), len(commitments))
	}
	proofsPerBlob := 1
	if fork >= params.ForkFulu {
		proofsPerBlob = CellsPerExtBlob
	}
	if len(bundle.Proofs) != proofsPerBlob*len(commitments) {
		return fmt.Errorf("%w: %d proofs for %d blobs, expected %d per blob", ErrPayloadMismatch, len(bundle.Proofs), len(commitments), proofsPerBlob)
	}
	return nil
}

// PayloadResponse builds getPayload's answer for fork: the execution payload alone
// (Bellatrix, Capella) or ExecutionPayloadAndBlobsBundle (Deneb on). The result encodes with
// MarshalSSZ and MarshalJSON.
func PayloadResponse(payload *ExecutionPayload, bundle *BlobsBundle) (Container, error) {
	if err := payload.check(); err != nil {
		return nil, err
	}
	switch {
	case payload.Bellatrix != nil:
		return payload.Bellatrix, nil
	case payload.Capella != nil:
		return payload.Capella, nil
	}
	if bundle == nil {
		return nil, fmt.Errorf("%w: %s payload response needs a blobs bundle", ErrMissingField, payload.Fork)
	}
	if payload.Fork >= params.ForkFulu {
		return &ExecutionPayloadAndBlobsBundleFulu{ExecutionPayload: *payload.Deneb, BlobsBundle: BlobsBundleFulu(*bundle)}, nil
	}
	return &ExecutionPayloadAndBlobsBundle{ExecutionPayload: *payload.Deneb, BlobsBundle: *bundle}, nil
}

// BlindedBlockSlotSSZ reads the slot of an SSZ SignedBlindedBeaconBlock of
// any fork without decoding it (the message's offset comes first, the slot
// is the message's first field), so a relay can pick the fork when a
// proposer sends no Eth-Consensus-Version header.
func BlindedBlockSlotSSZ(data []byte) (uint64, error) {
	if len(data) < 4 {
		return 0, fmt.Errorf("%w: %d bytes is too short for a signed blinded block", ErrInvalidSSZ, len(data))
	}
	off := uint64(binary.LittleEndian.Uint32(data))
	if off != 4+SignatureLength || uint64(len(data)) < off+8 {
		return 0, fmt.Errorf("%w: a signed blinded block's message offset is %d in %d bytes, expected %d", ErrInvalidSSZ, off, len(data), 4+SignatureLength)
	}
	return binary.LittleEndian.Uint64(data[off:]), nil
}

// BlindedBlockSlotJSON reads message.slot of a JSON SignedBlindedBeaconBlock
// of any fork. It checks only the path to the slot.
func BlindedBlockSlotJSON(data []byte) (uint64, error) { return SubmissionSlotJSON(data) }

// NewSignedBlindedBeaconBlock wraps a fork's signed blinded block container built under
// spec's preset; it fails if the container does not belong to fork.
func NewSignedBlindedBeaconBlock(spec *Spec, fork params.ConsensusFork, v any) (*SignedBlindedBeaconBlock, error) {
	b := &SignedBlindedBeaconBlock{Fork: fork, spec: spec}
	var ok bool
	switch x := v.(type) {
	case *SignedBlindedBeaconBlockBellatrix:
		b.Bellatrix, ok = x, fork == params.ForkBellatrix
	case *SignedBlindedBeaconBlockCapella:
		b.Capella, ok = x, fork == params.ForkCapella
	case *SignedBlindedBeaconBlockDeneb:
		b.Deneb, ok = x, fork == params.ForkDeneb
	case *SignedBlindedBeaconBlockElectra:
		b.Electra, ok = x, fork == params.ForkElectra || fork == params.ForkFulu
	default:
		return nil, fmt.Errorf("beacon: %T is not a signed blinded beacon block", v)
	}
	if !ok {
		return nil, fmt.Errorf("%w: %T is not a %s block", ErrUnsupportedFork, v, fork)
	}
	return b, nil
}

// Spec returns the preset the block was decoded or built with.
func (b *SignedBlindedBeaconBlock) Spec() *Spec { return specOr(b.spec) }

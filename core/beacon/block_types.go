package beacon

// Beacon block containers (consensus-specs), enough to verify a proposer's signature on a
// SignedBlindedBeaconBlock and to build the full SignedBeaconBlock for publishing. Electra
// and Fulu share the block containers; they differ in fork version and block contents.

// Eth1Data is the proposer's vote on the deposit contract state.
type Eth1Data struct {
	DepositRoot  Root   `json:"deposit_root" ssz-size:"32"`
	DepositCount uint64 `json:"deposit_count"`
	BlockHash    Root   `json:"block_hash" ssz-size:"32"`
}

// BeaconBlockHeader is a block header as used in proposer slashings.
type BeaconBlockHeader struct {
	Slot          uint64 `json:"slot"`
	ProposerIndex uint64 `json:"proposer_index"`
	ParentRoot    Root   `json:"parent_root" ssz-size:"32"`
	StateRoot     Root   `json:"state_root" ssz-size:"32"`
	BodyRoot      Root   `json:"body_root" ssz-size:"32"`
}

// SignedBeaconBlockHeader is a signed BeaconBlockHeader.
type SignedBeaconBlockHeader struct {
	Message   BeaconBlockHeader `json:"message"`
	Signature BLSSignature      `json:"signature" ssz-size:"96"`
}

// ProposerSlashing is evidence of a proposer signing two blocks for one slot.
type ProposerSlashing struct {
	SignedHeader1 SignedBeaconBlockHeader `json:"signed_header_1"`
	SignedHeader2 SignedBeaconBlockHeader `json:"signed_header_2"`
}

// Checkpoint is an epoch boundary block.
type Checkpoint struct {
	Epoch uint64 `json:"epoch"`
	Root  Root   `json:"root" ssz-size:"32"`
}

// AttestationData is what an attester votes for.
type AttestationData struct {
	Slot            uint64     `json:"slot"`
	Index           uint64     `json:"index"`
	BeaconBlockRoot Root       `json:"beacon_block_root" ssz-size:"32"`
	Source          Checkpoint `json:"source"`
	Target          Checkpoint `json:"target"`
}

// IndexedAttestation is an attestation with the attesters' indices (before Electra).
type IndexedAttestation struct {
	AttestingIndices []uint64        `json:"attesting_indices" ssz-max:"2048" dynssz-max:"MAX_VALIDATORS_PER_COMMITTEE"`
	Data             AttestationData `json:"data"`
	Signature        BLSSignature    `json:"signature" ssz-size:"96"`
}

// IndexedAttestationElectra is an indexed attestation from Electra on (EIP-7549).
type IndexedAttestationElectra struct {
	AttestingIndices []uint64        `json:"attesting_indices" ssz-max:"131072" dynssz-max:"MAX_VALIDATORS_PER_COMMITTEE*MAX_COMMITTEES_PER_SLOT"`
	Data             AttestationData `json:"data"`
	Signature        BLSSignature    `json:"signature" ssz-size:"96"`
}

// AttesterSlashing is evidence of two conflicting attestations (before Electra).
type AttesterSlashing struct {
	Attestation1 IndexedAttestation `json:"attestation_1"`
	Attestation2 IndexedAttestation `json:"attestation_2"`
}

// AttesterSlashingElectra is an attester slashing from Electra on.
type AttesterSlashingElectra struct {
	Attestation1 IndexedAttestationElectra `json:"attestation_1"`
	Attestation2 IndexedAttestationElectra `json:"attestation_2"`
}

// Attestation is an aggregate attestation (before Electra).
type Attestation struct {
	AggregationBits []byte          `json:"aggregation_bits" ssz:"bitlist" ssz-max:"2048" dynssz-max:"MAX_VALIDATORS_PER_COMMITTEE"`
	Data            AttestationData `json:"data"`
	Signature       BLSSignature    `json:"signature" ssz-size:"96"`
}

// AttestationElectra is an aggregate attestation from Electra on (EIP-7549).
type AttestationElectra struct {
	AggregationBits []byte          `json:"aggregation_bits" ssz:"bitlist" ssz-max:"131072" dynssz-max:"MAX_VALIDATORS_PER_COMMITTEE*MAX_COMMITTEES_PER_SLOT"`
	Data            AttestationData `json:"data"`
	Signature       BLSSignature    `json:"signature" ssz-size:"96"`
	CommitteeBits   []byte          `json:"committee_bits" ssz-size:"8" dynssz-size:"MAX_COMMITTEES_PER_SLOT/8"`
}

// DepositData is the data of a deposit contract deposit.
type DepositData struct {
	Pubkey                BLSPubkey    `json:"pubkey" ssz-size:"48"`
	WithdrawalCredentials Root         `json:"withdrawal_credentials" ssz-size:"32"`
	Amount                uint64       `json:"amount"`
	Signature             BLSSignature `json:"signature" ssz-size:"96"`
}

// Deposit is a deposit with its Merkle proof.
type Deposit struct {
	Proof [][32]byte  `json:"proof" ssz-size:"33,32"`
	Data  DepositData `json:"data"`
}

// VoluntaryExit is a validator's request to exit.
type VoluntaryExit struct {
	Epoch          uint64 `json:"epoch"`
	ValidatorIndex uint64 `json:"validator_index"`
}

// SignedVoluntaryExit is a signed VoluntaryExit.
type SignedVoluntaryExit struct {
	Message   VoluntaryExit `json:"message"`
	Signature BLSSignature  `json:"signature" ssz-size:"96"`
}

// SyncAggregate is the sync committee's signature over the parent block.
type SyncAggregate struct {
	SyncCommitteeBits      []byte       `json:"sync_committee_bits" ssz-size:"64" dynssz-size:"SYNC_COMMITTEE_SIZE/8"`
	SyncCommitteeSignature BLSSignature `json:"sync_committee_signature" ssz-size:"96"`
}

// BLSToExecutionChange switches a validator's withdrawal credentials to an address.
type BLSToExecutionChange struct {
	ValidatorIndex     uint64    `json:"validator_index"`
	FromBLSPubkey      BLSPubkey `json:"from_bls_pubkey" ssz-size:"48"`
	ToExecutionAddress Address   `json:"to_execution_address" ssz-size:"20"`
}

// SignedBLSToExecutionChange is a signed BLSToExecutionChange.
type SignedBLSToExecutionChange struct {
	Message   BLSToExecutionChange `json:"message"`
	Signature BLSSignature         `json:"signature" ssz-size:"96"`
}

// BlindedBeaconBlockBodyBellatrix is a Bellatrix block body with a payload header.
type BlindedBeaconBlockBodyBellatrix struct {
	RandaoReveal           BLSSignature                    `json:"randao_reveal" ssz-size:"96"`
	Eth1Data               Eth1Data                        `json:"eth1_data"`
	Graffiti               Root                            `json:"graffiti" ssz-size:"32"`
	ProposerSlashings      []ProposerSlashing              `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings      []AttesterSlashing              `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations           []Attestation                   `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits               []Deposit                       `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits         []SignedVoluntaryExit           `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate          SyncAggregate                   `json:"sync_aggregate"`
	ExecutionPayloadHeader ExecutionPayloadHeaderBellatrix `json:"execution_payload_header"`
}

// BeaconBlockBodyBellatrix is a full Bellatrix block body.
type BeaconBlockBodyBellatrix struct {
	RandaoReveal      BLSSignature              `json:"randao_reveal" ssz-size:"96"`
	Eth1Data          Eth1Data                  `json:"eth1_data"`
	Graffiti          Root                      `json:"graffiti" ssz-size:"32"`
	ProposerSlashings []ProposerSlashing        `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings []AttesterSlashing        `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations      []Attestation             `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits          []Deposit                 `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits    []SignedVoluntaryExit     `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate     SyncAggregate             `json:"sync_aggregate"`
	ExecutionPayload  ExecutionPayloadBellatrix `json:"execution_payload"`
}

// BlindedBeaconBlockBodyCapella is a Capella block body with a payload header.
type BlindedBeaconBlockBodyCapella struct {
	RandaoReveal           BLSSignature                  `json:"randao_reveal" ssz-size:"96"`
	Eth1Data               Eth1Data                      `json:"eth1_data"`
	Graffiti               Root                          `json:"graffiti" ssz-size:"32"`
	ProposerSlashings      []ProposerSlashing            `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings      []AttesterSlashing            `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations           []Attestation                 `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits               []Deposit                     `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits         []SignedVoluntaryExit         `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate          SyncAggregate                 `json:"sync_aggregate"`
	ExecutionPayloadHeader ExecutionPayloadHeaderCapella `json:"execution_payload_header"`
	BLSToExecutionChanges  []SignedBLSToExecutionChange  `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
}

// BeaconBlockBodyCapella is a full Capella block body.
type BeaconBlockBodyCapella struct {
	RandaoReveal          BLSSignature                 `json:"randao_reveal" ssz-size:"96"`
	Eth1Data              Eth1Data                     `json:"eth1_data"`
	Graffiti              Root                         `json:"graffiti" ssz-size:"32"`
	ProposerSlashings     []ProposerSlashing           `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings     []AttesterSlashing           `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations          []Attestation                `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits              []Deposit                    `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits        []SignedVoluntaryExit        `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate         SyncAggregate                `json:"sync_aggregate"`
	ExecutionPayload      ExecutionPayloadCapella      `json:"execution_payload"`
	BLSToExecutionChanges []SignedBLSToExecutionChange `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
}

// BlindedBeaconBlockBodyDeneb is a Deneb block body with a payload header.
type BlindedBeaconBlockBodyDeneb struct {
	RandaoReveal           BLSSignature                 `json:"randao_reveal" ssz-size:"96"`
	Eth1Data               Eth1Data                     `json:"eth1_data"`
	Graffiti               Root                         `json:"graffiti" ssz-size:"32"`
	ProposerSlashings      []ProposerSlashing           `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings      []AttesterSlashing           `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations           []Attestation                `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits               []Deposit                    `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits         []SignedVoluntaryExit        `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate          SyncAggregate                `json:"sync_aggregate"`
	ExecutionPayloadHeader ExecutionPayloadHeaderDeneb  `json:"execution_payload_header"`
	BLSToExecutionChanges  []SignedBLSToExecutionChange `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
	BlobKZGCommitments     []KZGCommitment              `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// BeaconBlockBodyDeneb is a full Deneb block body.
type BeaconBlockBodyDeneb struct {
	RandaoReveal          BLSSignature                 `json:"randao_reveal" ssz-size:"96"`
	Eth1Data              Eth1Data                     `json:"eth1_data"`
	Graffiti              Root                         `json:"graffiti" ssz-size:"32"`
	ProposerSlashings     []ProposerSlashing           `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings     []AttesterSlashing           `json:"attester_slashings" ssz-max:"2" dynssz-max:"MAX_ATTESTER_SLASHINGS"`
	Attestations          []Attestation                `json:"attestations" ssz-max:"128" dynssz-max:"MAX_ATTESTATIONS"`
	Deposits              []Deposit                    `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits        []SignedVoluntaryExit        `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate         SyncAggregate                `json:"sync_aggregate"`
	ExecutionPayload      ExecutionPayloadDeneb        `json:"execution_payload"`
	BLSToExecutionChanges []SignedBLSToExecutionChange `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
	BlobKZGCommitments    []KZGCommitment              `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// BlindedBeaconBlockBodyElectra is an Electra or Fulu block body with a payload header.
type BlindedBeaconBlockBodyElectra struct {
	RandaoReveal           BLSSignature                 `json:"randao_reveal" ssz-size:"96"`
	Eth1Data               Eth1Data                     `json:"eth1_data"`
	Graffiti               Root                         `json:"graffiti" ssz-size:"32"`
	ProposerSlashings      []ProposerSlashing           `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings      []AttesterSlashingElectra    `json:"attester_slashings" ssz-max:"1" dynssz-max:"MAX_ATTESTER_SLASHINGS_ELECTRA"`
	Attestations           []AttestationElectra         `json:"attestations" ssz-max:"8" dynssz-max:"MAX_ATTESTATIONS_ELECTRA"`
	Deposits               []Deposit                    `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits         []SignedVoluntaryExit        `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate          SyncAggregate                `json:"sync_aggregate"`
	ExecutionPayloadHeader ExecutionPayloadHeaderDeneb  `json:"execution_payload_header"`
	BLSToExecutionChanges  []SignedBLSToExecutionChange `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
	BlobKZGCommitments     []KZGCommitment              `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	ExecutionRequests      ExecutionRequests            `json:"execution_requests"`
}

// BeaconBlockBodyElectra is a full Electra or Fulu block body.
type BeaconBlockBodyElectra struct {
	RandaoReveal          BLSSignature                 `json:"randao_reveal" ssz-size:"96"`
	Eth1Data              Eth1Data                     `json:"eth1_data"`
	Graffiti              Root                         `json:"graffiti" ssz-size:"32"`
	ProposerSlashings     []ProposerSlashing           `json:"proposer_slashings" ssz-max:"16" dynssz-max:"MAX_PROPOSER_SLASHINGS"`
	AttesterSlashings     []AttesterSlashingElectra    `json:"attester_slashings" ssz-max:"1" dynssz-max:"MAX_ATTESTER_SLASHINGS_ELECTRA"`
	Attestations          []AttestationElectra         `json:"attestations" ssz-max:"8" dynssz-max:"MAX_ATTESTATIONS_ELECTRA"`
	Deposits              []Deposit                    `json:"deposits" ssz-max:"16" dynssz-max:"MAX_DEPOSITS"`
	VoluntaryExits        []SignedVoluntaryExit        `json:"voluntary_exits" ssz-max:"16" dynssz-max:"MAX_VOLUNTARY_EXITS"`
	SyncAggregate         SyncAggregate                `json:"sync_aggregate"`
	ExecutionPayload      ExecutionPayloadDeneb        `json:"execution_payload"`
	BLSToExecutionChanges []SignedBLSToExecutionChange `json:"bls_to_execution_changes" ssz-max:"16" dynssz-max:"MAX_BLS_TO_EXECUTION_CHANGES"`
	BlobKZGCommitments    []KZGCommitment              `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	ExecutionRequests     ExecutionRequests            `json:"execution_requests"`
}

// BlindedBeaconBlockBellatrix is a Bellatrix blinded beacon block.
type BlindedBeaconBlockBellatrix struct {
	Slot          uint64                          `json:"slot"`
	ProposerIndex uint64                          `json:"proposer_index"`
	ParentRoot    Root                            `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                            `json:"state_root" ssz-size:"32"`
	Body          BlindedBeaconBlockBodyBellatrix `json:"body"`
}

// SignedBlindedBeaconBlockBellatrix is a Bellatrix blinded beacon block with the proposer's signature.
type SignedBlindedBeaconBlockBellatrix struct {
	Message   BlindedBeaconBlockBellatrix `json:"message"`
	Signature BLSSignature                `json:"signature" ssz-size:"96"`
}

// BeaconBlockBellatrix is a Bellatrix beacon block.
type BeaconBlockBellatrix struct {
	Slot          uint64                   `json:"slot"`
	ProposerIndex uint64                   `json:"proposer_index"`
	ParentRoot    Root                     `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                     `json:"state_root" ssz-size:"32"`
	Body          BeaconBlockBodyBellatrix `json:"body"`
}

// SignedBeaconBlockBellatrix is a Bellatrix beacon block with the proposer's signature.
type SignedBeaconBlockBellatrix struct {
	Message   BeaconBlockBellatrix `json:"message"`
	Signature BLSSignature         `json:"signature" ssz-size:"96"`
}

// BlindedBeaconBlockCapella is a Capella blinded beacon block.
type BlindedBeaconBlockCapella struct {
	Slot          uint64                        `json:"slot"`
	ProposerIndex uint64                        `json:"proposer_index"`
	ParentRoot    Root                          `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                          `json:"state_root" ssz-size:"32"`
	Body          BlindedBeaconBlockBodyCapella `json:"body"`
}

// SignedBlindedBeaconBlockCapella is a Capella blinded beacon block with the proposer's signature.
type SignedBlindedBeaconBlockCapella struct {
	Message   BlindedBeaconBlockCapella `json:"message"`
	Signature BLSSignature              `json:"signature" ssz-size:"96"`
}

// BeaconBlockCapella is a Capella beacon block.
type BeaconBlockCapella struct {
	Slot          uint64                 `json:"slot"`
	ProposerIndex uint64                 `json:"proposer_index"`
	ParentRoot    Root                   `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                   `json:"state_root" ssz-size:"32"`
	Body          BeaconBlockBodyCapella `json:"body"`
}

// SignedBeaconBlockCapella is a Capella beacon block with the proposer's signature.
type SignedBeaconBlockCapella struct {
	Message   BeaconBlockCapella `json:"message"`
	Signature BLSSignature       `json:"signature" ssz-size:"96"`
}

// BlindedBeaconBlockDeneb is a Deneb blinded beacon block.
type BlindedBeaconBlockDeneb struct {
	Slot          uint64                      `json:"slot"`
	ProposerIndex uint64                      `json:"proposer_index"`
	ParentRoot    Root                        `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                        `json:"state_root" ssz-size:"32"`
	Body          BlindedBeaconBlockBodyDeneb `json:"body"`
}

// SignedBlindedBeaconBlockDeneb is a Deneb blinded beacon block with the proposer's signature.
type SignedBlindedBeaconBlockDeneb struct {
	Message   BlindedBeaconBlockDeneb `json:"message"`
	Signature BLSSignature            `json:"signature" ssz-size:"96"`
}

// BeaconBlockDeneb is a Deneb beacon block.
type BeaconBlockDeneb struct {
	Slot          uint64               `json:"slot"`
	ProposerIndex uint64               `json:"proposer_index"`
	ParentRoot    Root                 `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                 `json:"state_root" ssz-size:"32"`
	Body          BeaconBlockBodyDeneb `json:"body"`
}

// SignedBeaconBlockDeneb is a Deneb beacon block with the proposer's signature.
type SignedBeaconBlockDeneb struct {
	Message   BeaconBlockDeneb `json:"message"`
	Signature BLSSignature     `json:"signature" ssz-size:"96"`
}

// BlindedBeaconBlockElectra is a Electra or Fulu blinded beacon block.
type BlindedBeaconBlockElectra struct {
	Slot          uint64                        `json:"slot"`
	ProposerIndex uint64                        `json:"proposer_index"`
	ParentRoot    Root                          `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                          `json:"state_root" ssz-size:"32"`
	Body          BlindedBeaconBlockBodyElectra `json:"body"`
}

// SignedBlindedBeaconBlockElectra is a Electra or Fulu blinded beacon block with the proposer's signature.
type SignedBlindedBeaconBlockElectra struct {
	Message   BlindedBeaconBlockElectra `json:"message"`
	Signature BLSSignature              `json:"signature" ssz-size:"96"`
}

// BeaconBlockElectra is a Electra or Fulu beacon block.
type BeaconBlockElectra struct {
	Slot          uint64                 `json:"slot"`
	ProposerIndex uint64                 `json:"proposer_index"`
	ParentRoot    Root                   `json:"parent_root" ssz-size:"32"`
	StateRoot     Root                   `json:"state_root" ssz-size:"32"`
	Body          BeaconBlockBodyElectra `json:"body"`
}

// SignedBeaconBlockElectra is a Electra or Fulu beacon block with the proposer's signature.
type SignedBeaconBlockElectra struct {
	Message   BeaconBlockElectra `json:"message"`
	Signature BLSSignature       `json:"signature" ssz-size:"96"`
}

// SignedBlockContentsDeneb is what a relay publishes for a Deneb block: the signed block
// with its blobs and one proof per blob.
type SignedBlockContentsDeneb struct {
	SignedBlock SignedBeaconBlockDeneb `json:"signed_block"`
	KZGProofs   []KZGProof             `json:"kzg_proofs" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Blobs       []Blob                 `json:"blobs" ssz-max:"4096" ssz-size:"?,131072" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// SignedBlockContentsElectra is what a relay publishes for an Electra block.
type SignedBlockContentsElectra struct {
	SignedBlock SignedBeaconBlockElectra `json:"signed_block"`
	KZGProofs   []KZGProof               `json:"kzg_proofs" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Blobs       []Blob                   `json:"blobs" ssz-max:"4096" ssz-size:"?,131072" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// SignedBlockContentsFulu is what a relay publishes for a Fulu block: the Electra block
// container with CellsPerExtBlob cell proofs per blob.
type SignedBlockContentsFulu struct {
	SignedBlock SignedBeaconBlockElectra `json:"signed_block"`
	KZGProofs   []KZGProof               `json:"kzg_proofs" ssz-max:"33554432" ssz-size:"?,48" dynssz-max:"FIELD_ELEMENTS_PER_EXT_BLOB*MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Blobs       []Blob                   `json:"blobs" ssz-max:"4096" ssz-size:"?,131072" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// SigningData is the container whose root a BLS signature signs.
type SigningData struct {
	ObjectRoot Root `ssz-size:"32"`
	Domain     Root `ssz-size:"32"`
}

// ForkData is the container mixed into a signing domain.
type ForkData struct {
	CurrentVersion        [4]byte `ssz-size:"4"`
	GenesisValidatorsRoot Root    `ssz-size:"32"`
}

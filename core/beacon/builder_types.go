package beacon

// Containers of the builder and relay APIs (builder-specs, relay-specs). Field order is the
// SSZ order; json tags are the beacon-API names. Fields tagged `json:",omitempty"` are the
// only optional ones in JSON; every other field must be present.

// BidTrace is the builder's summary of a block submission, signed by the builder with
// DOMAIN_APPLICATION_BUILDER.
type BidTrace struct {
	Slot                 uint64    `json:"slot"`
	ParentHash           Root      `json:"parent_hash" ssz-size:"32"`
	BlockHash            Root      `json:"block_hash" ssz-size:"32"`
	BuilderPubkey        BLSPubkey `json:"builder_pubkey" ssz-size:"48"`
	ProposerPubkey       BLSPubkey `json:"proposer_pubkey" ssz-size:"48"`
	ProposerFeeRecipient Address   `json:"proposer_fee_recipient" ssz-size:"20"`
	GasLimit             uint64    `json:"gas_limit"`
	GasUsed              uint64    `json:"gas_used"`
	Value                U256      `json:"value" ssz-size:"32"`
}

// BidTraceV2 is the data API's view of a bid: the BidTrace plus block number and
// transaction count. JSON only.
type BidTraceV2 struct {
	BidTrace
	BlockNumber uint64 `json:"block_number"`
	NumTx       uint64 `json:"num_tx"`
}

// BidTraceV2WithTimestamp is the data API's builder_blocks_received item. JSON only.
type BidTraceV2WithTimestamp struct {
	BidTraceV2
	Timestamp            uint64 `json:"timestamp"`
	TimestampMs          uint64 `json:"timestamp_ms"`
	OptimisticSubmission bool   `json:"optimistic_submission"`
}

// ValidatorRegistration is a validator's preference for fee recipient and gas limit,
// signed with DOMAIN_APPLICATION_BUILDER. Note that pubkey comes last.
type ValidatorRegistration struct {
	FeeRecipient Address   `json:"fee_recipient" ssz-size:"20"`
	GasLimit     uint64    `json:"gas_limit"`
	Timestamp    uint64    `json:"timestamp"`
	Pubkey       BLSPubkey `json:"pubkey" ssz-size:"48"`
}

// SignedValidatorRegistration is a ValidatorRegistration with the validator's signature.
type SignedValidatorRegistration struct {
	Message   ValidatorRegistration `json:"message"`
	Signature BLSSignature          `json:"signature" ssz-size:"96"`
}

// Withdrawal is a consensus-layer withdrawal processed in an execution payload. Amount is
// in Gwei.
type Withdrawal struct {
	Index          uint64  `json:"index"`
	ValidatorIndex uint64  `json:"validator_index"`
	Address        Address `json:"address" ssz-size:"20"`
	Amount         uint64  `json:"amount"`
}

// BlobsBundle holds the blobs of a Deneb or Electra payload with one KZG proof per blob.
type BlobsBundle struct {
	Commitments []KZGCommitment `json:"commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Proofs      []KZGProof      `json:"proofs" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Blobs       []Blob          `json:"blobs" ssz-max:"4096" ssz-size:"?,131072" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// BlobsBundleFulu holds the blobs of a Fulu payload with CellsPerExtBlob cell proofs per
// blob (EIP-7594). It has the same fields as BlobsBundle, so the two convert to each other.
type BlobsBundleFulu struct {
	Commitments []KZGCommitment `json:"commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Proofs      []KZGProof      `json:"proofs" ssz-max:"33554432" ssz-size:"?,48" dynssz-max:"FIELD_ELEMENTS_PER_EXT_BLOB*MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Blobs       []Blob          `json:"blobs" ssz-max:"4096" ssz-size:"?,131072" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// DepositRequest is an EIP-6110 deposit. Amount is in Gwei.
type DepositRequest struct {
	Pubkey                BLSPubkey    `json:"pubkey" ssz-size:"48"`
	WithdrawalCredentials Root         `json:"withdrawal_credentials" ssz-size:"32"`
	Amount                uint64       `json:"amount"`
	Signature             BLSSignature `json:"signature" ssz-size:"96"`
	Index                 uint64       `json:"index"`
}

// WithdrawalRequest is an EIP-7002 execution-layer triggered withdrawal. Amount is in Gwei.
type WithdrawalRequest struct {
	SourceAddress   Address   `json:"source_address" ssz-size:"20"`
	ValidatorPubkey BLSPubkey `json:"validator_pubkey" ssz-size:"48"`
	Amount          uint64    `json:"amount"`
}

// ConsolidationRequest is an EIP-7251 consolidation request.
type ConsolidationRequest struct {
	SourceAddress Address   `json:"source_address" ssz-size:"20"`
	SourcePubkey  BLSPubkey `json:"source_pubkey" ssz-size:"48"`
	TargetPubkey  BLSPubkey `json:"target_pubkey" ssz-size:"48"`
}

// ExecutionRequests holds the EIP-7685 requests of an Electra or later payload.
type ExecutionRequests struct {
	Deposits       []DepositRequest       `json:"deposits" ssz-max:"8192" dynssz-max:"MAX_DEPOSIT_REQUESTS_PER_PAYLOAD"`
	Withdrawals    []WithdrawalRequest    `json:"withdrawals" ssz-max:"16" dynssz-max:"MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD"`
	Consolidations []ConsolidationRequest `json:"consolidations" ssz-max:"2" dynssz-max:"MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD"`
}

// SubmitBlockRequestBellatrix is a builder's Bellatrix block submission.
type SubmitBlockRequestBellatrix struct {
	Message          BidTrace                  `json:"message"`
	ExecutionPayload ExecutionPayloadBellatrix `json:"execution_payload"`
	Signature        BLSSignature              `json:"signature" ssz-size:"96"`
}

// SubmitBlockRequestCapella is a builder's Capella block submission.
type SubmitBlockRequestCapella struct {
	Message          BidTrace                `json:"message"`
	ExecutionPayload ExecutionPayloadCapella `json:"execution_payload"`
	Signature        BLSSignature            `json:"signature" ssz-size:"96"`
}

// SubmitBlockRequestDeneb is a builder's Deneb block submission.
type SubmitBlockRequestDeneb struct {
	Message          BidTrace              `json:"message"`
	ExecutionPayload ExecutionPayloadDeneb `json:"execution_payload"`
	BlobsBundle      BlobsBundle           `json:"blobs_bundle"`
	Signature        BLSSignature          `json:"signature" ssz-size:"96"`
}

// SubmitBlockRequestElectra is a builder's Electra block submission.
type SubmitBlockRequestElectra struct {
	Message           BidTrace              `json:"message"`
	ExecutionPayload  ExecutionPayloadDeneb `json:"execution_payload"`
	BlobsBundle       BlobsBundle           `json:"blobs_bundle"`
	ExecutionRequests ExecutionRequests     `json:"execution_requests"`
	Signature         BLSSignature          `json:"signature" ssz-size:"96"`
}

// SubmitBlockRequestFulu is a builder's Fulu block submission (cell proofs in the bundle).
type SubmitBlockRequestFulu struct {
	Message           BidTrace              `json:"message"`
	ExecutionPayload  ExecutionPayloadDeneb `json:"execution_payload"`
	BlobsBundle       BlobsBundleFulu       `json:"blobs_bundle"`
	ExecutionRequests ExecutionRequests     `json:"execution_requests"`
	Signature         BLSSignature          `json:"signature" ssz-size:"96"`
}

// HeaderSubmissionDeneb is the message of a Deneb header-first submission (helix's
// optimistic v2, POST /relay/v1/builder/headers): the bid trace, the payload's header and
// the blob commitments. The payload itself follows in an ordinary block submission.
type HeaderSubmissionDeneb struct {
	BidTrace               BidTrace                    `json:"bid_trace"`
	ExecutionPayloadHeader ExecutionPayloadHeaderDeneb `json:"execution_payload_header"`
	Commitments            []KZGCommitment             `json:"commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// HeaderSubmissionElectra is the message of an Electra or Fulu header-first submission:
// the Deneb message with the execution requests before the commitments.
type HeaderSubmissionElectra struct {
	BidTrace               BidTrace                    `json:"bid_trace"`
	ExecutionPayloadHeader ExecutionPayloadHeaderDeneb `json:"execution_payload_header"`
	ExecutionRequests      ExecutionRequests           `json:"execution_requests"`
	Commitments            []KZGCommitment             `json:"commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
}

// SignedHeaderSubmissionDeneb is a Deneb header-first submission; the builder's signature
// is over the bid trace, as in a block submission.
type SignedHeaderSubmissionDeneb struct {
	Message   HeaderSubmissionDeneb `json:"message"`
	Signature BLSSignature          `json:"signature" ssz-size:"96"`
}

// SignedHeaderSubmissionElectra is an Electra or Fulu header-first submission.
type SignedHeaderSubmissionElectra struct {
	Message   HeaderSubmissionElectra `json:"message"`
	Signature BLSSignature            `json:"signature" ssz-size:"96"`
}

// BuilderBidBellatrix is a Bellatrix bid offered to a proposer by getHeader.
type BuilderBidBellatrix struct {
	Header ExecutionPayloadHeaderBellatrix `json:"header"`
	Value  U256                            `json:"value" ssz-size:"32"`
	Pubkey BLSPubkey                       `json:"pubkey" ssz-size:"48"`
}

// BuilderBidCapella is a Capella bid offered to a proposer by getHeader.
type BuilderBidCapella struct {
	Header ExecutionPayloadHeaderCapella `json:"header"`
	Value  U256                          `json:"value" ssz-size:"32"`
	Pubkey BLSPubkey                     `json:"pubkey" ssz-size:"48"`
}

// BuilderBidDeneb is a Deneb bid offered to a proposer by getHeader.
type BuilderBidDeneb struct {
	Header             ExecutionPayloadHeaderDeneb `json:"header"`
	BlobKZGCommitments []KZGCommitment             `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	Value              U256                        `json:"value" ssz-size:"32"`
	Pubkey             BLSPubkey                   `json:"pubkey" ssz-size:"48"`
}

// BuilderBidElectra is an Electra or Fulu bid offered to a proposer by getHeader.
type BuilderBidElectra struct {
	Header             ExecutionPayloadHeaderDeneb `json:"header"`
	BlobKZGCommitments []KZGCommitment             `json:"blob_kzg_commitments" ssz-max:"4096" ssz-size:"?,48" dynssz-max:"MAX_BLOB_COMMITMENTS_PER_BLOCK"`
	ExecutionRequests  ExecutionRequests           `json:"execution_requests"`
	Value              U256                        `json:"value" ssz-size:"32"`
	Pubkey             BLSPubkey                   `json:"pubkey" ssz-size:"48"`
}

// SignedBuilderBidBellatrix is a Bellatrix bid with the relay's signature.
type SignedBuilderBidBellatrix struct {
	Message   BuilderBidBellatrix `json:"message"`
	Signature BLSSignature        `json:"signature" ssz-size:"96"`
}

// SignedBuilderBidCapella is a Capella bid with the relay's signature.
type SignedBuilderBidCapella struct {
	Message   BuilderBidCapella `json:"message"`
	Signature BLSSignature      `json:"signature" ssz-size:"96"`
}

// SignedBuilderBidDeneb is a Deneb bid with the relay's signature.
type SignedBuilderBidDeneb struct {
	Message   BuilderBidDeneb `json:"message"`
	Signature BLSSignature    `json:"signature" ssz-size:"96"`
}

// SignedBuilderBidElectra is an Electra or Fulu bid with the relay's signature.
type SignedBuilderBidElectra struct {
	Message   BuilderBidElectra `json:"message"`
	Signature BLSSignature      `json:"signature" ssz-size:"96"`
}

// ExecutionPayloadAndBlobsBundle is getPayload's Deneb and Electra answer.
type ExecutionPayloadAndBlobsBundle struct {
	ExecutionPayload ExecutionPayloadDeneb `json:"execution_payload"`
	BlobsBundle      BlobsBundle           `json:"blobs_bundle"`
}

// ExecutionPayloadAndBlobsBundleFulu is getPayload's Fulu answer.
type ExecutionPayloadAndBlobsBundleFulu struct {
	ExecutionPayload ExecutionPayloadDeneb `json:"execution_payload"`
	BlobsBundle      BlobsBundleFulu       `json:"blobs_bundle"`
}

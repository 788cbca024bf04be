package conformance

// The schemas of builder-specs and relay-specs, from their type definitions
// (builder-specs types/*.yaml and apis/builder/*.yaml; relay-specs
// types/*.yaml and apis/relay/**), for the Fulu fork the relay runs.

var (
	// Byte lengths of the SSZ types the specs encode as hex.
	root, address, pubkey, signature, kzg, bloom = Hex(32), Hex(20), Hex(48), Hex(96), Hex(48), Hex(256)

	// ErrorMessage is builder-specs' error body: code (the HTTP status, a
	// number) and message; stacktraces is optional.
	ErrorMessage = Object(Fields{"code": Int, "message": String}, Fields{"stacktraces": Array(String, 0)})

	// ValidatorRegistration and SignedValidatorRegistration (builder-specs
	// types/registration.yaml).
	ValidatorRegistration = Object(Fields{
		"fee_recipient": address, "gas_limit": Uint64, "timestamp": Uint64, "pubkey": pubkey,
	}, nil)
	SignedValidatorRegistration = Object(Fields{"message": ValidatorRegistration, "signature": signature}, nil)

	// ValidatorsEntry is one item of GET /relay/v1/builder/validators
	// (relay-specs apis/relay/builder/validators.yaml); beta_gas is gavel's
	// addition (docs/relay-builders.md).
	ValidatorsEntry = Object(Fields{"slot": Uint64, "validator_index": Uint64, "entry": SignedValidatorRegistration},
		Fields{"beta_gas": Uint64})

	// ExecutionPayloadHeader (Deneb and later).
	ExecutionPayloadHeader = Object(Fields{
		"parent_hash": root, "fee_recipient": address, "state_root": root, "receipts_root": root,
		"logs_bloom": bloom, "prev_randao": root, "block_number": Uint64, "gas_limit": Uint64,
		"gas_used": Uint64, "timestamp": Uint64, "extra_data": HexMax(32), "base_fee_per_gas": Uint256,
		"block_hash": root, "transactions_root": root, "withdrawals_root": root,
		"blob_gas_used": Uint64, "excess_blob_gas": Uint64,
	}, nil)

	// Withdrawal (Capella and later).
	Withdrawal = Object(Fields{"index": Uint64, "validator_index": Uint64, "address": address, "amount": Uint64}, nil)

	// ExecutionPayload (Deneb and later): the header's fields with the
	// transactions and withdrawals instead of their roots.
	ExecutionPayload = Object(Fields{
		"parent_hash": root, "fee_recipient": address, "state_root": root, "receipts_root": root,
		"logs_bloom": bloom, "prev_randao": root, "block_number": Uint64, "gas_limit": Uint64,
		"gas_used": Uint64, "timestamp": Uint64, "extra_data": HexMax(32), "base_fee_per_gas": Uint256,
		"block_hash": root, "transactions": Array(HexMax(1<<30), 0), "withdrawals": Array(Withdrawal, 0),
		"blob_gas_used": Uint64, "excess_blob_gas": Uint64,
	}, nil)

	// ExecutionRequests (Electra and later).
	ExecutionRequests = Object(Fields{
		"deposits": Array(Object(Fields{
			"pubkey": pubkey, "withdrawal_credentials": root, "amount": Uint64, "signature": signature, "index": Uint64,
		}, nil), 0),
		"withdrawals":    Array(Object(Fields{"source_address": address, "validator_pubkey": pubkey, "amount": Uint64}, nil), 0),
		"consolidations": Array(Object(Fields{"source_address": address, "source_pubkey": pubkey, "target_pubkey": pubkey}, nil), 0),
	}, nil)

	// SignedBuilderBid (Electra/Fulu) and getHeader's versioned answer.
	SignedBuilderBid = Object(Fields{
		"message": Object(Fields{
			"header": ExecutionPayloadHeader, "blob_kzg_commitments": Array(kzg, 0),
			"execution_requests": ExecutionRequests, "value": Uint256, "pubkey": pubkey,
		}, nil),
		"signature": signature,
	}, nil)
	GetHeaderResponse = Object(Fields{"version": Enum("fulu"), "data": SignedBuilderBid}, nil)

	// BlobsBundle (Fulu: a proof per cell, 128 per blob) and getPayload v1's
	// versioned ExecutionPayloadAndBlobsBundle.
	BlobsBundle = Object(Fields{
		"commitments": Array(kzg, 0), "proofs": Array(kzg, 0), "blobs": Array(Hex(131072), 0),
	}, nil)
	GetPayloadResponse = Object(Fields{
		"version": Enum("fulu"),
		"data":    Object(Fields{"execution_payload": ExecutionPayload, "blobs_bundle": BlobsBundle}, nil),
	}, nil)

	// BidTrace fields (relay-specs BidTraceV1) and the data API's items:
	// BidTraceV2 (proposer_payload_delivered) and BidTraceV2WithTimestamp
	// (builder_blocks_received).
	bidTrace = Fields{
		"slot": Uint64, "parent_hash": root, "block_hash": root, "builder_pubkey": pubkey,
		"proposer_pubkey": pubkey, "proposer_fee_recipient": address, "gas_limit": Uint64,
		"gas_used": Uint64, "value": Uint256,
	}
	// gavel adds its beta block's fields to delivered payloads
	// (docs/relay-data.md); reference clients ignore them.
	BidTraceV2 = Object(with(bidTrace, Fields{"block_number": Uint64, "num_tx": Uint64}),
		Fields{"alpha_block_hash": root, "beta_gas_used": Uint64, "beta_bundle_count": Uint64})
	BidTraceV2WithTimestamp = Object(with(bidTrace, Fields{"block_number": Uint64, "num_tx": Uint64, "timestamp": Uint64, "timestamp_ms": Uint64}),
		Fields{"optimistic_submission": Bool})
)

// with is fields plus more.
func with(fields, more Fields) Fields {
	out := Fields{}
	for k, v := range fields {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

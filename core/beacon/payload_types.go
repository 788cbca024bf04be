package beacon

// ExecutionPayloadBellatrix is the Bellatrix execution payload.
type ExecutionPayloadBellatrix struct {
	ParentHash    Root     `json:"parent_hash" ssz-size:"32"`
	FeeRecipient  Address  `json:"fee_recipient" ssz-size:"20"`
	StateRoot     Root     `json:"state_root" ssz-size:"32"`
	ReceiptsRoot  Root     `json:"receipts_root" ssz-size:"32"`
	LogsBloom     Bloom    `json:"logs_bloom" ssz-size:"256"`
	PrevRandao    Root     `json:"prev_randao" ssz-size:"32"`
	BlockNumber   uint64   `json:"block_number"`
	GasLimit      uint64   `json:"gas_limit"`
	GasUsed       uint64   `json:"gas_used"`
	Timestamp     uint64   `json:"timestamp"`
	ExtraData     []byte   `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas U256     `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash     Root     `json:"block_hash" ssz-size:"32"`
	Transactions  [][]byte `json:"transactions" ssz-max:"1048576,1073741824" ssz-size:"?,?" dynssz-max:"MAX_TRANSACTIONS_PER_PAYLOAD,MAX_BYTES_PER_TRANSACTION"`
}

// ExecutionPayloadCapella is the Capella execution payload (adds withdrawals).
type ExecutionPayloadCapella struct {
	ParentHash    Root         `json:"parent_hash" ssz-size:"32"`
	FeeRecipient  Address      `json:"fee_recipient" ssz-size:"20"`
	StateRoot     Root         `json:"state_root" ssz-size:"32"`
	ReceiptsRoot  Root         `json:"receipts_root" ssz-size:"32"`
	LogsBloom     Bloom        `json:"logs_bloom" ssz-size:"256"`
	PrevRandao    Root         `json:"prev_randao" ssz-size:"32"`
	BlockNumber   uint64       `json:"block_number"`
	GasLimit      uint64       `json:"gas_limit"`
	GasUsed       uint64       `json:"gas_used"`
	Timestamp     uint64       `json:"timestamp"`
	ExtraData     []byte       `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas U256         `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash     Root         `json:"block_hash" ssz-size:"32"`
	Transactions  [][]byte     `json:"transactions" ssz-max:"1048576,1073741824" ssz-size:"?,?" dynssz-max:"MAX_TRANSACTIONS_PER_PAYLOAD,MAX_BYTES_PER_TRANSACTION"`
	Withdrawals   []Withdrawal `json:"withdrawals" ssz-max:"16" dynssz-max:"MAX_WITHDRAWALS_PER_PAYLOAD"`
}

// ExecutionPayloadDeneb is the Deneb execution payload (adds blob gas), unchanged in
// Electra and Fulu.
type ExecutionPayloadDeneb struct {
	ParentHash    Root         `json:"parent_hash" ssz-size:"32"`
	FeeRecipient  Address      `json:"fee_recipient" ssz-size:"20"`
	StateRoot     Root         `json:"state_root" ssz-size:"32"`
	ReceiptsRoot  Root         `json:"receipts_root" ssz-size:"32"`
	LogsBloom     Bloom        `json:"logs_bloom" ssz-size:"256"`
	PrevRandao    Root         `json:"prev_randao" ssz-size:"32"`
	BlockNumber   uint64       `json:"block_number"`
	GasLimit      uint64       `json:"gas_limit"`
	GasUsed       uint64       `json:"gas_used"`
	Timestamp     uint64       `json:"timestamp"`
	ExtraData     []byte       `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas U256         `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash     Root         `json:"block_hash" ssz-size:"32"`
	Transactions  [][]byte     `json:"transactions" ssz-max:"1048576,1073741824" ssz-size:"?,?" dynssz-max:"MAX_TRANSACTIONS_PER_PAYLOAD,MAX_BYTES_PER_TRANSACTION"`
	Withdrawals   []Withdrawal `json:"withdrawals" ssz-max:"16" dynssz-max:"MAX_WITHDRAWALS_PER_PAYLOAD"`
	BlobGasUsed   uint64       `json:"blob_gas_used"`
	ExcessBlobGas uint64       `json:"excess_blob_gas" json-alias:"excess_data_gas"`
}

// ExecutionPayloadHeaderBellatrix is the Bellatrix payload header.
type ExecutionPayloadHeaderBellatrix struct {
	ParentHash       Root    `json:"parent_hash" ssz-size:"32"`
	FeeRecipient     Address `json:"fee_recipient" ssz-size:"20"`
	StateRoot        Root    `json:"state_root" ssz-size:"32"`
	ReceiptsRoot     Root    `json:"receipts_root" ssz-size:"32"`
	LogsBloom        Bloom   `json:"logs_bloom" ssz-size:"256"`
	PrevRandao       Root    `json:"prev_randao" ssz-size:"32"`
	BlockNumber      uint64  `json:"block_number"`
	GasLimit         uint64  `json:"gas_limit"`
	GasUsed          uint64  `json:"gas_used"`
	Timestamp        uint64  `json:"timestamp"`
	ExtraData        []byte  `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas    U256    `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash        Root    `json:"block_hash" ssz-size:"32"`
	TransactionsRoot Root    `json:"transactions_root" ssz-size:"32"`
}

// ExecutionPayloadHeaderCapella is the Capella payload header.
type ExecutionPayloadHeaderCapella struct {
	ParentHash       Root    `json:"parent_hash" ssz-size:"32"`
	FeeRecipient     Address `json:"fee_recipient" ssz-size:"20"`
	StateRoot        Root    `json:"state_root" ssz-size:"32"`
	ReceiptsRoot     Root    `json:"receipts_root" ssz-size:"32"`
	LogsBloom        Bloom   `json:"logs_bloom" ssz-size:"256"`
	PrevRandao       Root    `json:"prev_randao" ssz-size:"32"`
	BlockNumber      uint64  `json:"block_number"`
	GasLimit         uint64  `json:"gas_limit"`
	GasUsed          uint64  `json:"gas_used"`
	Timestamp        uint64  `json:"timestamp"`
	ExtraData        []byte  `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas    U256    `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash        Root    `json:"block_hash" ssz-size:"32"`
	TransactionsRoot Root    `json:"transactions_root" ssz-size:"32"`
	WithdrawalsRoot  Root    `json:"withdrawals_root" ssz-size:"32"`
}

// ExecutionPayloadHeaderDeneb is the Deneb payload header, unchanged in Electra and Fulu.
type ExecutionPayloadHeaderDeneb struct {
	ParentHash       Root    `json:"parent_hash" ssz-size:"32"`
	FeeRecipient     Address `json:"fee_recipient" ssz-size:"20"`
	StateRoot        Root    `json:"state_root" ssz-size:"32"`
	ReceiptsRoot     Root    `json:"receipts_root" ssz-size:"32"`
	LogsBloom        Bloom   `json:"logs_bloom" ssz-size:"256"`
	PrevRandao       Root    `json:"prev_randao" ssz-size:"32"`
	BlockNumber      uint64  `json:"block_number"`
	GasLimit         uint64  `json:"gas_limit"`
	GasUsed          uint64  `json:"gas_used"`
	Timestamp        uint64  `json:"timestamp"`
	ExtraData        []byte  `json:"extra_data" ssz-max:"32" dynssz-max:"MAX_EXTRA_DATA_BYTES"`
	BaseFeePerGas    U256    `json:"base_fee_per_gas" ssz-size:"32"`
	BlockHash        Root    `json:"block_hash" ssz-size:"32"`
	TransactionsRoot Root    `json:"transactions_root" ssz-size:"32"`
	WithdrawalsRoot  Root    `json:"withdrawals_root" ssz-size:"32"`
	BlobGasUsed      uint64  `json:"blob_gas_used"`
	ExcessBlobGas    uint64  `json:"excess_blob_gas" json-alias:"excess_data_gas"`
}

// Transactions is the SSZ list of an execution payload's transactions, used to compute
// transactions_root.
type Transactions struct {
	Transactions [][]byte `ssz-max:"1048576,1073741824" ssz-size:"?,?" dynssz-max:"MAX_TRANSACTIONS_PER_PAYLOAD,MAX_BYTES_PER_TRANSACTION"`
}

// Withdrawals is the SSZ list of an execution payload's withdrawals, used to compute
// withdrawals_root.
type Withdrawals struct {
	Withdrawals []Withdrawal `ssz-max:"16" dynssz-max:"MAX_WITHDRAWALS_PER_PAYLOAD"`
}

package beacon

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/params"
)

// ExecutionPayload is an execution payload of any fork: exactly one of the pointers is set,
// chosen by Fork (Bellatrix, Capella, or Deneb for Deneb, Electra and Fulu, which share the
// container).
type ExecutionPayload struct {
	Fork      params.ConsensusFork
	Bellatrix *ExecutionPayloadBellatrix
	Capella   *ExecutionPayloadCapella
	Deneb     *ExecutionPayloadDeneb
}

// ExecutionPayloadHeader is an execution payload header of any fork, laid out like
// ExecutionPayload.
type ExecutionPayloadHeader struct {
	Fork      params.ConsensusFork
	Bellatrix *ExecutionPayloadHeaderBellatrix
	Capella   *ExecutionPayloadHeaderCapella
	Deneb     *ExecutionPayloadHeaderDeneb
}

func unsupported(fork params.ConsensusFork, what string) error {
	return fmt.Errorf("%w: %s for %s", ErrUnsupportedFork, what, fork)
}

// NewExecutionPayload wraps a fork's payload container; it fails if the container does
// not belong to fork.
func NewExecutionPayload(fork params.ConsensusFork, v any) (*ExecutionPayload, error) {
	p := &ExecutionPayload{Fork: fork}
	switch x := v.(type) {
	case *ExecutionPayloadBellatrix:
		p.Bellatrix = x
	case *ExecutionPayloadCapella:
		p.Capella = x
	case *ExecutionPayloadDeneb:
		p.Deneb = x
	default:
		return nil, fmt.Errorf("beacon: %T is not an execution payload", v)
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check verifies that the one container set matches Fork.
func (p *ExecutionPayload) check() error {
	ok := false
	switch {
	case p.Fork == params.ForkBellatrix:
		ok = p.Bellatrix != nil && p.Capella == nil && p.Deneb == nil
	case p.Fork == params.ForkCapella:
		ok = p.Capella != nil && p.Bellatrix == nil && p.Deneb == nil
	case p.Fork >= params.ForkDeneb && p.Fork <= params.LatestConsensusFork:
		ok = p.Deneb != nil && p.Bellatrix == nil && p.Capella == nil
	default:
		return unsupported(p.Fork, "execution payload")
	}
	if !ok {
		return fmt.Errorf("%w: payload container does not match fork %s", ErrUnsupportedFork, p.Fork)
	}
	return nil
}

// container returns the SSZ container that is set.
func (p *ExecutionPayload) container() sszCodecJSON {
	switch {
	case p.Bellatrix != nil:
		return p.Bellatrix
	case p.Capella != nil:
		return p.Capella
	default:
		return p.Deneb
	}
}

// View returns the payload's fields in the Deneb layout, whatever the fork: fields a fork
// lacks are zero (Withdrawals is nil before Capella). Slices are shared, not copied.
func (p *ExecutionPayload) View() *ExecutionPayloadDeneb {
	switch {
	case p.Deneb != nil:
		return p.Deneb
	case p.Capella != nil:
		c := p.Capella
		return &ExecutionPayloadDeneb{c.ParentHash, c.FeeRecipient, c.StateRoot, c.ReceiptsRoot, c.LogsBloom, c.PrevRandao,
			c.BlockNumber, c.GasLimit, c.GasUsed, c.Timestamp, c.ExtraData, c.BaseFeePerGas, c.BlockHash, c.Transactions, c.Withdrawals, 0, 0}
	case p.Bellatrix != nil:
		b := p.Bellatrix
		return &ExecutionPayloadDeneb{b.ParentHash, b.FeeRecipient, b.StateRoot, b.ReceiptsRoot, b.LogsBloom, b.PrevRandao,
			b.BlockNumber, b.GasLimit, b.GasUsed, b.Timestamp, b.ExtraData, b.BaseFeePerGas, b.BlockHash, b.Transactions, nil, 0, 0}
	}
	return &ExecutionPayloadDeneb{}
}

// HashTreeRoot returns the payload's SSZ root under the mainnet preset (Spec.HashTreeRoot
// of the container for another preset: the withdrawals limit enters the root).
func (p *ExecutionPayload) HashTreeRoot() ([32]byte, error) { return p.container().HashTreeRoot() }

// MarshalSSZ encodes the payload container.
func (p *ExecutionPayload) MarshalSSZ() ([]byte, error) { return p.container().MarshalSSZ() }

// MarshalJSON encodes the payload container as beacon-API JSON.
func (p *ExecutionPayload) MarshalJSON() ([]byte, error) { return MarshalJSONCompact(p.container()) }

// TransactionsRoot returns hash_tree_root(List[Transaction, MAX_TRANSACTIONS_PER_PAYLOAD])
// under spec's preset.
func TransactionsRoot(spec *Spec, txs [][]byte) (Root, error) {
	spec = specOr(spec)
	r, err := transactionsRoot(txs, spec.Value("MAX_TRANSACTIONS_PER_PAYLOAD"), spec.Value("MAX_BYTES_PER_TRANSACTION"))
	if err != nil {
		return Root{}, fmt.Errorf("%w: transactions root: %v", ErrInvalidSSZ, err)
	}
	return r, nil
}

// WithdrawalsRoot returns hash_tree_root(List[Withdrawal, MAX_WITHDRAWALS_PER_PAYLOAD])
// under spec's preset (16 on mainnet, 4 on minimal: the limit enters the root). The relay
// compares it with the root of the withdrawals the beacon node expects.
func WithdrawalsRoot(spec *Spec, ws []Withdrawal) (Root, error) {
	r, err := specOr(spec).HashTreeRoot(&Withdrawals{Withdrawals: ws})
	if err != nil {
		return Root{}, fmt.Errorf("%w: withdrawals root: %v", ErrInvalidSSZ, err)
	}
	return r, nil
}

// Header builds the payload's header: the same fields with transactions and withdrawals
// replaced by their SSZ list roots under spec's preset.
func (p *ExecutionPayload) Header(spec *Spec) (*ExecutionPayloadHeader, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	v := p.View()
	txRoot, err := TransactionsRoot(spec, v.Transactions)
	if err != nil {
		return nil, err
	}
	h := &ExecutionPayloadHeader{Fork: p.Fork}
	switch {
	case p.Bellatrix != nil:
		h.Bellatrix = &ExecutionPayloadHeaderBellatrix{v.ParentHash, v.FeeRecipient, v.StateRoot, v.ReceiptsRoot, v.LogsBloom, v.PrevRandao,
			v.BlockNumber, v.GasLimit, v.GasUsed, v.Timestamp, v.ExtraData, v.BaseFeePerGas, v.BlockHash, txRoot}
		return h, nil
	}
	wRoot, err := WithdrawalsRoot(spec, v.Withdrawals)
	if err != nil {
		return nil, err
	}
	if p.Capella != nil {
		h.Capella = &ExecutionPayloadHeaderCapella{v.ParentHash, v.FeeRecipient, v.StateRoot, v.ReceiptsRoot, v.LogsBloom, v.PrevRandao,
			v.BlockNumber, v.GasLimit, v.GasUsed, v.Timestamp, v.ExtraData, v.BaseFeePerGas, v.BlockHash, txRoot, wRoot}
		return h, nil
	}
	h.Deneb = &ExecutionPayloadHeaderDeneb{v.ParentHash, v.FeeRecipient, v.StateRoot, v.ReceiptsRoot, v.LogsBloom, v.PrevRandao,
		v.BlockNumber, v.GasLimit, v.GasUsed, v.Timestamp, v.ExtraData, v.BaseFeePerGas, v.BlockHash, txRoot, wRoot, v.BlobGasUsed, v.ExcessBlobGas}
	return h, nil
}

func (h *ExecutionPayloadHeader) container() sszCodecJSON {
	switch {
	case h.Bellatrix != nil:
		return h.Bellatrix
	case h.Capella != nil:
		return h.Capella
	default:
		return h.Deneb
	}
}

// HashTreeRoot returns the header's SSZ root. A blinded block's header and the header built
// from the delivered payload must have equal roots.
func (h *ExecutionPayloadHeader) HashTreeRoot() ([32]byte, error) {
	if h.Bellatrix == nil && h.Capella == nil && h.Deneb == nil {
		return [32]byte{}, unsupported(h.Fork, "empty execution payload header")
	}
	return h.container().HashTreeRoot()
}

// BlockHash returns the execution block hash the header commits to.
func (h *ExecutionPayloadHeader) BlockHash() Root {
	switch {
	case h.Bellatrix != nil:
		return h.Bellatrix.BlockHash
	case h.Capella != nil:
		return h.Capella.BlockHash
	case h.Deneb != nil:
		return h.Deneb.BlockHash
	}
	return Root{}
}

// ToExecutableData converts the payload to geth's engine API form.
func (p *ExecutionPayload) ToExecutableData() *engine.ExecutableData {
	v := p.View()
	d := &engine.ExecutableData{
		ParentHash:    common.Hash(v.ParentHash),
		FeeRecipient:  common.Address(v.FeeRecipient),
		StateRoot:     common.Hash(v.StateRoot),
		ReceiptsRoot:  common.Hash(v.ReceiptsRoot),
		LogsBloom:     v.LogsBloom[:],
		Random:        common.Hash(v.PrevRandao),
		Number:        v.BlockNumber,
		GasLimit:      v.GasLimit,
		GasUsed:       v.GasUsed,
		Timestamp:     v.Timestamp,
		ExtraData:     v.ExtraData,
		BaseFeePerGas: v.BaseFeePerGas.Big(),
		BlockHash:     common.Hash(v.BlockHash),
		Transactions:  v.Transactions,
	}
	if d.Transactions == nil {
		d.Transactions = [][]byte{}
	}
	if p.Fork >= params.ForkCapella {
		d.Withdrawals = make([]*types.Withdrawal, len(v.Withdrawals))
		for i, w := range v.Withdrawals {
			d.Withdrawals[i] = &types.Withdrawal{Index: w.Index, Validator: w.ValidatorIndex, Address: common.Address(w.Address), Amount: w.Amount}
		}
	}
	if p.Fork >= params.ForkDeneb {
		blobGasUsed, excess := v.BlobGasUsed, v.ExcessBlobGas
		d.BlobGasUsed, d.ExcessBlobGas = &blobGasUsed, &excess
	}
	return d
}

// ExecutionPayloadFromExecutableData converts geth's engine API payload to the container of
// fork, checking every length and that the fork's fields are present.
func ExecutionPayloadFromExecutableData(fork params.ConsensusFork, d *engine.ExecutableData) (*ExecutionPayload, error) {
	if fork < params.ForkBellatrix || fork > params.LatestConsensusFork {
		return nil, unsupported(fork, "execution payload")
	}
	v := ExecutionPayloadDeneb{
		ParentHash:   Root(d.ParentHash),
		FeeRecipient: Address(d.FeeRecipient),
		StateRoot:    Root(d.StateRoot),
		ReceiptsRoot: Root(d.ReceiptsRoot),
		PrevRandao:   Root(d.Random),
		BlockNumber:  d.Number,
		GasLimit:     d.GasLimit,
		GasUsed:      d.GasUsed,
		Timestamp:    d.Timestamp,
		ExtraData:    d.ExtraData,
		BlockHash:    Root(d.BlockHash),
		Transactions: d.Transactions,
	}
	if len(d.LogsBloom) != BloomLength {
		return nil, fmt.Errorf("%w: logs bloom has %d bytes, expected %d", ErrInvalidLength, len(d.LogsBloom), BloomLength)
	}
	copy(v.LogsBloom[:], d.LogsBloom)
	if len(d.ExtraData) > MaxExtraDataBytes {
		return nil, fmt.Errorf("%w: extra data has %d bytes, limit %d", ErrListTooLong, len(d.ExtraData), MaxExtraDataBytes)
	}
	if v.ExtraData == nil {
		v.ExtraData = []byte{}
	}
	if v.Transactions == nil {
		v.Transactions = [][]byte{}
	}
	if len(d.Transactions) > MaxTransactionsPerPayload {
		return nil, fmt.Errorf("%w: %d transactions, limit %d", ErrListTooLong, len(d.Transactions), MaxTransactionsPerPayload)
	}
	if d.BaseFeePerGas == nil {
		return nil, fmt.Errorf("%w: base fee per gas", ErrMissingField)
	}
	var err error
	if v.BaseFeePerGas, err = U256FromBig(d.BaseFeePerGas); err != nil {
		return nil, err
	}
	if fork >= params.ForkCapella {
		if len(d.Withdrawals) > MaxWithdrawalsPerPayload {
			return nil, fmt.Errorf("%w: %d withdrawals, limit %d", ErrListTooLong, len(d.Withdrawals), MaxWithdrawalsPerPayload)
		}
		v.Withdrawals = make([]Withdrawal, len(d.Withdrawals))
		for i, w := range d.Withdrawals {
			if w == nil {
				return nil, fmt.Errorf("%w: withdrawal %d is nil", ErrMissingField, i)
			}
			v.Withdrawals[i] = Withdrawal{Index: w.Index, ValidatorIndex: w.Validator, Address: Address(w.Address), Amount: w.Amount}
		}
	}
	p := &ExecutionPayload{Fork: fork}
	switch fork {
	case params.ForkBellatrix:
		p.Bellatrix = &ExecutionPayloadBellatrix{v.ParentHash, v.FeeRecipient, v.StateRoot, v.ReceiptsRoot, v.LogsBloom, v.PrevRandao,
			v.BlockNumber, v.GasLimit, v.GasUsed, v.Timestamp, v.ExtraData, v.BaseFeePerGas, v.BlockHash, v.Transactions}
	case params.ForkCapella:
		p.Capella = &ExecutionPayloadCapella{v.ParentHash, v.FeeRecipient, v.StateRoot, v.ReceiptsRoot, v.LogsBloom, v.PrevRandao,
			v.BlockNumber, v.GasLimit, v.GasUsed, v.Timestamp, v.ExtraData, v.BaseFeePerGas, v.BlockHash, v.Transactions, v.Withdrawals}
	default:
		if d.BlobGasUsed == nil || d.ExcessBlobGas == nil {
			return nil, fmt.Errorf("%w: %s payload needs blob gas used and excess blob gas", ErrMissingField, fork)
		}
		v.BlobGasUsed, v.ExcessBlobGas = *d.BlobGasUsed, *d.ExcessBlobGas
		p.Deneb = &v
	}
	return p, nil
}

// BaseFee returns the base fee as a big.Int.
func (p *ExecutionPayload) BaseFee() *big.Int { return p.View().BaseFeePerGas.Big() }

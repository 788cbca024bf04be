package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/txpool/txorder"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/types/bal"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/log"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/holiman/uint256"
)

// Errors of block building.
var (
	// ErrBundleTxFailed means a bundle tx failed (invalid on the state it met,
	// or reverted without being allowed to); the bundle was not applied.
	ErrBundleTxFailed = errors.New("bundle tx failed")
	// ErrBlockFull means a tx does not fit in the gas or size left.
	ErrBlockFull = errors.New("not enough room left in the block")
	// ErrBuilderFinished means the builder was used after Finish.
	ErrBuilderFinished = errors.New("block builder already finished")
	// ErrNoTxPool means the chain was built without a tx pool.
	ErrNoTxPool = errors.New("no transaction pool")
	// ErrBuildAttrs means a block cannot be built on the parent with the
	// given attributes (a timestamp not after the parent's, no parent beacon
	// root after Cancun).
	ErrBuildAttrs = errors.New("unusable block attributes")
	// ErrBlobTx means a blob tx was offered to the local builder, which
	// carries no blob sidecars.
	ErrBlobTx = errors.New("blob transactions are not built locally")

	// Classes of a failed bundle tx: an ErrBundleTxFailed error also matches
	// (errors.Is) one of these, so callers can say why without geth's errors.

	// ErrTxNonce: the tx's nonce is not the sender's next one.
	ErrTxNonce = errors.New("wrong nonce")
	// ErrTxFee: the tx's fee cap is below the block's base fee, or its tip
	// above its fee cap.
	ErrTxFee = errors.New("fee too low")
	// ErrTxFunds: the sender cannot pay gas × fee cap + value.
	ErrTxFunds = errors.New("insufficient funds")
	// ErrTxReverted: the tx reverted and the bundle does not allow it.
	ErrTxReverted = errors.New("reverted")
)

// classed is a failure that also matches its class (ErrTx*), with the
// message of the failure alone.
type classed struct{ err, class error }

func (e *classed) Error() string   { return e.err.Error() }
func (e *classed) Unwrap() []error { return []error{e.err, e.class} }

// txClass returns the class of a geth tx-application error, or nil.
func txClass(err error) error {
	switch {
	case errors.Is(err, core.ErrNonceTooLow), errors.Is(err, core.ErrNonceTooHigh), errors.Is(err, core.ErrNonceMax):
		return ErrTxNonce
	case errors.Is(err, core.ErrFeeCapTooLow), errors.Is(err, core.ErrTipAboveFeeCap), errors.Is(err, core.ErrTipVeryHigh), errors.Is(err, core.ErrFeeCapVeryHigh):
		return ErrTxFee
	case errors.Is(err, core.ErrInsufficientFunds), errors.Is(err, core.ErrInsufficientFundsForTransfer):
		return ErrTxFunds
	}
	return nil
}

// BuildAttrs are what a slot's payload attributes fix about a block.
type BuildAttrs struct {
	Timestamp    uint64
	FeeRecipient common.Address // the block's coinbase
	Random       common.Hash    // prevRandao
	Withdrawals  types.Withdrawals
	BeaconRoot   *common.Hash
	GasLimit     uint64 // desired gas limit, reached within the 1/1024 rule; 0 keeps the parent's
	Extra        []byte
	// Reserve is gas of the block's limit the builder leaves unused (the
	// slot's beta_gas, sold for the beta block).
	Reserve uint64
}

// BlockBuilder assembles one block on a parent with geth's own pieces
// (system calls, ApplyTransaction, withdrawals and requests, AssembleBlock),
// so the result is what the engine API's newPayload accepts. Transactions go
// in one at a time or as all-or-nothing bundles. Not safe for concurrent use.
type BlockBuilder struct {
	c        *Chain
	ctx      context.Context
	parent   *types.Header
	header   *types.Header
	attrs    BuildAttrs
	state    *state.StateDB
	evm      *vm.EVM
	gp       *core.GasPool
	acc      *bal.ConstructionBlockAccessList
	signer   types.Signer
	txs      types.Transactions
	receipts types.Receipts
	logs     []*types.Log
	size     uint64
	startBal *uint256.Int
	done     bool

	checkpoint *checkpoint // see applyBundle
}

// NewBlockBuilder starts a block on parent (a block of this chain whose
// state is available). It runs the pre-execution system calls (EIP-4788
// beacon root, EIP-2935 parent hash).
func (c *Chain) NewBlockBuilder(ctx context.Context, parent *types.Header, a BuildAttrs) (*BlockBuilder, error) {
	cfg := c.Config()
	if a.Timestamp <= parent.Time {
		return nil, fmt.Errorf("%w: block timestamp %d is not after the parent's %d", ErrBuildAttrs, a.Timestamp, parent.Time)
	}
	desired := a.GasLimit
	if desired == 0 {
		desired = parent.GasLimit
	}
	num := new(big.Int).Add(parent.Number, common.Big1)
	h := &types.Header{
		ParentHash: parent.Hash(),
		Number:     num,
		Time:       a.Timestamp,
		Coinbase:   a.FeeRecipient,
		Extra:      a.Extra,
		MixDigest:  a.Random,
		Difficulty: new(big.Int),
		GasLimit:   core.CalcGasLimit(parent.GasLimit, desired),
	}
	if cfg.IsLondon(num) {
		h.BaseFee = eip1559.CalcBaseFee(cfg, parent)
	}
	if cfg.IsCancun(num, a.Timestamp) {
		if a.BeaconRoot == nil {
			return nil, fmt.Errorf("%w: a post-Cancun block needs a parent beacon block root, got none", ErrBuildAttrs)
		}
		ex := eip4844.CalcExcessBlobGas(cfg, parent, a.Timestamp)
		h.ExcessBlobGas, h.BlobGasUsed = &ex, new(uint64)
		root := *a.BeaconRoot
		h.ParentBeaconRoot = &root
	}
	if cfg.IsShanghai(num, a.Timestamp) && a.Withdrawals == nil {
		a.Withdrawals = types.Withdrawals{}
	}
	sdb, err := c.bc.StateAtForkBoundary(parent, h)
	if err != nil {
		return nil, fmt.Errorf("%w: parent %d %s: %v", ErrMissingState, parent.Number, parent.Hash().Hex(), err)
	}
	coinbase := a.FeeRecipient
	evm := vm.NewEVM(core.NewEVMBlockContext(h, c.bc, &coinbase), sdb, cfg, vm.Config{})
	b := &BlockBuilder{
		c: c, ctx: ctx, parent: parent, header: h, attrs: a, state: sdb, evm: evm,
		gp:     core.NewGasPool(h.GasLimit - min(a.Reserve, h.GasLimit)),
		signer: types.MakeSigner(cfg, num, a.Timestamp),
	}
	b.acc = core.PreExecution(ctx, h.ParentBeaconRoot, parent, cfg, evm, num, a.Timestamp)
	b.startBal = sdb.GetBalance(coinbase).Clone()
	return b, nil
}

// Number is the number of the block being built.
func (b *BlockBuilder) Number() uint64 { return b.header.Number.Uint64() }

// Timestamp is the block's timestamp.
func (b *BlockBuilder) Timestamp() uint64 { return b.header.Time }

// BaseFee is the block's base fee (nil before London).
func (b *BlockBuilder) BaseFee() *big.Int { return b.header.BaseFee }

// GasLimit is the block's gas limit.
func (b *BlockBuilder) GasLimit() uint64 { return b.header.GasLimit }

// GasLeft is the gas still available.
func (b *BlockBuilder) GasLeft() uint64 { return b.gp.Available(false) }

// TxCount is how many txs the block holds so far.
func (b *BlockBuilder) TxCount() int { return len(b.txs) }

// BundleOutcome is what applying (or simulating) a bundle did.
type BundleOutcome struct {
	GasUsed      uint64
	CoinbaseDiff *uint256.Int // change of the fee recipient's balance: tips plus direct payments
	Reverted     []common.Hash
}

// EffectiveGasPrice is CoinbaseDiff / GasUsed: what the bundle pays the
// block's fee recipient per unit of gas.
func (o *BundleOutcome) EffectiveGasPrice() *uint256.Int {
	if o.GasUsed == 0 {
		return new(uint256.Int)
	}
	return new(uint256.Int).Div(o.CoinbaseDiff, uint256.NewInt(o.GasUsed))
}

// ApplyBundle applies txs in order, all or nothing: if any tx is invalid on
// the state it meets, or fails (status 0) without canRevert allowing it, the
// state is rolled back and the error (wrapping ErrBundleTxFailed or
// ErrBlockFull) names the tx.
func (b *BlockBuilder) ApplyBundle(txs types.Transactions, canRevert func(common.Hash) bool) (*BundleOutcome, error) {
	return b.applyBundle(txs, canRevert, false)
}

// SimulateBundle runs txs like ApplyBundle and reports the outcome, but
// always rolls back: the block is unchanged.
func (b *BlockBuilder) SimulateBundle(txs types.Transactions, canRevert func(common.Hash) bool) (*BundleOutcome, error) {
	return b.applyBundle(txs, canRevert, true)
}

func (b *BlockBuilder) applyBundle(txs types.Transactions, canRevert func(common.Hash) bool, dry bool) (*BundleOutcome, error) {
	if b.done {
		return nil, ErrBuilderFinished
	}
	// geth's StateDB cannot revert across transactions (each tx clears the
	// journal). A simulation runs on a copy it throws away. A real bundle
	// runs on the live state; the builder keeps a checkpoint (a copy taken
	// before the first bundle since the last failure) and, when a bundle
	// fails, goes back to it and replays the txs that were kept since. Copies
	// thus cost one per failure, not one per bundle, which keeps building
	// from many bundles linear.
	var rollback func() error
	if dry {
		orig, gs := b.state, b.gp.Snapshot()
		m := b.markNow()
		b.state = orig.Copy()
		b.evm.SetStateDB(b.state)
		if m.acc != nil {
			b.acc = m.acc.Copy()
		}
		rollback = func() error {
			b.state = orig
			b.evm.SetStateDB(orig)
			b.gp.Set(gs)
			b.truncate(m)
			return nil
		}
	} else {
		if b.checkpoint == nil {
			b.takeCheckpoint()
		}
		start := len(b.txs)
		rollback = func() error { return b.restoreCheckpoint(start) }
	}
	fail := func(err error) (*BundleOutcome, error) {
		if rerr := rollback(); rerr != nil {
			b.done = true // the block cannot be trusted any more
			return nil, fmt.Errorf("restoring the block after a failed bundle: %w", rerr)
		}
		return nil, err
	}
	before := b.state.GetBalance(b.header.Coinbase).Clone()
	out := &BundleOutcome{}
	for i, tx := range txs {
		r, err := b.apply(tx)
		if err != nil {
			err = fmt.Errorf("%w: tx %d %s: %w", ErrBundleTxFailed, i, tx.Hash().Hex(), err)
			if class := txClass(err); class != nil {
				err = &classed{err, class}
			}
			return fail(err)
		}
		if r.Status == types.ReceiptStatusFailed {
			if canRevert == nil || !canRevert(tx.Hash()) {
				return fail(&classed{fmt.Errorf("%w: tx %d %s reverted and is not in revertingTxHashes", ErrBundleTxFailed, i, tx.Hash().Hex()), ErrTxReverted})
			}
			out.Reverted = append(out.Reverted, tx.Hash())
		}
		out.GasUsed += r.GasUsed
	}
	after := b.state.GetBalance(b.header.Coinbase)
	out.CoinbaseDiff = new(uint256.Int)
	if after.Cmp(before) > 0 {
		out.CoinbaseDiff.Sub(after, before)
	}
	if dry {
		rollback()
	}
	return out, nil
}

// mark is the block's tx-list position and gas at a point in time.
type mark struct {
	n    int
	size uint64
	gp   *core.GasPool
	acc  *bal.ConstructionBlockAccessList
}

func (b *BlockBuilder) markNow() mark {
	return mark{n: len(b.txs), size: b.size, gp: b.gp.Snapshot(), acc: b.acc}
}

// truncate drops the txs recorded after m.
func (b *BlockBuilder) truncate(m mark) {
	b.txs, b.receipts, b.size = b.txs[:m.n], b.receipts[:m.n], m.size
	b.logs = b.logs[:b.logCount(m.n)]
	b.acc = m.acc
}

// checkpoint is a copy of the state at a mark.
type checkpoint struct {
	state *state.StateDB
	at    mark
}

func (b *BlockBuilder) takeCheckpoint() {
	m := b.markNow()
	if m.acc != nil {
		m.acc = m.acc.Copy()
	}
	b.checkpoint = &checkpoint{state: b.state.Copy(), at: m}
}

// restoreCheckpoint goes back to the checkpoint and replays the txs kept
// between it and upto (where the failed bundle started), which succeed again
// because they run on the same state in the same order. The checkpoint is
// used up.
func (b *BlockBuilder) restoreCheckpoint(upto int) error {
	cp := b.checkpoint
	b.checkpoint = nil
	kept := append(types.Transactions(nil), b.txs[cp.at.n:upto]...)
	keptStatus := make([]uint64, len(kept))
	for i := range kept {
		keptStatus[i] = b.receipts[cp.at.n+i].Status
	}
	b.state = cp.state
	b.evm.SetStateDB(cp.state)
	b.gp.Set(cp.at.gp)
	b.truncate(cp.at)
	for i, tx := range kept {
		r, err := b.apply(tx)
		if err != nil {
			return fmt.Errorf("replaying tx %s: %w", tx.Hash().Hex(), err)
		}
		if r.Status != keptStatus[i] {
			return fmt.Errorf("replaying tx %s: status %d, was %d", tx.Hash().Hex(), r.Status, keptStatus[i])
		}
	}
	return nil
}

// logCount is how many logs the first n receipts carry.
func (b *BlockBuilder) logCount(n int) int {
	c := 0
	for _, r := range b.receipts[:n] {
		c += len(r.Logs)
	}
	return c
}

// ApplyTx applies one tx; on error the block is unchanged.
func (b *BlockBuilder) ApplyTx(tx *types.Transaction) (*types.Receipt, error) {
	if b.done {
		return nil, ErrBuilderFinished
	}
	snap, gs := b.state.Snapshot(), b.gp.Snapshot()
	r, err := b.apply(tx)
	if err != nil {
		b.state.RevertToSnapshot(snap)
		b.gp.Set(gs)
		return nil, err
	}
	return r, nil
}

// apply runs tx on the current state and records it. Blob txs are refused:
// the local builder carries no sidecars.
func (b *BlockBuilder) apply(tx *types.Transaction) (*types.Receipt, error) {
	if tx.Type() == types.BlobTxType {
		return nil, fmt.Errorf("%w: tx %s", ErrBlobTx, tx.Hash())
	}
	if b.gp.Available(false) < tx.Gas() {
		return nil, fmt.Errorf("%w: tx gas limit %d, %d gas left", ErrBlockFull, tx.Gas(), b.gp.Available(false))
	}
	if b.size+tx.Size() > gparams.MaxBlockSize-100_000 { // keep room for the header and withdrawals
		return nil, fmt.Errorf("%w: block size cap", ErrBlockFull)
	}
	b.state.SetTxContext(tx.Hash(), len(b.txs), uint32(len(b.txs)+1))
	r, txBAL, err := core.ApplyTransaction(b.ctx, b.evm, b.gp, b.state, b.header, tx)
	if err != nil {
		return nil, err
	}
	if b.acc != nil {
		b.acc.Merge(txBAL)
	}
	b.txs = append(b.txs, tx)
	b.receipts = append(b.receipts, r)
	b.logs = append(b.logs, r.Logs...)
	b.size += tx.Size()
	return r, nil
}

// FillFromPool adds the tx pool's pending txs by effective tip, nonce order
// per sender, until the block is full; txs that fail are skipped (with the
// rest of their sender's txs, as geth's miner does). skip lists txs already
// in the block. It returns how many txs were added.
func (b *BlockBuilder) FillFromPool(skip map[common.Hash]bool) (int, error) {
	if b.c.eth == nil {
		return 0, ErrNoTxPool
	}
	filter := txpool.PendingFilter{GasLimitCap: gparams.MaxTxGas}
	if b.header.BaseFee != nil {
		filter.BaseFee = uint256.MustFromBig(b.header.BaseFee)
	}
	pool := b.c.eth.TxPool()
	pending, _ := pool.Pending(filter)
	if _, queued := pool.Stats(); queued > 0 {
		addStranded(pool, pending, filter.BaseFee)
	}
	return b.fill(pending, skip), nil
}

// queuedSource is the part of geth's tx pool that addStranded reads.
type queuedSource interface {
	ContentFrom(addr common.Address) (pending, queued []*types.Transaction)
}

// addStranded appends to each sender's pending list the queued txs that
// continue it without a nonce gap. geth's legacy pool can leave such a tx
// queued until the next block when a head reset and the tx's own promotion
// run in one reorg: the reset rebuilds the pending nonces from the chain
// state, behind the sender's unmined pending txs, before it promotes the
// queue, so the tx looks gapped (go-ethereum issue 35649). A block built
// then would miss a tx sent right after its predecessor: on a dev chain, the
// second of two calls sent in one slot lands a slot late. Txs below baseFee
// end the run, as the pending filter would have.
func addStranded(pool queuedSource, pending map[common.Address][]*txpool.LazyTransaction, baseFee *uint256.Int) {
	for from, list := range pending {
		if len(list) == 0 {
			continue
		}
		last := list[len(list)-1]
		if last.Tx == nil || last.BlobGas > 0 {
			continue // blob pool: no legacy queue behind it
		}
		next := last.Tx.Nonce() + 1
		_, queued := pool.ContentFrom(from)
		for _, tx := range queued {
			if tx.Nonce() < next {
				continue
			}
			if tx.Nonce() > next || tx.Type() == types.BlobTxType || (baseFee != nil && tx.GasFeeCapIntCmp(baseFee.ToBig()) < 0) {
				break
			}
			list = append(list, &txpool.LazyTransaction{
				Hash: tx.Hash(), Tx: tx, Time: tx.Time(), Gas: tx.Gas(),
				GasFeeCap: uint256.MustFromBig(tx.GasFeeCap()), GasTipCap: uint256.MustFromBig(tx.GasTipCap()),
			})
			next++
		}
		pending[from] = list
	}
}

// FillTxs is FillFromPool over a given set of txs per sender (each list in
// nonce order), for callers that hold their own txs.
func (b *BlockBuilder) FillTxs(txs map[common.Address]types.Transactions, skip map[common.Hash]bool) int {
	pending := make(map[common.Address][]*txpool.LazyTransaction, len(txs))
	for from, list := range txs {
		for _, tx := range list {
			pending[from] = append(pending[from], &txpool.LazyTransaction{
				Hash: tx.Hash(), Tx: tx, GasFeeCap: uint256.MustFromBig(tx.GasFeeCap()), GasTipCap: uint256.MustFromBig(tx.GasTipCap()), Gas: tx.Gas(),
			})
		}
	}
	return b.fill(pending, skip)
}

func (b *BlockBuilder) fill(pending map[common.Address][]*txpool.LazyTransaction, skip map[common.Hash]bool) int {
	if b.done {
		return 0
	}
	for from, list := range pending {
		// Drop blob txs and whatever follows them from one sender.
		for i, ltx := range list {
			if ltx.BlobGas > 0 {
				pending[from] = list[:i]
				break
			}
		}
	}
	order := txorder.NewTransactionsByPriceAndNonce(b.signer, pending, b.header.BaseFee)
	added := 0
	for b.gp.Available(false) >= gparams.TxGas {
		ltx, _ := order.Peek()
		if ltx == nil {
			break
		}
		if skip[ltx.Hash] {
			order.Shift()
			continue
		}
		if b.gp.Available(false) < ltx.Gas {
			order.Pop()
			continue
		}
		tx := ltx.Resolve()
		if tx == nil {
			order.Pop()
			continue
		}
		_, err := b.ApplyTx(tx)
		switch {
		case err == nil:
			added++
			order.Shift()
		case errors.Is(err, core.ErrNonceTooLow):
			order.Shift()
		case errors.Is(err, ErrBlockFull) && b.size+tx.Size() > gparams.MaxBlockSize-100_000:
			return added
		default:
			log.Trace("Local builder skips account", "tx", tx.Hash(), "err", err)
			order.Pop()
		}
	}
	return added
}

// BuiltBlock is a finished block with its engine API form.
type BuiltBlock struct {
	Block    *types.Block
	Envelope *engine.ExecutionPayloadEnvelope
	Fees     *big.Int // what the fee recipient gained from the txs
	Requests [][]byte
}

// Finish runs the post-execution steps (withdrawals, EIP-7685 requests),
// computes the roots and returns the block. The builder cannot be used
// afterwards.
func (b *BlockBuilder) Finish() (*BuiltBlock, error) {
	if b.done {
		return nil, ErrBuilderFinished
	}
	b.done = true
	cfg := b.c.Config()
	h := b.header
	h.GasUsed = b.gp.Used()
	fees := new(uint256.Int)
	if end := b.state.GetBalance(h.Coinbase); end.Cmp(b.startBal) > 0 {
		fees.Sub(end, b.startBal)
	}
	reqs, post, err := core.PostExecution(b.ctx, cfg, h.Number, h.Time, b.logs, b.attrs.Withdrawals, b.evm, uint32(len(b.txs)+1))
	if err != nil {
		return nil, fmt.Errorf("post-execution: %w", err)
	}
	if b.acc != nil {
		b.acc.Merge(post)
	}
	if reqs != nil {
		rh := types.CalcRequestsHash(reqs)
		h.RequestsHash = &rh
	}
	body := &types.Body{Transactions: b.txs, Withdrawals: b.attrs.Withdrawals}
	b.c.bc.Engine().Finalize(b.c.bc, h, b.state, body)
	block := core.AssembleBlock(b.c.bc, h, b.state, body, b.receipts, b.acc)
	env := engine.BlockToExecutableData(block, fees.ToBig(), nil, reqs)
	return &BuiltBlock{Block: block, Envelope: env, Fees: fees.ToBig(), Requests: reqs}, nil
}

// NewInMemory returns a bare chain on genesis g in an in-memory database,
// with no tx pool: for tests and tools that build and import blocks without
// a node. Call the returned stop function when done.
func NewInMemory(g *core.Genesis) (*Chain, func(), error) {
	bc, err := core.NewBlockChain(rawdb.NewMemoryDatabase(), g, beacon.New(ethash.NewFaker()), core.DefaultConfig())
	if err != nil {
		return nil, nil, err
	}
	return FromBlockChain(bc), bc.Stop, nil
}

// ImportBuilt checks a built block the way the engine API's newPayload does
// (the payload converts back to a block with the same hash, then full
// verification and execution) and makes it the head. Dev tools and tests
// use it where no consensus driver runs.
func (c *Chain) ImportBuilt(built *BuiltBlock) error {
	var hashes []common.Hash
	for _, tx := range built.Block.Transactions() {
		hashes = append(hashes, tx.BlobHashes()...)
	}
	b, err := engine.ExecutableDataToBlock(*built.Envelope.ExecutionPayload, hashes, built.Block.BeaconRoot(), built.Envelope.Requests)
	if err != nil {
		return fmt.Errorf("invalid payload: %w", err)
	}
	if _, err := c.bc.InsertChain(types.Blocks{b}); err != nil {
		return fmt.Errorf("invalid block %d %s: %w", b.NumberU64(), b.Hash().Hex(), err)
	}
	return nil
}

// ErrNoKeptState means a verified block holds no state to continue from
// (verified without KeepState, or an Amsterdam block).
var ErrNoKeptState = errors.New("verified block kept no state to continue from")

// ContinueBlock returns a builder that appends transactions to a verified
// block: its header, transactions, receipts and logs as they are, its gas
// used taken from the pool, on a copy of the state it kept after its last
// transaction (v is not changed and may be continued again). Finish then
// runs the block's withdrawals and request system calls after the appended
// transactions and assembles the block with new roots, gas used and hash.
// The alpha block is not executed again.
func (c *Chain) ContinueBlock(ctx context.Context, v *VerifiedPayload) (*BlockBuilder, error) {
	if v == nil || v.state == nil {
		return nil, ErrNoKeptState
	}
	blk := v.Block
	parent := c.bc.GetHeader(blk.ParentHash(), blk.NumberU64()-1)
	if parent == nil {
		return nil, fmt.Errorf("%w: %s at number %d", ErrUnknownParent, blk.ParentHash().Hex(), blk.NumberU64()-1)
	}
	cfg := c.Config()
	h := types.CopyHeader(blk.Header())
	sdb := v.state.Copy()
	coinbase := h.Coinbase
	evm := vm.NewEVM(core.NewEVMBlockContext(h, c.bc, &coinbase), sdb, cfg, vm.Config{})
	gp := core.NewGasPool(h.GasLimit)
	used := blk.GasUsed()
	if err := gp.CheckGasLegacy(used); err != nil {
		return nil, fmt.Errorf("%w: gas used %d over the limit %d", ErrInvalidBlock, used, h.GasLimit)
	}
	if err := gp.ChargeGasLegacy(0, used); err != nil {
		return nil, err
	}
	ws := blk.Withdrawals()
	if cfg.IsShanghai(h.Number, h.Time) && ws == nil {
		ws = types.Withdrawals{}
	}
	b := &BlockBuilder{
		c: c, ctx: ctx, parent: parent, header: h, state: sdb, evm: evm, gp: gp,
		attrs: BuildAttrs{
			Timestamp: h.Time, FeeRecipient: coinbase, Random: h.MixDigest, Withdrawals: ws,
			BeaconRoot: h.ParentBeaconRoot, GasLimit: h.GasLimit, Extra: h.Extra,
		},
		signer:   types.MakeSigner(cfg, h.Number, h.Time),
		txs:      append(types.Transactions(nil), blk.Transactions()...),
		receipts: append(types.Receipts(nil), v.Receipts...),
		logs:     append([]*types.Log(nil), v.logs...),
		startBal: sdb.GetBalance(coinbase).Clone(),
	}
	for _, tx := range b.txs {
		b.size += tx.Size()
	}
	return b, nil
}

// RecoverSenders recovers the senders of txs on all cores in the
// background, so that applying them later finds the senders cached.
func (b *BlockBuilder) RecoverSenders(txs types.Transactions) {
	core.SenderCacher().Recover(b.signer, txs)
}

// EncodeBlock encodes a built block's block (RLP) for another process to
// rebuild it with DecodeBuilt.
func EncodeBlock(b *BuiltBlock) ([]byte, error) {
	return rlp.EncodeToBytes(b.Block)
}

// DecodeBuilt rebuilds a built block from EncodeBlock's encoding and its
// EIP-7685 requests (nil before Electra): the block and its engine API form
// (no blobs, no fees: what serving the block needs).
func DecodeBuilt(raw []byte, requests [][]byte) (*BuiltBlock, error) {
	block := new(types.Block)
	if err := rlp.DecodeBytes(raw, block); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidBlock, err)
	}
	return &BuiltBlock{Block: block, Envelope: engine.BlockToExecutableData(block, new(big.Int), nil, requests), Fees: new(big.Int), Requests: requests}, nil
}

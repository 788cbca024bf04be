package chain

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto/kzg4844"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/trie"
	"github.com/holiman/uint256"
)

// Errors of builder payload verification (the relay's in-process simulation).
// Each failure wraps one of them; the message around it says what was found
// and what was expected.
var (
	// ErrUnknownParent: the payload's parent is not a block of this chain, or
	// its state is gone.
	ErrUnknownParent = errors.New("parent block not found")
	// ErrGasLimit: the block's gas limit is not what the registered gas limit
	// allows from the parent's (the 1/1024 adjustment rule).
	ErrGasLimit = errors.New("incorrect gas limit set")
	// ErrInvalidBlock: the payload does not form a valid block: bad block
	// hash, versioned hashes, header fields or body.
	ErrInvalidBlock = errors.New("invalid block")
	// ErrExecution: executing the block failed or its post-state (gas used,
	// bloom, receipts, requests, state root) differs from the header.
	ErrExecution = errors.New("block execution failed")
	// ErrPayment: the proposer is not paid what the bid promises.
	ErrPayment = errors.New("could not verify proposer payment")
	// ErrBlobsBundle: the blobs bundle does not match the commitments, or a
	// KZG proof does not verify.
	ErrBlobsBundle = errors.New("invalid blobs bundle")
)

// BuilderPayload is a builder's block as the relay hands it to ValidatePayload.
type BuilderPayload struct {
	Payload *engine.ExecutableData
	// VersionedHashes are the blob versioned hashes the block's blob txs must
	// carry, in order (from the bid's KZG commitments); nil before Deneb.
	VersionedHashes []common.Hash
	// ParentBeaconRoot is the slot's parent beacon block root (Deneb on).
	ParentBeaconRoot *common.Hash
	// Requests are the EIP-7685 execution requests (Electra on), each a type
	// byte followed by the request data; nil before Electra.
	Requests [][]byte
	// RegisteredGasLimit is the proposer's registered gas limit.
	RegisteredGasLimit uint64
	// ProposerFeeRecipient is the address the bid promises to pay.
	ProposerFeeRecipient common.Address
	// Value is the promised payment in wei.
	Value *uint256.Int
	// KeepState keeps the state after the block's last transaction in the
	// result, for a beta block appended to this one (costs one state copy).
	KeepState bool
	// Prefixes, if set, lets execution start from the state after a prefix
	// of transactions shared with a block verified before (same parent and
	// environment), and keeps points of this block for the next.
	Prefixes *PrefixCache
}

// VerifiedPayload is a builder block that passed ValidatePayload. Nothing of
// it is written to the chain database. With BuilderPayload.KeepState it
// holds the state after the block's last transaction (before withdrawals
// and the request system calls), so that a beta block can be appended
// (ContinueBlock) without executing the block twice.
type VerifiedPayload struct {
	Block    *types.Block
	Receipts types.Receipts
	Requests [][]byte
	// PaymentByTx reports that the payment was verified through the block's
	// final transaction rather than by the fee recipient's balance alone.
	PaymentByTx bool
	state       *state.StateDB
	logs        []*types.Log
}

// HasState reports whether the state after the block's transactions was
// kept (KeepState, and a fork before Amsterdam).
func (v *VerifiedPayload) HasState() bool { return v.state != nil }

// ExpectedGasLimit is the gas limit a block on a parent with parentLimit must
// have for a proposer that registered registered: a step of at most
// parentLimit/1024 - 1 towards it (geth's CalcGasLimit).
func ExpectedGasLimit(parentLimit, registered uint64) uint64 {
	return core.CalcGasLimit(parentLimit, registered)
}

// ValidatePayload verifies a builder's block on its parent's state, in
// process: the gas-limit rule against the registration, the payload's block
// hash and versioned hashes, header and body rules, execution with the state
// root, and the proposer payment. The chain database is not touched.
func (c *Chain) ValidatePayload(ctx context.Context, p *BuilderPayload) (*VerifiedPayload, error) {
	d := p.Payload
	if d.Number == 0 {
		return nil, fmt.Errorf("%w: block number 0", ErrInvalidBlock)
	}
	parent := c.bc.GetHeader(d.ParentHash, d.Number-1)
	if parent == nil {
		return nil, fmt.Errorf("%w: %s at number %d", ErrUnknownParent, d.ParentHash.Hex(), d.Number-1)
	}
	if want := ExpectedGasLimit(parent.GasLimit, p.RegisteredGasLimit); d.GasLimit != want {
		return nil, fmt.Errorf("%w: got %d, expected %d (parent %d, registered %d)", ErrGasLimit, d.GasLimit, want, parent.GasLimit, p.RegisteredGasLimit)
	}
	block, err := c.blockFromPayload(p)
	if err != nil {
		return nil, err
	}
	if err := c.bc.Engine().VerifyHeader(c.bc, block.Header()); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrInvalidBlock, err)
	}
	if err := c.validateBody(block); err != nil {
		return nil, fmt.Errorf("%w: body: %v", ErrInvalidBlock, err)
	}
	amsterdam := c.Config().IsAmsterdam(block.Number(), block.Time())
	var run *prefixRun
	if p.Prefixes != nil && !amsterdam {
		run = p.Prefixes.begin(block)
	}
	// Recover senders on all cores while the state is opened: those of the
	// transactions to execute (not of a prefix whose state is kept) that
	// no earlier block had.
	txs := block.Transactions()
	if run != nil {
		from := 0
		if run.start != nil {
			from = run.start.n
		}
		txs = run.unknownSenders(txs, from)
	}
	core.SenderCacher().Recover(types.MakeSigner(c.Config(), block.Number(), block.Time()), txs)
	sdb, err := c.bc.StateAt(parent.Root, parent.Number, parent.Time)
	if err == nil && run != nil {
		sdb, err = run.cache.parentState(parent.Root, sdb)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: state of %s: %v", ErrUnknownParent, parent.Hash().Hex(), err)
	}
	before := sdb.GetBalance(p.ProposerFeeRecipient).Clone()
	var (
		res  *core.ProcessResult
		kept *state.StateDB
	)
	if amsterdam {
		// Block access lists: geth's processor (possibly parallel) is the
		// only one that builds them; no state is kept for a beta block.
		res, err = c.bc.Processor().Process(ctx, block, sdb, c.bc.JumpDestCache(), c.bc.PrecompileCache(), vm.Config{}, nil)
	} else {
		if run != nil && run.start != nil {
			h := block.Header()
			sdb, run.startHashed = run.start.stateCopy(c.Config().Rules(h.Number, h.Difficulty.Sign() == 0, h.Time), run.end == nil)
		}
		res, kept, err = c.process(ctx, block, parent, sdb, p.KeepState, run)
	}
	hashed := sdb
	if err == nil && amsterdam {
		err = c.bc.Validator().ValidateState(block, sdb, res, false)
	} else if err == nil {
		h := block.Header()
		rules := c.Config().Rules(h.Number, h.Difficulty.Sign() == 0, h.Time)
		hashed = run.hashIn(sdb, rules)
		err = c.validateState(block, hashed, res, rules)
	}
	if err != nil {
		rehashed := run != nil && run.diff != nil
		run.abort()
		if run != nil && (run.replayed > 0 || rehashed) {
			// A replayed transaction or a state root computed in another
			// block's final state must never be why a block is refused:
			// verify it again, executing and hashing everything.
			run.cache.redo()
			full := *p
			full.Prefixes = nil
			return c.ValidatePayload(ctx, &full)
		}
		return nil, fmt.Errorf("%w: %v", ErrExecution, err)
	}
	byTx, err := c.checkPayment(block, res.Receipts, before, sdb.GetBalance(p.ProposerFeeRecipient), p)
	if err != nil {
		run.abort()
		return nil, err
	}
	if run != nil {
		run.finish(hashed)
	}
	v := &VerifiedPayload{Block: block, Receipts: res.Receipts, Requests: res.Requests, PaymentByTx: byTx, state: kept}
	if kept != nil {
		v.logs = res.Logs
	}
	return v, nil
}

// process is geth's sequential block processing (StateProcessor.Process
// without tracer, witness or DAO fork, which a builder block never needs),
// from the same exported pieces: pre-execution system calls, every tx
// through ApplyTransactionWithEVM, then withdrawals and the EIP-7685 system
// calls, then the engine's Finalize. With keep it also returns a copy of the
// state after the last tx and before the post-execution steps: the state a
// beta block continues from, since withdrawals and the request queues are
// processed after the block's last tx, beta's included. With a prefix run
// whose start is set, sdb is a copy of the start point's state and
// execution begins after its transactions; points are recorded as the
// run asks.
func (c *Chain) process(ctx context.Context, block *types.Block, parent *types.Header, sdb *state.StateDB, keep bool, run *prefixRun) (*core.ProcessResult, *state.StateDB, error) {
	// With a prefix run the EVM sees the state through a recorder, so that
	// the next blocks can replay this one's transactions (replay.go).
	var (
		rs    *recordingState
		evmDB vm.StateDB = sdb
	)
	if run != nil {
		rs = newRecordingState(sdb, block.Coinbase())
		rs.writes = run.current()
		evmDB = rs
	}
	var (
		cfg     = c.Config()
		header  = block.Header()
		number  = block.Number()
		hash    = block.Hash()
		txs     = block.Transactions()
		evm     = vm.NewEVM(core.NewEVMBlockContext(header, c.bc, nil), evmDB, cfg, vm.Config{})
		signer  = types.MakeSigner(cfg, header.Number, header.Time)
		gp      = core.NewGasPool(block.GasLimit())
		res     = &core.ProcessResult{Receipts: make(types.Receipts, 0, len(txs))}
		kept    *state.StateDB
		evmDone = false
	)
	defer func() {
		if !evmDone {
			evm.Release()
		}
	}()
	evm.SetJumpDestCache(c.bc.JumpDestCache())
	evm.SetPrecompileCache(c.bc.PrecompileCache())
	from := 0
	if run != nil && run.start != nil {
		from = run.start.n
		gp.Set(run.start.gas)
		res.Receipts, res.Logs = run.start.receiptsFor(hash, len(txs))
	} else {
		core.PreExecution(ctx, block.BeaconRoot(), parent, cfg, evm, number, block.Time())
	}
	for i := from; i < len(txs); i++ {
		tx := txs[i]
		var r *types.Receipt
		if rec := run.lookup(i); rec != nil {
			sdb.SetTxContext(tx.Hash(), i, uint32(i+1))
			if r = replay(rec, tx, sdb, evm, gp, header.Coinbase, number.Uint64(), hash, header.Time); r != nil {
				run.recs[i] = rec
				run.replayed++
				run.current().replayed(rec, header.Coinbase)
			}
		}
		if r == nil {
			msg, err := core.TransactionToMessage(tx, run.signer(i, signer), header.BaseFee)
			if err != nil {
				return nil, nil, fmt.Errorf("could not apply tx %d [%v]: %w", i, tx.Hash().Hex(), err)
			}
			run.learn(i, msg.From)
			sdb.SetTxContext(tx.Hash(), i, uint32(i+1))
			if rs != nil {
				rs.begin()
			}
			r, _, err = core.ApplyTransactionWithEVM(ctx, msg, gp, sdb, number, hash, header.Time, tx, evm)
			if err != nil {
				return nil, nil, fmt.Errorf("could not apply tx %d [%v]: %w", i, tx.Hash().Hex(), err)
			}
			if rs != nil {
				run.recs[i] = rs.end(tx, r)
			}
		}
		res.Receipts = append(res.Receipts, r)
		res.Logs = append(res.Logs, r.Logs...)
		if run != nil && run.due(i+1, len(txs)) {
			run.record(i+1, sdb, gp, res.Receipts)
			rs.writes = run.current()
		}
	}
	if keep {
		kept = sdb.Copy()
	}
	reqs, _, err := core.PostExecution(ctx, cfg, number, block.Time(), res.Logs, block.Withdrawals(), evm, uint32(len(txs)+1))
	if err != nil {
		return nil, nil, err
	}
	c.bc.Engine().Finalize(c.bc, header, evmDB, block.Body())
	evm.Release()
	evmDone = true
	res.Requests, res.GasUsed = reqs, gp.Used()
	return res, kept, nil
}

// validateState is geth's ValidateState before Amsterdam, with the receipt
// root computed on another core while the state root is: geth's validator
// checks the gas used and the bloom (its stateless mode stops there), then
// the receipt root, the requests hash and the state root are checked here
// as it checks them, in its order.
func (c *Chain) validateState(block *types.Block, sdb *state.StateDB, res *core.ProcessResult, rules gparams.Rules) error {
	if err := c.bc.Validator().ValidateState(block, sdb, res, true); err != nil {
		return err
	}
	receiptRoot := make(chan common.Hash, 1)
	go func() { receiptRoot <- types.DeriveSha(res.Receipts, trie.NewStackTrie(nil)) }()
	root := sdb.IntermediateRoot(rules)
	header := block.Header()
	if local := <-receiptRoot; local != header.ReceiptHash {
		return fmt.Errorf("invalid receipt root hash (remote: %x local: %x)", header.ReceiptHash, local)
	}
	if header.RequestsHash != nil {
		if local := types.CalcRequestsHash(res.Requests); local != *header.RequestsHash {
			return fmt.Errorf("invalid requests hash (remote: %x local: %x)", *header.RequestsHash, local)
		}
	} else if res.Requests != nil {
		return errors.New("block has requests before prague fork")
	}
	if header.Root != root {
		return fmt.Errorf("invalid merkle root (remote: %x local: %x) dberr: %w", header.Root, root, sdb.Error())
	}
	return nil
}

// blockFromPayload converts the payload to a block, checking its hash and
// the versioned hashes of its blob txs.
func (c *Chain) blockFromPayload(p *BuilderPayload) (*types.Block, error) {
	hashes := p.VersionedHashes
	if c.Config().IsCancun(new(big.Int).SetUint64(p.Payload.Number), p.Payload.Timestamp) && hashes == nil {
		hashes = []common.Hash{}
	}
	block, err := engine.ExecutableDataToBlock(*p.Payload, hashes, p.ParentBeaconRoot, p.Requests)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidBlock, err)
	}
	return block, nil
}

// validateBody is geth's ValidateBody for a block just built from a
// payload: the transactions and withdrawals roots hold by construction
// (ExecutableDataToBlock derived them from the lists), so only the size cap
// and the blob count are left to check. The block's RLP size is computed only
// when the transactions' sizes come near the cap. From Amsterdam on (access
// lists) it defers to geth's full check.
func (c *Chain) validateBody(block *types.Block) error {
	cfg := c.Config()
	if cfg.IsAmsterdam(block.Number(), block.Time()) {
		return c.bc.Validator().ValidateBody(block)
	}
	var size uint64
	blobs := 0
	for _, tx := range block.Transactions() {
		size += tx.Size()
		blobs += len(tx.BlobHashes())
	}
	if cfg.IsOsaka(block.Number(), block.Time()) && size+100_000 > gparams.MaxBlockSize && block.Size() > gparams.MaxBlockSize {
		return fmt.Errorf("block of %d bytes is over the %d byte cap", block.Size(), gparams.MaxBlockSize)
	}
	if h := block.Header(); h.BlobGasUsed != nil {
		if want := *h.BlobGasUsed / gparams.BlobTxBlobGasPerBlob; uint64(blobs) != want {
			return fmt.Errorf("blob gas used mismatch (header %d, calculated %d)", *h.BlobGasUsed, uint64(blobs)*gparams.BlobTxBlobGasPerBlob)
		}
	} else if blobs > 0 {
		return errors.New("data blobs present in block body")
	}
	return nil
}

// checkPayment verifies the proposer payment: the fee recipient's balance
// grew by at least the value (withdrawals to it not counted), or else the
// block's final transaction pays exactly the value to it, succeeds, carries
// no data and pays no tip. It reports whether the final transaction was
// needed.
func (c *Chain) checkPayment(block *types.Block, receipts types.Receipts, before, after *uint256.Int, p *BuilderPayload) (bool, error) {
	credited := before.Clone()
	for _, w := range block.Withdrawals() {
		if w.Address == p.ProposerFeeRecipient {
			credited.Add(credited, new(uint256.Int).Mul(uint256.NewInt(w.Amount), uint256.NewInt(gparams.GWei)))
		}
	}
	if after.Cmp(credited) >= 0 && new(uint256.Int).Sub(after, credited).Cmp(p.Value) >= 0 {
		return false, nil
	}
	txs := block.Transactions()
	if len(txs) == 0 || len(receipts) != len(txs) {
		return false, fmt.Errorf("%w: no proposer payment receipt", ErrPayment)
	}
	last, receipt := txs[len(txs)-1], receipts[len(txs)-1]
	if receipt.Status != types.ReceiptStatusSuccessful {
		return false, fmt.Errorf("%w: proposer payment not successful", ErrPayment)
	}
	if last.To() == nil || *last.To() != p.ProposerFeeRecipient {
		return false, fmt.Errorf("%w: payment tx not to the proposers fee recipient (%s)", ErrPayment, p.ProposerFeeRecipient.Hex())
	}
	if v := uint256.MustFromBig(last.Value()); v.Cmp(p.Value) != 0 {
		return false, fmt.Errorf("%w: inaccurate payment %s, expected %s", ErrPayment, v.Dec(), p.Value.Dec())
	}
	if len(last.Data()) != 0 {
		return false, fmt.Errorf("%w: malformed proposer payment, contains calldata", ErrPayment)
	}
	if tip := last.EffectiveGasTipValue(block.BaseFee()); tip.Sign() != 0 {
		return false, fmt.Errorf("%w: malformed proposer payment, effective tip %s, expected 0", ErrPayment, tip)
	}
	return true, nil
}

// VersionedHashes returns the EIP-4844 versioned hashes of KZG commitments.
func VersionedHashes[C ~[48]byte](commitments []C) []common.Hash {
	out := make([]common.Hash, len(commitments))
	h := sha256.New()
	for i := range commitments {
		c := kzg4844.Commitment(commitments[i])
		out[i] = kzg4844.CalcBlobHashV1(h, &c)
	}
	return out
}

// VerifyBlobs checks a blobs bundle: one blob per commitment, and the KZG
// proofs: one blob proof per blob (Deneb, Electra) or CellsPerBlob cell
// proofs per blob (cellProofs, Fulu on).
func VerifyBlobs[C, P ~[48]byte, B ~[131072]byte](commitments []C, proofs []P, blobs []B, cellProofs bool) error {
	if len(blobs) != len(commitments) {
		return fmt.Errorf("%w: %d blobs for %d commitments", ErrBlobsBundle, len(blobs), len(commitments))
	}
	perBlob := 1
	if cellProofs {
		perBlob = kzg4844.CellProofsPerBlob
	}
	if len(proofs) != perBlob*len(commitments) {
		return fmt.Errorf("%w: %d proofs for %d blobs, expected %d per blob", ErrBlobsBundle, len(proofs), len(blobs), perBlob)
	}
	if len(blobs) == 0 {
		return nil
	}
	if !cellProofs {
		for i := range blobs {
			blob := kzg4844.Blob(blobs[i])
			if err := kzg4844.VerifyBlobProof(&blob, kzg4844.Commitment(commitments[i]), kzg4844.Proof(proofs[i])); err != nil {
				return fmt.Errorf("%w: blob %d: %v", ErrBlobsBundle, i, err)
			}
		}
		return nil
	}
	bs := make([]kzg4844.Blob, len(blobs))
	cs := make([]kzg4844.Commitment, len(commitments))
	ps := make([]kzg4844.Proof, len(proofs))
	for i := range blobs {
		bs[i] = kzg4844.Blob(blobs[i])
		cs[i] = kzg4844.Commitment(commitments[i])
	}
	for i := range proofs {
		ps[i] = kzg4844.Proof(proofs[i])
	}
	if err := kzg4844.VerifyCellProofs(bs, cs, ps); err != nil {
		return fmt.Errorf("%w: cell proofs: %v", ErrBlobsBundle, err)
	}
	return nil
}

// FeeRecipientGain is what the block's fee recipient has gained so far in
// the block being built (tips and direct payments): what a builder can bid.
func (b *BlockBuilder) FeeRecipientGain() *uint256.Int {
	end := b.state.GetBalance(b.header.Coinbase)
	if end.Cmp(b.startBal) <= 0 {
		return new(uint256.Int)
	}
	return new(uint256.Int).Sub(end, b.startBal)
}

// Nonce is addr's nonce on the block's current state.
func (b *BlockBuilder) Nonce(addr common.Address) uint64 { return b.state.GetNonce(addr) }

// Signer is the tx signer of the block being built.
func (b *BlockBuilder) Signer() types.Signer { return b.signer }

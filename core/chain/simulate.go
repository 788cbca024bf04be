package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"runtime"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// ErrSimulationCancelled is returned once the context of a simulation is
// done. The transaction that was running is rolled back and the simulation
// refuses further work: a cancelled EVM stays cancelled and would make later
// calls look successful.
var ErrSimulationCancelled = errors.New("simulation cancelled")

// ErrTxInvalid wraps the reason a transaction could not be included in a
// block at all (nonce, funds, fee cap below base fee, gas limit, intrinsic
// gas...). geth's own sentinel (core.ErrNonceTooLow etc.) is wrapped too.
var ErrTxInvalid = errors.New("invalid transaction")

// MaxTxGas is the protocol's per-transaction gas cap (EIP-7825).
const MaxTxGas = gparams.MaxTxGas

// SimHeader describes the block a simulation pretends to build on top of its
// parent. Zero fields take the defaults a real next block would have.
type SimHeader struct {
	// Number of the simulated block; 0 means parent+1.
	Number uint64
	// Coinbase receives the fees; default the parent's coinbase.
	Coinbase *common.Address
	// Timestamp in seconds; default parent time + 12.
	Timestamp *uint64
	// GasLimit of the block, also the gas pool of the simulation; default
	// the parent's gas limit.
	GasLimit *uint64
	// Difficulty as the DIFFICULTY opcode would see it. Post-merge rules
	// (PREVRANDAO, PUSH0, blobs...) stay on whatever it is.
	Difficulty *big.Int
	// BaseFee per gas; default computed from the parent (EIP-1559).
	BaseFee *big.Int
	// NoBaseFee lets messages with zero fee fields run, as eth_call does.
	// Messages that set fees still pay them.
	NoBaseFee bool
}

// Simulation executes transactions and calls, one after the other, on a
// private copy of a block's post-state inside a simulated next block. The
// block's system calls (EIP-4788 beacon root, EIP-2935 parent hash) run
// first, as they would in a real block. A Simulation is not safe for
// concurrent use; nothing it does reaches the database.
type Simulation struct {
	parent  *types.Header
	header  *types.Header
	sdb     *state.StateDB
	evm     *vm.EVM
	gp      *core.GasPool
	signer  types.Signer
	baseFee *uint256.Int // nil before London
	ctx     context.Context
	stop    func() bool
	index   int
	dead    error
}

// SimMessage is a transaction or call prepared for a Simulation: sender
// recovered, fee fields resolved.
type SimMessage struct {
	msg  *core.Message
	hash common.Hash
}

// From is the sender.
func (m *SimMessage) From() common.Address { return m.msg.From }

// To is the recipient, nil for a contract creation.
func (m *SimMessage) To() *common.Address { return m.msg.To }

// Gas is the message's own gas limit.
func (m *SimMessage) Gas() uint64 { return m.msg.GasLimit }

// Hash is the transaction hash (zero for a call).
func (m *SimMessage) Hash() common.Hash { return m.hash }

// SimCall is an unsigned call object (eth_call style). Nil fee fields mean
// zero; a nil Nonce means the sender's current nonce; Gas 0 means the
// per-transaction cap.
type SimCall struct {
	From                 common.Address
	To                   *common.Address
	Nonce                *uint64
	Gas                  uint64
	GasPrice             *big.Int
	MaxFeePerGas         *big.Int
	MaxPriorityFeePerGas *big.Int
	Value                *big.Int
	Data                 []byte
	AccessList           types.AccessList
}

// TxOutcome is what executing one message did.
type TxOutcome struct {
	// GasUsed is the gas charged, after refunds.
	GasUsed uint64
	// MaxUsedGas is the peak gas consumption before refunds; a gas limit
	// below it always fails.
	MaxUsedGas uint64
	// Tip is the effective priority fee per gas paid to the coinbase.
	Tip uint256.Int
	// ReturnData is the call's return data, or the revert data.
	ReturnData []byte
	// Err is the EVM failure (nil on success): out of gas, invalid opcode,
	// vm.ErrExecutionReverted...
	Err error
	// Reverted reports that Err is a REVERT; ReturnData is its payload.
	Reverted bool
}

// NewSimulation opens the post-state of parent and prepares a simulated
// block on top of it. The context bounds the whole simulation: when it is
// done the running transaction is stopped and every later call returns
// ErrSimulationCancelled. Call Close when finished.
func (c *Chain) NewSimulation(ctx context.Context, parent *types.Header, sh SimHeader) (*Simulation, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSimulationCancelled, context.Cause(ctx))
	}
	cfg := c.bc.Config()
	parentHash := parent.Hash() // not cached by geth: hash once
	header := simulatedHeader(cfg, parent, parentHash, sh)
	sdb, err := c.stateAfter(parent)
	if err != nil {
		return nil, err
	}
	coinbase := header.Coinbase
	bctx := core.NewEVMBlockContext(header, c.bc, &coinbase)
	if sh.Difficulty != nil {
		// Only the opcode's view: a header difficulty would clear Random and
		// with it every post-merge rule.
		bctx.Difficulty = new(big.Int).Set(sh.Difficulty)
	}
	evm := vm.NewEVM(bctx, sdb, cfg, vm.Config{NoBaseFee: sh.NoBaseFee})
	evm.SetJumpDestCache(c.bc.JumpDestCache())
	evm.SetPrecompileCache(c.bc.PrecompileCache())
	core.PreExecution(ctx, header.ParentBeaconRoot, parent, cfg, evm, header.Number, header.Time)
	sdb.Finalise(evm.GetRules())

	s := &Simulation{
		parent: parent,
		header: header,
		sdb:    sdb,
		evm:    evm,
		gp:     core.NewGasPool(header.GasLimit),
		signer: types.MakeSigner(cfg, header.Number, header.Time),
		ctx:    ctx,
	}
	if header.BaseFee != nil {
		s.baseFee = uint256.MustFromBig(header.BaseFee)
	}
	s.stop = context.AfterFunc(ctx, evm.Cancel)
	return s, nil
}

// simulatedHeader fills in the header of the next block with overrides.
func simulatedHeader(cfg *gparams.ChainConfig, parent *types.Header, parentHash common.Hash, sh SimHeader) *types.Header {
	h := &types.Header{
		ParentHash: parentHash,
		Number:     new(big.Int).Add(parent.Number, common.Big1),
		Time:       parent.Time + 12,
		GasLimit:   parent.GasLimit,
		Coinbase:   parent.Coinbase,
		Difficulty: new(big.Int),
		MixDigest:  parent.MixDigest,
	}
	if sh.Number != 0 {
		h.Number = new(big.Int).SetUint64(sh.Number)
	}
	if sh.Timestamp != nil {
		h.Time = *sh.Timestamp
	}
	if sh.GasLimit != nil {
		h.GasLimit = *sh.GasLimit
	}
	if sh.Coinbase != nil {
		h.Coinbase = *sh.Coinbase
	}
	if cfg.IsLondon(h.Number) {
		h.BaseFee = eip1559.CalcBaseFee(cfg, parent)
	}
	if sh.BaseFee != nil {
		h.BaseFee = new(big.Int).Set(sh.BaseFee)
	}
	if cfg.IsCancun(h.Number, h.Time) {
		excess := eip4844.CalcExcessBlobGas(cfg, parent, h.Time)
		h.ExcessBlobGas, h.BlobGasUsed = &excess, new(uint64)
		// The next beacon root is unknown before the slot; use zero, as
		// geth's eth_simulateV1 does.
		h.ParentBeaconRoot = new(common.Hash)
	}
	return h
}

// Close stops watching the context and releases the EVM's memory.
func (s *Simulation) Close() {
	s.stop()
	s.evm.Release()
}

// Header returns a copy of the simulated block's header.
func (s *Simulation) Header() *types.Header { return types.CopyHeader(s.header) }

// Parent returns the header whose post-state the simulation started from.
func (s *Simulation) Parent() *types.Header { return s.parent }

// ParentHash is the hash of Parent.
func (s *Simulation) ParentHash() common.Hash { return s.header.ParentHash }

// Coinbase is the simulated block's fee recipient.
func (s *Simulation) Coinbase() common.Address { return s.header.Coinbase }

// Balance returns addr's balance in the simulation's current state.
func (s *Simulation) Balance(addr common.Address) uint256.Int {
	return *s.sdb.GetBalance(addr)
}

// Nonce returns addr's nonce in the simulation's current state.
func (s *Simulation) Nonce(addr common.Address) uint64 { return s.sdb.GetNonce(addr) }

// GasLeft is the block gas still available to the simulation.
func (s *Simulation) GasLeft() uint64 { return s.gp.Available(false) }

// TxMessage prepares a signed transaction: recovers the sender and checks
// the chain id.
func (s *Simulation) TxMessage(tx *types.Transaction) (*SimMessage, error) {
	msg, err := core.TransactionToMessage(tx, s.signer, s.header.BaseFee)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTxInvalid, err)
	}
	return &SimMessage{msg: msg, hash: tx.Hash()}, nil
}

// SenderCache remembers transaction senders by transaction hash. The hash
// commits to the signature and the chain id, so a hit is as good as an
// ecrecover, which is most of the cost of simulating a simple tx; searchers
// simulate the same transactions again and again. Safe for concurrent use.
type SenderCache struct {
	c *lru.Cache[common.Hash, common.Address]
}

// NewSenderCache returns a cache of at most size senders.
func NewSenderCache(size int) *SenderCache {
	return &SenderCache{c: lru.NewCache[common.Hash, common.Address](size)}
}

// minParallelRecover is the number of unknown senders from which recovery
// is spread over the CPUs.
const minParallelRecover = 4

// TxMessages prepares signed transactions in order, like TxMessage, with
// the senders taken from cache (nil for none) or recovered in parallel. On
// failure it returns the index of the first bad transaction.
func (s *Simulation) TxMessages(txs []*types.Transaction, cache *SenderCache) ([]*SimMessage, int, error) {
	known := make([]*common.Address, len(txs))
	var missing []int
	for i, tx := range txs {
		if cache != nil {
			if from, ok := cache.c.Get(tx.Hash()); ok {
				known[i] = &from
				continue
			}
		}
		missing = append(missing, i)
	}
	if len(missing) >= minParallelRecover {
		// types.Sender caches the result inside the tx, so the conversion
		// below finds it; failures are reported there, in order.
		workers := min(runtime.GOMAXPROCS(0), len(missing))
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := w; j < len(missing); j += workers {
					types.Sender(s.signer, txs[missing[j]])
				}
			}()
		}
		wg.Wait()
	}
	msgs := make([]*SimMessage, len(txs))
	backing := make([]SimMessage, len(txs))
	for i, tx := range txs {
		signer := s.signer
		if known[i] != nil {
			signer = knownSender{Signer: s.signer, from: *known[i]}
		}
		msg, err := core.TransactionToMessage(tx, signer, s.header.BaseFee)
		if err != nil {
			return nil, i, fmt.Errorf("%w: %w", ErrTxInvalid, err)
		}
		if cache != nil && known[i] == nil {
			cache.c.Add(tx.Hash(), msg.From)
		}
		backing[i] = SimMessage{msg: msg, hash: tx.Hash()}
		msgs[i] = &backing[i]
	}
	return msgs, -1, nil
}

// knownSender is a signer whose sender is already known (from the cache).
type knownSender struct {
	types.Signer
	from common.Address
}

func (k knownSender) Sender(*types.Transaction) (common.Address, error) { return k.from, nil }

// CallMessage prepares an unsigned call. Fee fields follow eth_call: a
// legacy GasPrice or 1559 caps, zero when absent (allowed only with
// NoBaseFee).
func (s *Simulation) CallMessage(c *SimCall) (*SimMessage, error) {
	if c.GasPrice != nil && (c.MaxFeePerGas != nil || c.MaxPriorityFeePerGas != nil) {
		return nil, fmt.Errorf("%w: both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified", ErrTxInvalid)
	}
	u := func(name string, b *big.Int) (*uint256.Int, error) {
		if b == nil {
			return new(uint256.Int), nil
		}
		v, overflow := uint256.FromBig(b)
		if overflow || b.Sign() < 0 {
			return nil, fmt.Errorf("%w: %s %v out of range", ErrTxInvalid, name, b)
		}
		return v, nil
	}
	value, err := u("value", c.Value)
	if err != nil {
		return nil, err
	}
	var price, feeCap, tipCap *uint256.Int
	if c.GasPrice != nil {
		if price, err = u("gasPrice", c.GasPrice); err != nil {
			return nil, err
		}
		feeCap, tipCap = price, price
	} else {
		if feeCap, err = u("maxFeePerGas", c.MaxFeePerGas); err != nil {
			return nil, err
		}
		if tipCap, err = u("maxPriorityFeePerGas", c.MaxPriorityFeePerGas); err != nil {
			return nil, err
		}
		if c.MaxFeePerGas == nil && c.MaxPriorityFeePerGas != nil {
			// Only a tip given: allow it on top of the base fee.
			feeCap = new(uint256.Int).Set(tipCap)
			if s.baseFee != nil {
				feeCap.Add(feeCap, s.baseFee)
			}
		}
		if tipCap.Cmp(feeCap) > 0 {
			return nil, fmt.Errorf("%w: maxPriorityFeePerGas %v above maxFeePerGas %v", ErrTxInvalid, tipCap, feeCap)
		}
		price = new(uint256.Int).Set(feeCap)
		if s.baseFee != nil && !feeCap.IsZero() {
			eff := new(uint256.Int).Add(s.baseFee, tipCap)
			if eff.Cmp(feeCap) < 0 {
				price = eff
			}
		}
	}
	gas := c.Gas
	if gas == 0 {
		gas = min(MaxTxGas, s.header.GasLimit)
	}
	msg := &core.Message{
		From:       c.From,
		To:         c.To,
		Value:      value,
		GasLimit:   gas,
		GasPrice:   price,
		GasFeeCap:  feeCap,
		GasTipCap:  tipCap,
		Data:       c.Data,
		AccessList: c.AccessList,
	}
	msg.SkipEOACheck()
	if c.Nonce != nil {
		msg.Nonce = *c.Nonce
	} else {
		msg.SkipNonceCheck()
	}
	return &SimMessage{msg: msg}, nil
}

// GasCeiling is the largest gas limit m could be given in the current
// state: its own limit for a signed tx, bounded by the per-tx cap, the gas
// left in the block and what the sender can pay for.
func (s *Simulation) GasCeiling(m *SimMessage) uint64 {
	hi := min(m.msg.GasLimit, s.GasLeft())
	if m.msg.GasFeeCap != nil && !m.msg.GasFeeCap.IsZero() {
		bal := s.sdb.GetBalance(m.msg.From).Clone()
		if m.msg.Value != nil {
			if bal.Lt(m.msg.Value) {
				return hi // let the execution report the shortfall
			}
			bal.Sub(bal, m.msg.Value)
		}
		allow := new(uint256.Int).Div(bal, m.msg.GasFeeCap)
		if allow.IsUint64() && allow.Uint64() < hi {
			hi = allow.Uint64()
		}
	}
	return hi
}

// Apply executes m with the given gas limit (0: its own) and keeps its
// effects. A consensus-invalid message changes nothing and gives an error
// wrapping ErrTxInvalid; an EVM failure is a normal outcome (Err set).
func (s *Simulation) Apply(m *SimMessage, gas uint64) (*TxOutcome, error) {
	return s.run(m, gas, true)
}

// Try executes m with the given gas limit and rolls everything back.
func (s *Simulation) Try(m *SimMessage, gas uint64) (*TxOutcome, error) {
	return s.run(m, gas, false)
}

// stopCause reports why the simulation's context is over, or nil while it
// is not: a passed deadline counts even before its timer has fired.
func (s *Simulation) stopCause() error {
	if s.ctx.Err() != nil {
		return context.Cause(s.ctx)
	}
	if d, ok := s.ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

func (s *Simulation) run(m *SimMessage, gas uint64, keep bool) (*TxOutcome, error) {
	if s.dead != nil {
		return nil, s.dead
	}
	if s.ctx.Err() != nil {
		s.dead = fmt.Errorf("%w: %w", ErrSimulationCancelled, context.Cause(s.ctx))
		return nil, s.dead
	}
	msg := m.msg
	if gas != 0 && gas != msg.GasLimit {
		cp := *msg
		cp.GasLimit = gas
		msg = &cp
	}
	snap, gsnap := s.sdb.Snapshot(), *s.gp // by value: no allocation per message
	s.sdb.SetTxContext(m.hash, s.index, uint32(s.index+1))
	res, err := core.ApplyMessage(s.evm, msg, s.gp)
	if cause := s.stopCause(); s.evm.Cancelled() || cause != nil {
		// The aborted frame ends like a STOP and looks successful: never
		// report it, and never use this EVM again. A message that ran past
		// the deadline before the cancelling goroutine was scheduled (a
		// loaded machine) counts as cancelled too: a timeout is never a
		// success.
		s.sdb.RevertToSnapshot(snap)
		s.gp.Set(&gsnap)
		if cause == nil {
			cause = context.Cause(s.ctx)
		}
		s.dead = fmt.Errorf("%w: %w", ErrSimulationCancelled, cause)
		return nil, s.dead
	}
	if err != nil || !keep {
		s.sdb.RevertToSnapshot(snap)
		s.gp.Set(&gsnap)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTxInvalid, err)
	}
	if keep {
		s.sdb.Finalise(s.evm.GetRules())
		s.index++
	}
	out := &TxOutcome{
		GasUsed:    res.UsedGas,
		MaxUsedGas: res.MaxUsedGas,
		Tip:        s.effectiveTip(msg),
		ReturnData: res.ReturnData,
		Err:        res.Err,
		Reverted:   errors.Is(res.Err, vm.ErrExecutionReverted),
	}
	return out, nil
}

// effectiveTip mirrors what the state transition pays the coinbase per gas.
func (s *Simulation) effectiveTip(msg *core.Message) uint256.Int {
	var tip uint256.Int
	switch {
	case s.evm.Config.NoBaseFee && msg.GasFeeCap.IsZero() && msg.GasTipCap.IsZero():
	case s.baseFee == nil:
		tip.Set(msg.GasPrice)
	default:
		if _, underflow := tip.SubOverflow(msg.GasPrice, s.baseFee); underflow {
			tip.Clear()
		}
	}
	return tip
}

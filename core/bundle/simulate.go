package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/core/errclass"
)

// Block says where a bundle is simulated: on the post-state of State, in a
// simulated block numbered Number whose header fields default as a real
// next block's would (core/chain.SimHeader) unless overridden here.
type Block struct {
	// Number of the simulated block; required (non-zero).
	Number uint64
	// State is the block whose post-state the bundle starts from.
	State rpc.BlockNumberOrHash
	// Header overrides; nil keeps the default.
	Coinbase   *common.Address
	Timestamp  *uint64
	GasLimit   *uint64
	Difficulty *big.Int
	BaseFee    *big.Int
	// Timeout of the whole simulation; nil means Config.DefaultTimeout.
	Timeout *time.Duration
}

// CallResult is the outcome of eth_callBundle. Wei amounts are signed: a
// coinbase that pays out (it sends a bundle tx) has a negative diff.
type CallResult struct {
	BundleHash        common.Hash
	BundleGasPrice    *big.Int // CoinbaseDiff / TotalGasUsed
	CoinbaseDiff      *big.Int // change of the coinbase balance over the bundle
	EthSentToCoinbase *big.Int // CoinbaseDiff - GasFees
	GasFees           *big.Int // sum of gasUsed x effective tip
	Results           []TxResult
	StateBlockNumber  uint64
	StateBlockHash    common.Hash
	TotalGasUsed      uint64
}

// TxResult is one transaction's part of a CallResult.
type TxResult struct {
	TxHash            common.Hash
	GasUsed           uint64
	GasPrice          *big.Int // CoinbaseDiff / GasUsed: the price the coinbase really got
	GasFees           *big.Int // GasUsed x effective tip
	CoinbaseDiff      *big.Int
	EthSentToCoinbase *big.Int
	From              common.Address
	To                *common.Address // nil for a contract creation
	// Failure, when non-nil, is why the EVM execution failed; ReturnData
	// is the return value on success.
	Failure    *Failure
	ReturnData []byte
}

// Failure describes a failed EVM execution.
type Failure struct {
	// Error is the EVM error text ("execution reverted", "out of gas"...).
	Error string
	// Reverted is set when the transaction hit REVERT; Revert is then the
	// decoded Error(string) reason, or the 0x-hex revert data.
	Reverted bool
	Revert   string
}

// Simulator runs bundle simulations against the local chain.
type Simulator struct {
	chain   *chain.Chain
	cfg     Config
	senders *chain.SenderCache // nil when off
}

// NewSimulator returns a Simulator over c with the given limits.
func NewSimulator(c *chain.Chain, cfg Config) *Simulator {
	s := &Simulator{chain: c, cfg: cfg.WithDefaults()}
	if s.cfg.SenderCache > 0 {
		s.senders = chain.NewSenderCache(s.cfg.SenderCache)
	}
	return s
}

// Config returns the simulator's limits, defaults filled in.
func (s *Simulator) Config() Config { return s.cfg }

// ChainID is the chain id bundle transactions must be signed for.
func (s *Simulator) ChainID() uint64 { return s.chain.ChainID() }

// DecodeTxs applies the limits to raw signed transactions and decodes them.
func (s *Simulator) DecodeTxs(raw [][]byte) ([]*types.Transaction, error) {
	return s.cfg.DecodeTxs(raw, s.chain.ChainID())
}

// timeout resolves the requested timeout against the limits.
func (s *Simulator) timeout(req *time.Duration) (time.Duration, error) {
	if req == nil {
		return s.cfg.DefaultTimeout, nil
	}
	d := *req
	if d <= 0 {
		return 0, fmt.Errorf("%w: %d ms, expected a positive number of milliseconds up to %d", ErrBadTimeout, d.Milliseconds(), s.cfg.MaxTimeout.Milliseconds())
	}
	if d > s.cfg.MaxTimeout {
		return 0, fmt.Errorf("%w: %d ms is above the maximum of %d ms", ErrBadTimeout, d.Milliseconds(), s.cfg.MaxTimeout.Milliseconds())
	}
	return d, nil
}

// open checks the block spec, resolves the state block and starts a
// chain simulation bounded by the timeout. The returned cancel must be
// called.
func (s *Simulator) open(ctx context.Context, b *Block, noBaseFee bool) (*simRun, error) {
	if b.Number == 0 {
		return nil, fmt.Errorf("%w: expected the number of the block the bundle targets", ErrNoBlockNumber)
	}
	timeout, err := s.timeout(b.Timeout)
	if err != nil {
		return nil, err
	}
	parent, err := s.chain.HeaderByNumberOrHash(b.State)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnknownStateBlock, err)
	}
	// The block's gas is what bounds a simulation's work (besides the
	// timeout): an unbounded override let a client without funds (with a
	// zero base fee, gas costs nothing) run a hundred txs at the per-tx
	// cap, 1.7 billion gas, per request.
	if most := 2 * parent.GasLimit; b.GasLimit != nil && *b.GasLimit > most {
		return nil, fmt.Errorf("%w: %d is above %d, twice the state block's gas limit", ErrBadGasLimit, *b.GasLimit, most)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	sim, err := s.chain.NewSimulation(ctx, parent, chain.SimHeader{
		Number:     b.Number,
		Coinbase:   b.Coinbase,
		Timestamp:  b.Timestamp,
		GasLimit:   b.GasLimit,
		Difficulty: b.Difficulty,
		BaseFee:    b.BaseFee,
		NoBaseFee:  noBaseFee,
	})
	run := &simRun{sim: sim, ctx: ctx, cancel: cancel, timeout: timeout}
	if err != nil {
		cancel()
		if errors.Is(err, chain.ErrMissingState) {
			return nil, fmt.Errorf("%w: %w", ErrStateUnavailable, err)
		}
		return nil, run.error(err)
	}
	return run, nil
}

// simRun is one open chain simulation with its timeout.
type simRun struct {
	sim     *chain.Simulation
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration
}

func (r *simRun) close() {
	r.sim.Close()
	r.cancel()
}

// error turns a cancelled simulation into ErrTimeout or ErrCancelled; any
// other failure of the chain simulation is the node's (errclass.Internal).
func (r *simRun) error(err error) error {
	if !errors.Is(err, chain.ErrSimulationCancelled) {
		return errclass.Internal(err)
	}
	if errors.Is(context.Cause(r.ctx), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w after %d ms", ErrTimeout, r.timeout.Milliseconds())
	}
	return fmt.Errorf("%w: %v", ErrCancelled, context.Cause(r.ctx))
}

// Call simulates txs in order on the state of b.State inside the block b
// describes, as eth_callBundle. A consensus-invalid transaction fails the
// whole call (ErrInvalidTx, naming the tx); an EVM failure is reported in
// that transaction's result. Running past the timeout is ErrTimeout.
func (s *Simulator) Call(ctx context.Context, txs []*types.Transaction, b *Block) (*CallResult, error) {
	if len(txs) == 0 {
		return nil, ErrNoTxs
	}
	if len(txs) > s.cfg.MaxTxs {
		return nil, fmt.Errorf("%w: %d txs, at most %d allowed", ErrTooManyTxs, len(txs), s.cfg.MaxTxs)
	}
	run, err := s.open(ctx, b, false)
	if err != nil {
		return nil, err
	}
	defer run.close()
	sim := run.sim

	var (
		coinbase = sim.Coinbase()
		hashes   = make([]common.Hash, len(txs))
		results  = make([]TxResult, len(txs))
		totalGas uint64
		gasFees  = new(big.Int)
		start    = sim.Balance(coinbase)
		before   = start
	)
	msgs, bad, err := sim.TxMessages(txs, s.senders)
	if err != nil {
		return nil, invalidTx(bad, txs[bad].Hash(), err)
	}
	for i, msg := range msgs {
		hashes[i] = msg.Hash()
		out, err := sim.Apply(msg, 0)
		if err != nil {
			if errors.Is(err, chain.ErrTxInvalid) {
				return nil, invalidTx(i, hashes[i], err)
			}
			return nil, run.error(err)
		}
		after := sim.Balance(coinbase)
		diff := signedDiff(&after, &before)
		before = after

		var fee uint256.Int
		fee.Mul(fee.SetUint64(out.GasUsed), &out.Tip)
		fees := fee.ToBig()
		r := TxResult{
			TxHash:            hashes[i],
			GasUsed:           out.GasUsed,
			GasPrice:          perGas(diff, out.GasUsed),
			GasFees:           fees,
			CoinbaseDiff:      diff,
			EthSentToCoinbase: new(big.Int).Sub(diff, fees),
			From:              msg.From(),
			To:                msg.To(),
		}
		if out.Err != nil {
			r.Failure = failure(out)
		} else {
			r.ReturnData = out.ReturnData
		}
		results[i] = r
		totalGas += out.GasUsed
		gasFees.Add(gasFees, fees)
	}
	parent := sim.Parent()
	diff := signedDiff(&before, &start)
	return &CallResult{
		BundleHash:        HashOf(hashes),
		BundleGasPrice:    perGas(diff, totalGas),
		CoinbaseDiff:      diff,
		EthSentToCoinbase: new(big.Int).Sub(diff, gasFees),
		GasFees:           gasFees,
		Results:           results,
		StateBlockNumber:  parent.Number.Uint64(),
		StateBlockHash:    sim.ParentHash(),
		TotalGasUsed:      totalGas,
	}, nil
}

// signedDiff is a - b as a signed big integer.
func signedDiff(a, b *uint256.Int) *big.Int {
	var d uint256.Int
	if a.Lt(b) {
		d.Sub(b, a)
		return new(big.Int).Neg(d.ToBig())
	}
	d.Sub(a, b)
	return d.ToBig()
}

func invalidTx(i int, hash common.Hash, err error) error {
	return fmt.Errorf("%w: tx %d (%s): %w", ErrInvalidTx, i, hash.Hex(), err)
}

// perGas is an amount divided by gas, zero for zero gas.
func perGas(amount *big.Int, gas uint64) *big.Int {
	if gas == 0 {
		return new(big.Int)
	}
	return new(big.Int).Quo(amount, new(big.Int).SetUint64(gas))
}

// errorSelector is the 4-byte selector of Solidity's Error(string).
var errorSelector = []byte{0x08, 0xc3, 0x79, 0xa0}

func failure(out *chain.TxOutcome) *Failure {
	f := &Failure{Error: out.Err.Error(), Reverted: out.Reverted}
	if out.Reverted {
		f.Revert = RevertReason(out.ReturnData)
	}
	return f
}

// RevertReason renders revert data: the reason of an Error(string) revert,
// otherwise the data as 0x-hex ("0x" when empty).
func RevertReason(data []byte) string {
	if len(data) >= 4 && bytes.Equal(data[:4], errorSelector) {
		if reason, err := abi.UnpackRevert(data); err == nil {
			return reason
		}
	}
	return hexutil.Encode(data)
}

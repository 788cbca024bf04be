package bundle

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/chain"
)

// EstimateItem is one entry of an eth_estimateGasBundle request: a signed
// transaction or an unsigned call object. Exactly one is set.
type EstimateItem struct {
	Tx   *types.Transaction
	Call *chain.SimCall
}

// EstimateResult is the outcome of eth_estimateGasBundle.
type EstimateResult struct {
	Results          []EstimateTxResult
	TotalGasUsed     uint64
	StateBlockNumber uint64
}

// EstimateTxResult is one entry's estimate.
type EstimateTxResult struct {
	// TxHash is the transaction hash, zero for a call object.
	TxHash common.Hash
	// GasUsed is the gas the entry used in sequence, with GasLimit.
	GasUsed uint64
	// GasLimit is the smallest gas limit with which the entry succeeds in
	// sequence; zero when it fails even with the most gas it can have.
	GasLimit uint64
	// Failure is set when the entry fails even with the most gas it can
	// have; it then runs with that much gas so the rest of the bundle sees
	// its effects (nonce, fees).
	Failure *Failure
}

// EstimateGas estimates each entry of a bundle in sequence, as
// eth_estimateGasBundle: for each entry, the smallest gas limit with which
// it succeeds on the state the entries before it left, found by binary
// search; the entry is then applied with that limit. Calls with no fee
// fields run free of the base fee, as eth_estimateGas does. A
// consensus-invalid entry fails the whole estimate.
func (s *Simulator) EstimateGas(ctx context.Context, items []EstimateItem, b *Block) (*EstimateResult, error) {
	if len(items) == 0 {
		return nil, ErrNoTxs
	}
	if len(items) > s.cfg.MaxTxs {
		return nil, fmt.Errorf("%w: %d txs, at most %d allowed", ErrTooManyTxs, len(items), s.cfg.MaxTxs)
	}
	run, err := s.open(ctx, b, true)
	if err != nil {
		return nil, err
	}
	defer run.close()
	sim := run.sim

	res := &EstimateResult{
		Results:          make([]EstimateTxResult, len(items)),
		StateBlockNumber: sim.Parent().Number.Uint64(),
	}
	for i, it := range items {
		var (
			msg *chain.SimMessage
			err error
		)
		switch {
		case it.Tx != nil:
			var msgs []*chain.SimMessage
			if msgs, _, err = sim.TxMessages([]*types.Transaction{it.Tx}, s.senders); err == nil {
				msg = msgs[0]
			}
		case it.Call != nil:
			msg, err = sim.CallMessage(it.Call)
		default:
			return nil, fmt.Errorf("%w: entry %d is neither a signed tx nor a call object", ErrBadCall, i)
		}
		if err != nil {
			return nil, invalidEntry(i, it, err)
		}
		r, err := estimateOne(sim, msg)
		if err != nil {
			if errors.Is(err, chain.ErrTxInvalid) {
				return nil, invalidEntry(i, it, err)
			}
			return nil, run.error(err)
		}
		r.TxHash = msg.Hash()
		res.Results[i] = *r
		res.TotalGasUsed += r.GasUsed
	}
	return res, nil
}

func invalidEntry(i int, it EstimateItem, err error) error {
	if it.Tx != nil {
		return invalidTx(i, it.Tx.Hash(), err)
	}
	return fmt.Errorf("%w: call %d: %w", ErrInvalidTx, i, err)
}

// estimateOne finds the smallest gas limit with which msg succeeds and
// applies msg with it. Gas limits below the peak gas use of a successful
// run always fail, so the search starts there; most transactions succeed
// right at the peak and cost two executions.
func estimateOne(sim *chain.Simulation, msg *chain.SimMessage) (*EstimateTxResult, error) {
	hi := sim.GasCeiling(msg)
	top, err := sim.Try(msg, hi)
	if err != nil {
		return nil, err
	}
	if top.Err != nil {
		// Fails even with all it can have: keep its effects and report.
		out, err := sim.Apply(msg, hi)
		if err != nil {
			return nil, err
		}
		return &EstimateTxResult{GasUsed: out.GasUsed, Failure: failure(out)}, nil
	}
	lo := top.MaxUsedGas - 1 // always fails: the run needs MaxUsedGas at its peak
	if top.MaxUsedGas < hi {
		ok, err := succeeds(sim, msg, top.MaxUsedGas)
		if err != nil {
			return nil, err
		}
		if ok {
			hi = top.MaxUsedGas
		} else {
			lo = top.MaxUsedGas
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		ok, err := succeeds(sim, msg, mid)
		if err != nil {
			return nil, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	out, err := sim.Apply(msg, hi)
	if err != nil {
		return nil, err
	}
	r := &EstimateTxResult{GasUsed: out.GasUsed, GasLimit: hi}
	if out.Err != nil {
		// Non-monotonic gas behaviour (the contract branches on GAS):
		// report what happened with the limit found.
		r.Failure = failure(out)
	}
	return r, nil
}

// succeeds reports whether msg runs without error with the given gas.
// Consensus errors at a lower limit (intrinsic gas, EIP-7623 floor) count
// as failures; only cancellation is an error.
func succeeds(sim *chain.Simulation, msg *chain.SimMessage, gas uint64) (bool, error) {
	out, err := sim.Try(msg, gas)
	if err != nil {
		if errors.Is(err, chain.ErrTxInvalid) {
			return false, nil
		}
		return false, err
	}
	return out.Err == nil, nil
}

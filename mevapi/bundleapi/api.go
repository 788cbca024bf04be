package bundleapi

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
)

// API is the JSON-RPC service with eth_callBundle and
// eth_estimateGasBundle. Register it with APIs.
type API struct {
	sim *bundle.Simulator
	// signer and stats count each eth_callBundle's gas as simulated by the
	// request's signer, and signed REST requests as its requests (nil: not
	// counted).
	signer bundle.SignerFunc
	stats  Counter
}

// Counter counts per signer (the store's StatsBuffer): requests, and the
// gas its simulations used.
type Counter interface {
	bundle.UsageCounter
	Add(addr common.Address, kind bundle.StatKind)
}

// NewAPI returns the service over a simulator.
func NewAPI(sim *bundle.Simulator) *API { return &API{sim: sim} }

// CountUsage sets where eth_callBundle counts the gas it simulated, per
// request signer: JSON-RPC calls and REST requests signed with
// X-Flashbots-Signature or X-Ethereum-Signature. A signed REST request
// also counts as one of the signer's requests, as a JSON-RPC request does
// in the listener's hook. Set it before serving.
func (a *API) CountUsage(signer bundle.SignerFunc, c Counter) {
	a.signer, a.stats = signer, c
}

// APIs returns the service for geth's node (HTTP, WS, IPC) and for the MEV
// listener's JSON-RPC dispatcher, in the eth namespace.
func APIs(sim *bundle.Simulator) []rpc.API { return NewAPI(sim).APIs() }

// APIs returns this service in the eth namespace.
func (a *API) APIs() []rpc.API {
	return []rpc.API{{Namespace: "eth", Service: a}}
}

// CallBundleResult is the eth_callBundle result, Flashbots-compatible:
// wei amounts as decimal strings, gas and the state block number as JSON
// numbers. Fields are in the alphabetical order Flashbots' map gives.
type CallBundleResult struct {
	BundleGasPrice    string               `json:"bundleGasPrice"`
	BundleHash        common.Hash          `json:"bundleHash"`
	CoinbaseDiff      string               `json:"coinbaseDiff"`
	EthSentToCoinbase string               `json:"ethSentToCoinbase"`
	GasFees           string               `json:"gasFees"`
	Results           []CallBundleTxResult `json:"results"`
	StateBlockNumber  uint64               `json:"stateBlockNumber"`
	TotalGasUsed      uint64               `json:"totalGasUsed"`
}

// CallBundleTxResult is one transaction of a CallBundleResult. value is
// present only on success, error only on failure, revert only for a
// revert: clients test for the keys' presence.
type CallBundleTxResult struct {
	CoinbaseDiff      string      `json:"coinbaseDiff"`
	Error             string      `json:"error,omitempty"`
	EthSentToCoinbase string      `json:"ethSentToCoinbase"`
	FromAddress       string      `json:"fromAddress"`
	GasFees           string      `json:"gasFees"`
	GasPrice          string      `json:"gasPrice"`
	GasUsed           uint64      `json:"gasUsed"`
	Revert            *string     `json:"revert,omitempty"`
	ToAddress         string      `json:"toAddress"`
	TxHash            common.Hash `json:"txHash"`
	Value             *string     `json:"value,omitempty"`
}

// EstimateGasBundleResult is the eth_estimateGasBundle result.
type EstimateGasBundleResult struct {
	Results      []EstimateGasBundleTxResult `json:"results"`
	TotalGasUsed uint64                      `json:"totalGasUsed"`
}

// EstimateGasBundleTxResult is one entry's estimate: the gas it used and
// the smallest gas limit with which it succeeds in sequence; a failing
// entry has error (and revert) instead of gasLimit. txHash is given for
// signed transactions.
type EstimateGasBundleTxResult struct {
	Error    string       `json:"error,omitempty"`
	GasLimit *uint64      `json:"gasLimit,omitempty"`
	GasUsed  uint64       `json:"gasUsed"`
	Revert   *string      `json:"revert,omitempty"`
	TxHash   *common.Hash `json:"txHash,omitempty"`
}

// CallBundle simulates a bundle on a block's state (eth_callBundle).
func (a *API) CallBundle(ctx context.Context, args CallBundleArgs) (*CallBundleResult, error) {
	txs, err := a.sim.DecodeTxs(args.Txs)
	if err != nil {
		return nil, rpcError(err)
	}
	res, err := a.sim.Call(ctx, txs, &args.Block)
	if err != nil {
		return nil, rpcError(err)
	}
	if a.stats != nil {
		if signer, ok := a.signer(ctx); ok {
			a.stats.AddUsage(signer, bundle.Usage{GasSimulated: res.TotalGasUsed})
		}
	}
	return encodeCallResult(res), nil
}

// EstimateGasBundle estimates each entry's gas limit in sequence
// (eth_estimateGasBundle).
func (a *API) EstimateGasBundle(ctx context.Context, args EstimateGasBundleArgs) (*EstimateGasBundleResult, error) {
	items, err := a.estimateItems(args.Entries)
	if err != nil {
		return nil, rpcError(err)
	}
	res, err := a.sim.EstimateGas(ctx, items, &args.Block)
	if err != nil {
		return nil, rpcError(err)
	}
	out := &EstimateGasBundleResult{Results: make([]EstimateGasBundleTxResult, len(res.Results)), TotalGasUsed: res.TotalGasUsed}
	for i, r := range res.Results {
		e := EstimateGasBundleTxResult{GasUsed: r.GasUsed}
		if items[i].Tx != nil {
			h := r.TxHash
			e.TxHash = &h
		}
		if r.Failure != nil {
			e.Error, e.Revert = failureFields(r.Failure)
		} else {
			gl := r.GasLimit
			e.GasLimit = &gl
		}
		out.Results[i] = e
	}
	return out, nil
}

// estimateItems applies the limits to the entries and decodes the raw txs.
func (a *API) estimateItems(entries []EstimateEntry) ([]bundle.EstimateItem, error) {
	sizes := make([][]byte, len(entries))
	for i, e := range entries {
		if e.Call != nil {
			sizes[i] = e.Call.Data
		} else {
			sizes[i] = e.Raw
		}
	}
	cfg := a.sim.Config()
	if err := cfg.CheckSize(sizes); err != nil {
		return nil, err
	}
	items := make([]bundle.EstimateItem, len(entries))
	for i, e := range entries {
		if e.Call != nil {
			items[i].Call = e.Call
			continue
		}
		tx, err := bundle.DecodeTx(i, e.Raw, a.sim.ChainID())
		if err != nil {
			return nil, err
		}
		items[i].Tx = tx
	}
	return items, nil
}

func encodeCallResult(res *bundle.CallResult) *CallBundleResult {
	out := &CallBundleResult{
		BundleGasPrice:    res.BundleGasPrice.String(),
		BundleHash:        res.BundleHash,
		CoinbaseDiff:      res.CoinbaseDiff.String(),
		EthSentToCoinbase: res.EthSentToCoinbase.String(),
		GasFees:           res.GasFees.String(),
		Results:           make([]CallBundleTxResult, len(res.Results)),
		StateBlockNumber:  res.StateBlockNumber,
		TotalGasUsed:      res.TotalGasUsed,
	}
	for i, r := range res.Results {
		tr := CallBundleTxResult{
			CoinbaseDiff:      r.CoinbaseDiff.String(),
			EthSentToCoinbase: r.EthSentToCoinbase.String(),
			FromAddress:       r.From.Hex(),
			GasFees:           r.GasFees.String(),
			GasPrice:          r.GasPrice.String(),
			GasUsed:           r.GasUsed,
			ToAddress:         "0x",
			TxHash:            r.TxHash,
		}
		if r.To != nil {
			tr.ToAddress = r.To.Hex()
		}
		if r.Failure != nil {
			tr.Error, tr.Revert = failureFields(r.Failure)
		} else {
			v := hexutil.Encode(r.ReturnData)
			tr.Value = &v
		}
		out.Results[i] = tr
	}
	return out
}

func failureFields(f *bundle.Failure) (string, *string) {
	if !f.Reverted {
		return f.Error, nil
	}
	r := f.Revert
	return f.Error, &r
}

// JSON-RPC error codes of the service's client errors: -32602 for a request
// that is wrong whatever the chain holds, -32000 for one the chain refuses.
// Internal faults (marked errclass.Internal by the simulator) are -32603.
const (
	CodeInvalidParams = errclass.CodeInvalidParams
	CodeServerError   = -32000
)

// inputErrors are the sentinels of requests that are wrong in themselves.
var inputErrors = []error{
	ErrBadRequest, bundle.ErrNoTxs, bundle.ErrTooManyTxs, bundle.ErrTooLarge, bundle.ErrBadTx,
	bundle.ErrWrongChain, bundle.ErrNoBlockNumber, bundle.ErrBadTimeout, bundle.ErrBadGasLimit, bundle.ErrBadCall,
}

// isInputError reports whether err is wrong in itself (-32602), not
// refused by the chain (-32000). Both are the client's to fix.
func isInputError(err error) bool {
	for _, s := range inputErrors {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

func rpcError(err error) error {
	if isInputError(err) {
		return errclass.RPC(err, CodeInvalidParams)
	}
	return errclass.RPC(err, CodeServerError)
}

package betapool

import (
	"context"
	"errors"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// API is the "mev" namespace service of beta bundles.
type API struct{ p *Pool }

// APIs returns the JSON-RPC services of the pool, for geth's RPC and the MEV
// listener alike.
func (p *Pool) APIs() []rpc.API {
	return []rpc.API{{Namespace: "mev", Service: &API{p}}}
}

// FastMethods lets the MEV listener call mev_sendBetaBundle without geth's
// dispatcher (jsonrpc.FastService).
func (a *API) FastMethods() []string { return []string{"sendBetaBundle"} }

// rpcError carries a JSON-RPC error code; geth's rpc package reads it through
// ErrorCode, and the MEV listener maps the code to an HTTP status.
type rpcError struct {
	code int
	err  error
}

func (e *rpcError) Error() string  { return e.err.Error() }
func (e *rpcError) ErrorCode() int { return e.code }
func (e *rpcError) Unwrap() error  { return e.err }

const (
	codeInvalidParams = -32602
	codeLimitExceeded = -32005 // HTTP 429 on the MEV listener
	codeInternal      = -32603
)

// SendBetaBundle is mev_sendBetaBundle: it validates and stores a beta
// bundle for its slot and returns the bundle hash, keccak256 of the
// concatenated tx hashes (the slot is not hashed).
func (a *API) SendBetaBundle(ctx context.Context, args bundle.BetaBundleArgs) (common.Hash, error) {
	signer, _ := reqsig.SignerFrom(ctx)
	h, err := a.p.AddFrom(ctx, args, signer, reqsig.ClientIPFrom(ctx))
	if err != nil {
		return common.Hash{}, classify(err)
	}
	return h, nil
}

// BetaBundleResult is mev_getBetaBundle's answer.
type BetaBundleResult struct {
	BundleHash common.Hash     `json:"bundleHash"`
	Txs        []hexutil.Bytes `json:"txs"`
	TxHashes   []common.Hash   `json:"txHashes"`
	Slots      []SlotResult    `json:"slots"`
}

// SlotResult is the state of a bundle for one slot.
type SlotResult struct {
	Slot       string `json:"slot"` // decimal, as sent
	Status     string `json:"status"`
	ReceivedAt string `json:"receivedAt"` // RFC 3339, UTC
}

// GetBetaBundle is mev_getBetaBundle: the bundle's txs and, per slot it was
// sent for, "pending" or "expired".
func (a *API) GetBetaBundle(ctx context.Context, hash common.Hash) (*BetaBundleResult, error) {
	st, err := a.p.Status(ctx, hash)
	if err != nil {
		return nil, classify(err)
	}
	r := &BetaBundleResult{BundleHash: st.Hash, Txs: hexTxs(st.Txs), TxHashes: st.TxHashes}
	for _, s := range st.Slots {
		r.Slots = append(r.Slots, SlotResult{Slot: strconv.FormatUint(s.Slot, 10), Status: s.State, ReceivedAt: s.ReceivedAt.Format("2006-01-02T15:04:05.000Z07:00")})
	}
	return r, nil
}

// classify turns validation and lookup errors into invalid-params errors
// (HTTP 400 on the MEV listener) and everything else into internal errors
// (500, details logged, not shown).
func classify(err error) error {
	for _, sentinel := range []error{
		bundle.ErrBetaNoTxs, bundle.ErrBetaTooManyTxs, bundle.ErrBetaTooLarge, bundle.ErrBetaTxHex,
		bundle.ErrBetaTxDecode, bundle.ErrBetaTxChainID, bundle.ErrBetaBlobTx, bundle.ErrBetaTxType,
		bundle.ErrBetaPriorityFee, bundle.ErrBetaDuplicateTx, bundle.ErrBetaSlotMissing,
		bundle.ErrBetaSlotFormat, bundle.ErrBetaSlotPast, bundle.ErrBetaSlotTooFar, ErrUnknownBundle,
		bundle.ErrBetaGasTooLow, bundle.ErrBetaGasTooHigh,
	} {
		if errors.Is(err, sentinel) {
			return &rpcError{codeInvalidParams, err}
		}
	}
	if errors.Is(err, ErrQuota) || errors.Is(err, ErrStoreFull) {
		return &rpcError{codeLimitExceeded, err}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &rpcError{codeInternal, err}
	}
	log.Error("Beta bundle request failed", "err", err)
	return &rpcError{codeInternal, err}
}

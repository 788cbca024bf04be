package betapool

import (
	"context"
	"fmt"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/jsonargs"
)

// API is the "mev" namespace service of beta bundles.
type API struct {
	p      *Pool
	signer bundle.SignerFunc
	client bundle.ClientFunc
}

// APIs returns the JSON-RPC services of the pool, for geth's RPC and the MEV
// listener alike; signer reads a request's signer, client its IP address.
func (p *Pool) APIs(signer bundle.SignerFunc, client bundle.ClientFunc) []rpc.API {
	return []rpc.API{{Namespace: "mev", Service: &API{p, signer, client}}}
}

// FastMethods lets the MEV listener call mev_sendBetaBundle without geth's
// dispatcher (jsonrpc.FastService).
func (a *API) FastMethods() []string { return []string{"sendBetaBundle"} }

// SendBetaBundle is mev_sendBetaBundle: it validates and stores a beta
// bundle for its slot and returns the bundle hash, keccak256 of the
// concatenated tx hashes (the slot is not hashed).
func (a *API) SendBetaBundle(ctx context.Context, args bundle.BetaBundleArgs) (common.Hash, error) {
	signer, _ := a.signer(ctx)
	h, err := a.p.AddFrom(ctx, args, signer, a.client(ctx))
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
	// paid, included, missed: the settlement entry that paid and its gas.
	Entry *uint64         `json:"entry,omitempty"`
	Gas   *hexutil.Uint64 `json:"gas,omitempty"`
	// included: the block and the bundle's txs in it, with k of n.
	BlockNumber *hexutil.Uint64 `json:"blockNumber,omitempty"`
	BlockHash   *common.Hash    `json:"blockHash,omitempty"`
	IncludedTxs []common.Hash   `json:"includedTxs,omitempty"`
	Included    string          `json:"included,omitempty"` // "k of n"
	// missed, or included only in part: why.
	Reason string `json:"reason,omitempty"`
}

// GetBetaBundle is mev_getBetaBundle: the bundle's txs and, per slot it was
// sent for, its status: pending, paid, included, missed or expired.
func (a *API) GetBetaBundle(ctx context.Context, hash jsonargs.Hash) (*BetaBundleResult, error) {
	st, err := a.p.Status(ctx, common.Hash(hash))
	if err != nil {
		return nil, classify(err)
	}
	r := &BetaBundleResult{BundleHash: st.Hash, Txs: hexTxs(st.Txs), TxHashes: st.TxHashes}
	for _, s := range st.Slots {
		sr := SlotResult{Slot: strconv.FormatUint(s.Slot, 10), Status: s.State, ReceivedAt: bundle.FormatTime(s.ReceivedAt), Reason: s.Reason}
		if s.Entry != nil {
			gas := hexutil.Uint64(s.Gas)
			sr.Entry, sr.Gas = s.Entry, &gas
		}
		if s.State == StateIncluded || (s.State == StateMissed && s.BlockHash != (common.Hash{})) {
			num, h := hexutil.Uint64(s.BlockNumber), s.BlockHash
			sr.BlockNumber, sr.BlockHash = &num, &h
		}
		if s.State == StateIncluded {
			sr.IncludedTxs = s.Included
			sr.Included = fmt.Sprintf("%d of %d", len(s.Included), s.Total)
		}
		r.Slots = append(r.Slots, sr)
	}
	return r, nil
}

// classify gives err its JSON-RPC code: internal faults (marked by the
// pool) are logged here and answered -32603, everything else is invalid
// params with its message.
func classify(err error) error {
	if errclass.IsInternal(err) {
		log.Error("Beta bundle request failed", "err", err)
	}
	return errclass.RPC(err, 0)
}

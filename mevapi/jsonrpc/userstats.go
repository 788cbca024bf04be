package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/jsonargs"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// ErrNotOwnStats: mev_getUserStats asked about another address than the
// request's signer, or asked unsigned. A signer's statistics are its own
// (Flashbots answers only the signer's, as flashbots_getBundleStatsV2 does).
var ErrNotOwnStats = errors.New("mev_getUserStats answers only about the request's signer")

// UserStatsReader reads per-signer counters (the store's StatsBuffer): an
// error for a signer never seen, failures marked errclass.Internal.
type UserStatsReader interface {
	SignerStats(ctx context.Context, addr common.Address) (*bundle.SignerStats, error)
}

// UserStatsAPIs returns the "mev" service with mev_getUserStats.
func UserStatsAPIs(r UserStatsReader) []rpc.API {
	return []rpc.API{{Namespace: "mev", Service: &userStatsAPI{r}}}
}

type userStatsAPI struct{ r UserStatsReader }

// UserStatsResult is mev_getUserStats's answer. Counters are JSON numbers;
// times are RFC 3339 UTC.
type UserStatsResult struct {
	Address     common.Address `json:"address"`
	Requests    uint64         `json:"requests"`
	Bundles     uint64         `json:"bundles"`
	BetaBundles uint64         `json:"betaBundles"`
	Inclusions  uint64         `json:"inclusions"`
	// BetaIncluded and BetaMissed count paid beta bundles, per slot, that
	// were in the slot's delivered block (whole or a prefix) and that were not.
	BetaIncluded uint64 `json:"betaIncluded"`
	BetaMissed   uint64 `json:"betaMissed"`
	FirstSeen    string `json:"firstSeen"`
	LastSeen     string `json:"lastSeen"`
	// UnflushedSeconds is the crash window: counters of this many last
	// seconds are in memory until written, and a crash loses them.
	UnflushedSeconds float64 `json:"unflushedSeconds"`
}

// flushIntervaler is a reader whose counters reach the database on a timer
// (the store's StatsBuffer).
type flushIntervaler interface{ FlushInterval() time.Duration }

// GetUserStats is mev_getUserStats(address): what gavel counted for requests
// signed by address. Only a request signed by address itself is answered.
func (a *userStatsAPI) GetUserStats(ctx context.Context, arg jsonargs.Address) (*UserStatsResult, error) {
	addr := common.Address(arg)
	if err := ownStats(ctx, addr); err != nil {
		return nil, errclass.RPC(err, 0)
	}
	u, err := a.r.SignerStats(ctx, addr)
	if err != nil {
		return nil, errclass.RPC(err, 0) // an unknown signer is invalid params
	}
	res := userStats(addr, u)
	if f, ok := a.r.(flushIntervaler); ok {
		res.UnflushedSeconds = f.FlushInterval().Seconds()
	}
	return &res, nil
}

// userStats encodes the counters of addr.
func userStats(addr common.Address, u *bundle.SignerStats) UserStatsResult {
	ts := bundle.FormatUnixMilli
	return UserStatsResult{Address: addr, Requests: u.Requests, Bundles: u.Bundles, BetaBundles: u.BetaBundles,
		Inclusions: u.Inclusions, BetaIncluded: u.BetaIncluded, BetaMissed: u.BetaMissed, FirstSeen: ts(u.FirstSeen), LastSeen: ts(u.LastSeen)}
}

// ownStats checks that the request asking about addr is signed by addr.
func ownStats(ctx context.Context, addr common.Address) error {
	signer, ok := reqsig.SignerFrom(ctx)
	switch {
	case !ok:
		return fmt.Errorf("%w: sign the request with %s's key (X-Flashbots-Signature) and send it to the MEV listener; geth's RPC carries no signatures", ErrNotOwnStats, addr.Hex())
	case signer != addr:
		return fmt.Errorf("%w: the request is signed by %s, not by %s", ErrNotOwnStats, signer.Hex(), addr.Hex())
	}
	return nil
}

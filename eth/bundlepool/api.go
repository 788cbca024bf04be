package bundlepool

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/jsonargs"
)

// API is the "eth" namespace service with eth_sendBundle and
// eth_cancelBundle; StatsAPI the "flashbots" one.
type API struct {
	p      *Pool
	signer bundle.SignerFunc
	client bundle.ClientFunc
}

// APIs returns the pool's JSON-RPC services; signer reads a request's
// signer, client its IP address.
func (p *Pool) APIs(signer bundle.SignerFunc, client bundle.ClientFunc) []rpc.API {
	return []rpc.API{{Namespace: "eth", Service: &API{p, signer, client}}, {Namespace: "flashbots", Service: &StatsAPI{p, signer}}}
}

// SendBundleResult is eth_sendBundle's answer, as Flashbots' relay gives it
// (@flashbots/ethers-provider-bundle reads result.bundleHash).
type SendBundleResult struct {
	BundleHash common.Hash `json:"bundleHash"`
}

// FastMethods lets the MEV listener call eth_sendBundle and
// eth_cancelBundle without geth's dispatcher (jsonrpc.FastService): a flood
// of refused bundles then costs the listener's CPU turn a decode and the
// checks, not a handler, a goroutine and a re-parsed answer per request.
func (a *API) FastMethods() []string { return []string{"sendBundle", "cancelBundle"} }

// SendBundle is eth_sendBundle.
func (a *API) SendBundle(ctx context.Context, args bundle.SendBundleArgs) (*SendBundleResult, error) {
	signer, _ := a.signer(ctx)
	h, err := a.p.AddFrom(args, signer, a.client(ctx))
	if err != nil {
		return nil, errclass.RPC(err, 0)
	}
	return &SendBundleResult{BundleHash: h}, nil
}

// CancelBundle is eth_cancelBundle({replacementUuid}); it answers with the
// hash of the bundle it removed.
func (a *API) CancelBundle(ctx context.Context, args bundle.CancelBundleArgs) (*SendBundleResult, error) {
	signer, _ := a.signer(ctx)
	h, err := a.p.Cancel(args.ReplacementUUID, signer)
	if err != nil {
		return nil, errclass.RPC(err, 0)
	}
	return &SendBundleResult{BundleHash: h}, nil
}

// StatsAPI is the "flashbots" namespace service with
// flashbots_getBundleStatsV2.
type StatsAPI struct {
	p      *Pool
	signer bundle.SignerFunc
}

// BundleStatsArgs are flashbots_getBundleStatsV2's parameters. blockNumber
// (hex) may be left out: the latest block the bundle was sent for.
type BundleStatsArgs struct {
	BundleHash  common.Hash    `json:"bundleHash"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
}

// UnmarshalJSON names a malformed field in JSON terms (jsonargs).
func (a *BundleStatsArgs) UnmarshalJSON(b []byte) error {
	type plain BundleStatsArgs
	return jsonargs.DecodeObject(b, (*plain)(a))
}

// BuilderTime is one entry of consideredByBuildersAt / sealedByBuildersAt.
type BuilderTime struct {
	Pubkey    string `json:"pubkey"`
	Timestamp string `json:"timestamp"`
}

// BundleStats is flashbots_getBundleStatsV2's answer: Flashbots' fields,
// then gavel's (status, the block it is in, why it is not).
type BundleStats struct {
	IsHighPriority         bool          `json:"isHighPriority"`
	IsSimulated            bool          `json:"isSimulated"`
	SimulatedAt            string        `json:"simulatedAt,omitempty"`
	ReceivedAt             string        `json:"receivedAt"`
	ConsideredByBuildersAt []BuilderTime `json:"consideredByBuildersAt"`
	SealedByBuildersAt     []BuilderTime `json:"sealedByBuildersAt"`

	BundleHash  common.Hash    `json:"bundleHash"`
	BlockNumber hexutil.Uint64 `json:"blockNumber"`
	// Status is received, considered, simulated, included or dropped; or
	// unknown for a bundle the pool has no status of that the asker may see.
	Status string `json:"status"`
	// IncludedBlockHash is the canonical block holding the bundle.
	IncludedBlockHash *common.Hash `json:"includedBlockHash,omitempty"`
	// DropReason says why the bundle is not (or, before its block, not yet)
	// included: nonce, revert not allowed, fee, funds, outbid, block full,
	// invalid, timestamp, not considered, block not chosen, cancelled,
	// replaced.
	DropReason string `json:"dropReason,omitempty"`
	// Error is the failure behind DropReason.
	Error string `json:"error,omitempty"`
}

// StatusUnknown is BundleStats.Status for a bundle whose status the asker
// cannot see: never received, forgotten (more than statusBlocks old), or
// sent with another signer's key.
const StatusUnknown = "unknown"

// GetBundleStatsV2 is flashbots_getBundleStatsV2: what became of a bundle
// sent with eth_sendBundle. A bundle sent with a request signature is only
// shown to a request signed by the same key. A bundle the asker cannot see
// gets the answer Flashbots gives a bundle it does not know (every flag
// false, no times) rather than an error: clients poll right after sending,
// and the two cases answer alike so that a stranger learns nothing of
// another signer's bundles.
func (a *StatsAPI) GetBundleStatsV2(ctx context.Context, args BundleStatsArgs) (*BundleStats, error) {
	signer, _ := a.signer(ctx)
	st, err := a.p.Status(args.BundleHash, uint64(args.BlockNumber), signer)
	if errors.Is(err, ErrUnknownBundle) || errors.Is(err, ErrNotYourBundle) {
		return &BundleStats{
			ConsideredByBuildersAt: []BuilderTime{}, SealedByBuildersAt: []BuilderTime{},
			BundleHash: args.BundleHash, BlockNumber: args.BlockNumber, Status: StatusUnknown,
		}, nil
	}
	if err != nil {
		return nil, errclass.RPC(err, 0)
	}
	ts := bundle.FormatTime // the timestamp format of Flashbots' stats methods
	out := &BundleStats{
		IsSimulated: !st.SimulatedAt.IsZero(), ReceivedAt: ts(st.ReceivedAt),
		ConsideredByBuildersAt: []BuilderTime{}, SealedByBuildersAt: []BuilderTime{},
		BundleHash: st.Hash, BlockNumber: hexutil.Uint64(st.BlockNumber),
		Status: string(st.State), DropReason: string(st.Reason), Error: st.Error,
	}
	if out.IsSimulated {
		out.SimulatedAt = ts(st.SimulatedAt)
	}
	if !st.ConsideredAt.IsZero() {
		out.ConsideredByBuildersAt = append(out.ConsideredByBuildersAt, BuilderTime{st.Builder, ts(st.ConsideredAt)})
	}
	if !st.SealedAt.IsZero() {
		out.SealedByBuildersAt = append(out.SealedByBuildersAt, BuilderTime{st.Builder, ts(st.SealedAt)})
	}
	if st.IncludedIn != (common.Hash{}) {
		h := st.IncludedIn
		out.IncludedBlockHash = &h
	}
	return out, nil
}

package bundlepool

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
)

// SignerFunc returns the verified signer of the request ctx belongs to, and
// false for an unsigned request. The transport that verified the signature
// provides it (the MEV listener's reqsig.SignerFrom).
type SignerFunc func(ctx context.Context) (common.Address, bool)

// API is the "eth" namespace service with eth_sendBundle and
// eth_cancelBundle.
type API struct {
	p      *Pool
	signer SignerFunc
}

// APIs returns the pool's JSON-RPC services; signer reads a request's
// signer.
func (p *Pool) APIs(signer SignerFunc) []rpc.API {
	return []rpc.API{{Namespace: "eth", Service: &API{p, signer}}}
}

// SendBundleResult is eth_sendBundle's answer, as Flashbots' relay gives it
// (@flashbots/ethers-provider-bundle reads result.bundleHash).
type SendBundleResult struct {
	BundleHash common.Hash `json:"bundleHash"`
}

// SendBundle is eth_sendBundle.
func (a *API) SendBundle(ctx context.Context, args bundle.SendBundleArgs) (*SendBundleResult, error) {
	signer, _ := a.signer(ctx)
	h, err := a.p.Add(args, signer)
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

package bundlepool

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// API is the "eth" namespace service with eth_sendBundle and
// eth_cancelBundle.
type API struct{ p *Pool }

// APIs returns the pool's JSON-RPC services.
func (p *Pool) APIs() []rpc.API {
	return []rpc.API{{Namespace: "eth", Service: &API{p}}}
}

// SendBundleResult is eth_sendBundle's answer, as Flashbots' relay gives it
// (@flashbots/ethers-provider-bundle reads result.bundleHash).
type SendBundleResult struct {
	BundleHash common.Hash `json:"bundleHash"`
}

type rpcError struct {
	code int
	err  error
}

func (e *rpcError) Error() string  { return e.err.Error() }
func (e *rpcError) ErrorCode() int { return e.code }
func (e *rpcError) Unwrap() error  { return e.err }

// SendBundle is eth_sendBundle.
func (a *API) SendBundle(ctx context.Context, args bundle.SendBundleArgs) (*SendBundleResult, error) {
	signer, _ := reqsig.SignerFrom(ctx)
	h, err := a.p.AddFrom(args, signer, reqsig.ClientIPFrom(ctx))
	if err != nil {
		return nil, classify(err)
	}
	return &SendBundleResult{BundleHash: h}, nil
}

// CancelBundle is eth_cancelBundle({replacementUuid}); it answers with the
// hash of the bundle it removed.
func (a *API) CancelBundle(ctx context.Context, args bundle.CancelBundleArgs) (*SendBundleResult, error) {
	signer, _ := reqsig.SignerFrom(ctx)
	h, err := a.p.Cancel(args.ReplacementUUID, signer)
	if err != nil {
		return nil, classify(err)
	}
	return &SendBundleResult{BundleHash: h}, nil
}

// classify: every pool error is the caller's to fix (400), except a full
// pool or a spent quota, which are "limit exceeded" (429).
func classify(err error) error {
	if errors.Is(err, ErrPoolFull) || errors.Is(err, ErrBlockFull) || errors.Is(err, ErrQuota) {
		return &rpcError{-32005, err}
	}
	return &rpcError{-32602, err}
}

package bundle

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
)

// SignerFunc returns the verified signer of the request ctx belongs to, and
// false for an unsigned request. The transport that verified the signature
// provides it (the MEV listener's reqsig.SignerFrom).
type SignerFunc func(ctx context.Context) (common.Address, bool)

// ClientFunc returns the client IP address of the request ctx belongs to
// ("" when unknown), for the per-IP quotas (the MEV listener's
// reqsig.ClientIPFrom).
type ClientFunc func(ctx context.Context) string

package auction

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// pollInterval is how often WaitMined asks for a receipt: well below the
// slot time of a dev chain, so a command returns soon after its block, and
// tests that step slots in the background use few slots per transaction.
const pollInterval = 50 * time.Millisecond

// WaitMined waits until the transaction hash has a receipt or ctx ends.
func WaitMined(ctx context.Context, b bind.DeployBackend, hash common.Hash) (*types.Receipt, error) {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		r, err := b.TransactionReceipt(ctx, hash)
		if err == nil {
			return r, nil
		}
		// "not found" while pending; other errors (a node still indexing) are
		// retried too until ctx ends, which then reports the last one.
		last := err
		select {
		case <-ctx.Done():
			if !errors.Is(last, ethereum.NotFound) {
				return nil, errors.Join(ctx.Err(), last)
			}
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

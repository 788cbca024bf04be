package bundlepool

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/params"
)

// usageCounter counts both kinds of statistics, as the store's buffer does.
type usageCounter struct {
	counter
	gas map[common.Address]uint64
}

func (c usageCounter) AddUsage(a common.Address, u bundle.Usage) { c.gas[a] += u.GasSimulated }

// TestSimulatedGasCountedOnce: a bundle's gas simulated counts its first
// clean top-of-block simulation for its block, for its signer; rebuilds of
// the block and failed simulations add nothing.
func TestSimulatedGasCountedOnce(t *testing.T) {
	stats := usageCounter{counter{}, map[common.Address]uint64{}}
	p := New(Config{}, params.DevChainID, func() uint64 { return 1 }, stats)
	alice, bob := common.Address{0xa}, common.Address{0xb}
	add := func(signer common.Address, nonce uint64) *bundle.SendBundle {
		h, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, nonce)}, BlockNumber: 2}, signer)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Bundles(2, 0) {
			if b.Hash == h {
				return b
			}
		}
		t.Fatal("bundle not pooled")
		return nil
	}
	a, b := add(alice, 0), add(bob, 1)
	p.Considered(2, []bundle.Consideration{{Bundle: a, Simulated: true, GasUsed: 21000}, {Bundle: b, Reason: bundle.DropNonce}})
	p.Considered(2, []bundle.Consideration{{Bundle: a, Simulated: true, GasUsed: 21000, Included: true}, {Bundle: b, Simulated: true, GasUsed: 30000}})
	if stats.gas[alice] != 21000 || stats.gas[bob] != 30000 {
		t.Fatalf("gas simulated %v, want alice 21000 (once), bob 30000", stats.gas)
	}
}

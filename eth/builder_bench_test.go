package eth_test

import (
	"context"
	"crypto/sha256"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/internal/testutil"
)

// signalRelay is the in-process relay, telling the benchmark when a
// submission was taken.
type signalRelay struct {
	builder.LocalRelay
	done chan error
}

func (s signalRelay) Submit(ctx context.Context, sub *beacon.Submission) error {
	err := s.LocalRelay.Submit(ctx, sub)
	s.done <- err
	return err
}

// BenchmarkBuilderFirstBid is the builder's first bid for a slot with 200
// transfers in the mempool: from the slot's payload attributes reaching the
// builder to the in-process relay having verified and stored the bid
// (proposer lookup, building with miner/, the payment tx, signing, the
// relay's checks and simulation). The baseline in the same run is geth
// processing the same block once (Process and ValidateState on the
// parent's state: what importing it costs).
func BenchmarkBuilderFirstBid(b *testing.B) {
	n := testnode.New(b, testnode.Options{})
	n.Step()
	head := n.Step()
	r := n.Relay().Relay()
	bcfg := r.BeaconConfig()

	signer := types.LatestSignerForChainID(big.NewInt(1337))
	to := common.Address{0xbb}
	for i := 0; i < 200; i++ {
		acc := testnode.Account(i % 10)
		tx, _ := types.SignNewTx(acc.Key, signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(1337), Nonce: uint64(i / 10), GasTipCap: big.NewInt(2e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		if err := n.Client().SendTransaction(context.Background(), tx); err != nil {
			b.Fatal(err)
		}
	}
	if err := n.Engine().SyncPool(); err != nil {
		b.Fatal(err)
	}

	seed := sha256.Sum256([]byte("bench builder"))
	key, _ := beacon.DeriveSecretKey(seed[:])
	sr := signalRelay{LocalRelay: builder.LocalRelay{R: r}, done: make(chan error, 1)}
	var bld *builder.Builder
	generation := uint64(0)
	// start starts a builder whose bids differ from the earlier builders'
	// (the bonus), so the slots can be used again.
	start := func(b *testing.B) {
		if bld != nil {
			bld.Stop()
		}
		generation++
		bonus := new(uint256.Int).AddUint64(eth.DevBuilderBonus, generation)
		var err error
		if bld, err = builder.New(builder.Config{Beacon: bcfg, SecretKey: key, CoinbaseKey: chain.DevBuilderKey(), Bonus: bonus}, n.Submission().Builder()); err != nil {
			b.Fatal(err)
		}
		bld.Live(n.Chain(), sr)
		if err := bld.Start(); err != nil {
			b.Fatal(err)
		}
	}
	start(b)
	defer func() { bld.Stop() }()

	// Each iteration is a new slot on the same head, as many as the relay
	// has duties for; then a new builder starts over.
	first := bcfg.SlotAt(head.Time) + 1
	last := (first/bcfg.SlotsPerEpoch + 2) * bcfg.SlotsPerEpoch
	next := first
	bid := func(b *testing.B) {
		if next >= last {
			b.StopTimer()
			start(b)
			next = first
			b.StartTimer()
		}
		slot := next
		next++
		a := chain.PayloadAttributes{Timestamp: bcfg.SlotTime(slot), PrevRandao: common.Hash{byte(slot)}, Withdrawals: []*types.Withdrawal{}}
		b.StopTimer()
		if err := r.SetPayloadAttributes(slot, head.Hash(), relay.PayloadAttributes{Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		bld.OnAttributes(slot, head.Hash(), a)
		if err := <-sr.done; err != nil {
			b.Fatal(err)
		}
	}
	var payload *engine.ExecutableData
	b.Run("first-bid", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			bid(b)
		}
		b.ReportMetric(float64(testutil.CPUTime()-start)/float64(b.N), "cpu-ns/op")
		best := r.BestBid(next-1, beacon.Root(head.Hash()), mustProposer(b, r, next-1))
		if best == nil || len(best.Payload.View().Transactions) != 201 {
			b.Fatalf("the bid does not hold the 200 transfers and the payment")
		}
		payload = best.Payload.ToExecutableData()
	})
	b.Run("geth-import", func(b *testing.B) {
		var cpu time.Duration
		root := common.Hash{}
		for b.Loop() {
			b.StopTimer()
			// A block decoded afresh: its senders are recovered again, as
			// on a real import.
			block, err := engine.ExecutableDataToBlock(*payload, []common.Hash{}, &root, [][]byte{})
			if err != nil {
				b.Fatal(err)
			}
			start := testutil.CPUTime()
			b.StartTimer()
			err = gethProcess(n.Eth().BlockChain(), block)
			b.StopTimer()
			cpu += testutil.CPUTime() - start
			b.StartTimer()
			if err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	})
}

func mustProposer(b *testing.B, r *relay.Relay, slot uint64) beacon.BLSPubkey {
	p, ok, err := builder.LocalRelay{R: r}.Proposer(context.Background(), slot)
	if err != nil || !ok {
		b.Fatalf("no proposer for slot %d: %v", slot, err)
	}
	return p.Pubkey
}

// gethProcess is geth's own processing of a block on its parent's state
// (Processor().Process, then ValidateState), nothing written: the baseline
// of the first-bid benchmark. Test code only; production code reaches geth
// through core/chain.
func gethProcess(bc *core.BlockChain, block *types.Block) error {
	parent := bc.GetHeader(block.ParentHash(), block.NumberU64()-1)
	if parent == nil {
		return chain.ErrUnknownParent
	}
	sdb, err := bc.StateAt(parent.Root, parent.Number, parent.Time)
	if err != nil {
		return err
	}
	res, err := bc.Processor().Process(context.Background(), block, sdb, bc.JumpDestCache(), bc.PrecompileCache(), vm.Config{}, nil)
	if err != nil {
		return err
	}
	return bc.Validator().ValidateState(block, sdb, res, false)
}

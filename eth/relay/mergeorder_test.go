package relay_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// mergeRaceSlots is how many auctions TestBetaMergeOrderRandomized races,
// one slot each.
const mergeRaceSlots = 20

// TestBetaMergeOrderRandomized races, for each of many auctions, builder
// submissions to relay A (which has the beta service), submissions to a
// second instance B sharing A's database (their bids reach A through the
// database and are merged there), and payments on the L2 each followed by
// the service's read. Once everything has landed, getPayload on A must
// serve the top bid's block followed by every paid pooled bundle, in
// settlement order (unpaid bundles and paid hashes nobody pooled left
// out), and the block served must be the merge of the newest paid set.
// Without PostgreSQL the second instance is left out.
func TestBetaMergeOrderRandomized(t *testing.T) {
	var a, b *relaytest.Env
	holder := &jitteryBeta{}
	withBeta := func(c *relay.Config) { c.Beta = holder }
	if pgtest.Available() {
		url := pgtest.URL(t)
		a = instanceWith(t, url, withBeta)
		b = instance(t, url)
	} else {
		t.Log("no PostgreSQL: the second instance is left out; " + pgtest.HowTo)
		a = relaytest.New(t, relaytest.Options{Configure: withBeta})
	}
	l2 := &relaytest.Settlement{}
	svc := a.BetaService(t, l2, nil)
	holder.Service = svc
	a.RegisterAll()

	var (
		mu     sync.Mutex
		served = map[uint64]struct {
			gen   uint64
			block beacon.Root
		}{}
	)
	a.Relay.OnMerged(func(slot, gen uint64, block beacon.Root) {
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := served[slot]; ok && gen < prev.gen {
			t.Errorf("slot %d: a merge of generation %d replaced one of generation %d", slot, gen, prev.gen)
		}
		served[slot] = struct {
			gen   uint64
			block beacon.Root
		}{gen, block}
	})
	var fromB chan beacon.Root
	seenOnA := map[beacon.Root]bool{}
	if b != nil {
		fromB = installed(a)
	}

	rng := rand.New(rand.NewPCG(20, uint64(time.Now().UnixNano())))
	seed := rng.Uint64()
	t.Logf("seed %d", seed)
	rng = rand.New(rand.NewPCG(20, seed))
	ctx := context.Background()
	accounts := params.DevAccounts()[:9] // 9 is the builder's coinbase
	for slot := uint64(1); slot <= mergeRaceSlots; slot++ {
		// One single-transfer beta bundle per account, for this slot.
		type pooled struct {
			hash common.Hash
			tx   []byte
		}
		var bundles []pooled
		for _, acc := range accounts {
			to := common.Address{0xbe, byte(slot)}
			tx := types.MustSignNewTx(acc.Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
				ChainID: big.NewInt(params.DevChainID), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(int64(slot))})
			raw, _ := tx.MarshalBinary()
			s := strconv.FormatUint(slot, 10)
			h, err := svc.Pool().Add(ctx, bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &s}, common.Address{})
			if err != nil {
				t.Fatal(err)
			}
			bundles = append(bundles, pooled{h, raw})
		}
		// What the L2 will say, in this order: most bundles, in a random
		// order, and a hash nobody sent; the rest stay unpaid.
		rng.Shuffle(len(bundles), func(i, j int) { bundles[i], bundles[j] = bundles[j], bundles[i] })
		paid := bundles[:len(bundles)-2]
		payments := make([]common.Hash, 0, len(paid)+1)
		for _, p := range paid {
			payments = append(payments, p.hash)
		}
		payments = slices.Insert(payments, rng.IntN(len(payments)+1), common.Hash{0xde, 0xad, byte(slot)})

		// Alpha blocks of distinct values, built before the race.
		a.Attrs(slot)
		if b != nil {
			b.Attrs(slot)
		}
		var alphas []*relaytest.Block
		for i := range 6 {
			value := uint256.NewInt(1e15 + uint64(rng.IntN(1e6))*1e6 + uint64(i))
			alphas = append(alphas, a.BuildBlock(slot, 1+rng.IntN(3), value))
		}

		var wg sync.WaitGroup
		var bAccepted []beacon.Root
		var bMu sync.Mutex
		for i, alpha := range alphas {
			onB := b != nil && i%2 == 1
			wg.Go(func() {
				time.Sleep(time.Duration(rand.IntN(15_000)) * time.Microsecond)
				env := a
				if onB {
					env = b
				}
				out, err := env.Relay.Submit(ctx, relay.SubmitRequest{Submission: a.Submission(alpha), ReceivedAt: a.Clock.Now()})
				if err != nil {
					t.Errorf("slot %d: submission %d: %v", slot, i, err)
					return
				}
				if onB && out == relay.Accepted {
					bMu.Lock()
					bAccepted = append(bAccepted, beacon.Root(alpha.Built.Block.Hash()))
					bMu.Unlock()
				}
			})
		}
		wg.Go(func() {
			for _, h := range payments {
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				l2.Pay(slot, 21000, h)
				svc.Refresh(ctx, slot) // the service's background read
			}
		})
		wg.Wait()
		// B's bids reach A through the database; A executes the top one
		// and merges on it in the background.
		for _, h := range bAccepted {
			for !seenOnA[h] {
				select {
				case got := <-fromB:
					seenOnA[got] = true
				case <-time.After(time.Minute):
					t.Fatalf("slot %d: bid %s of B never reached A", slot, h)
				}
			}
		}
		a.Relay.WaitBackground()

		parent := beacon.Root(a.Chain.Head().Hash())
		pk := a.Proposer(slot).Key.PublicKey()
		top := a.Relay.BestBid(slot, parent, pk)
		hdr, err := a.Relay.GetHeader(ctx, slot, parent, pk)
		if err != nil || hdr == nil || top == nil {
			t.Fatalf("slot %d: getHeader %v, %v (top %v)", slot, hdr, err, top)
		}
		mu.Lock()
		last, merged := served[slot]
		mu.Unlock()
		if gen := svc.State(slot).Generation; !merged || last.gen != gen || hdr.Header().BlockHash() != last.block {
			t.Fatalf("slot %d: getHeader serves %s; the newest merge served is %s of generation %d (merged %v), the paid set's generation is %d",
				slot, hdr.Header().BlockHash(), last.block, last.gen, merged, gen)
		}
		d, err := a.Relay.GetPayload(ctx, a.BlindedBlock(slot, hdr), false)
		if err != nil {
			t.Fatalf("slot %d: getPayload: %v", slot, err)
		}
		got := d.Payload.View().Transactions
		alphaTxs := top.Payload.View().Transactions
		want := slices.Clone(alphaTxs)
		for _, p := range paid {
			want = append(want, p.tx)
		}
		if len(got) != len(want) {
			t.Fatalf("slot %d: served block has %d txs, want the top alpha's %d and the %d paid bundles", slot, len(got), len(alphaTxs), len(paid))
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("slot %d: served tx %d differs from the top alpha's txs followed by the paid bundles in settlement order", slot, i)
			}
		}
	}
}

// jitteryBeta is the beta service with a random pause between reading the
// paid set and handing back the merge, as a loaded machine would make: a
// merge of an older paid set may then end after one of a newer.
type jitteryBeta struct{ relaytest.BetaHolder }

func (j *jitteryBeta) Merge(ctx context.Context, slot uint64, v *chain.VerifiedPayload) (*miner.BetaBlock, uint64, error) {
	block, gen, err := j.BetaHolder.Merge(ctx, slot, v)
	time.Sleep(time.Duration(rand.IntN(10_000)) * time.Microsecond)
	return block, gen, err
}

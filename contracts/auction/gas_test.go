package auction_test

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/bindings/testbindings"
)

// txGasCap is the most gas one transaction may use since Osaka (EIP-7825):
// the settlement of a full auction must fit it (and so a 30M-gas block).
const txGasCap = 1 << 24

// scenario is an auction to settle: manual bids spread over as many distinct
// bidders as the registry allows (each winner costs a payment, a mint and a
// result), plus contract bidders answering maxBids bids each. Every bid fills,
// so every bidder is charged: the most expensive settlement of that size.
type scenario struct {
	manual    int // manual bids
	contracts int // contract bidders with 50 bids each besides the OpenBidder
	open      int // bids placed through the OpenBidder
}

func (s scenario) String() string {
	return fmt.Sprintf("%d manual + %d contract bids", s.manual, 50*s.contracts+s.open)
}

func (s scenario) bids() int { return s.manual + 50*s.contracts + s.open }

// supply is the gas of all bids: 20000 each, 21000 through the OpenBidder (its minimum).
func (s scenario) supply() uint64 {
	return uint64(s.manual+50*s.contracts)*20_000 + uint64(s.open)*21_000
}

// bulk sends signed transactions without waiting for each, then mines until
// all are in, so large setups take a few blocks instead of one per transaction.
type bulk struct {
	f      *fixture
	signer types.Signer
	nonces map[common.Address]uint64
	last   common.Hash
}

func newBulk(f *fixture) *bulk {
	return &bulk{f: f, signer: types.LatestSignerForChainID(f.chain.ChainID), nonces: map[common.Address]uint64{}}
}

func (b *bulk) send(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int, gas uint64) {
	b.f.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, ok := b.nonces[from]
	if !ok {
		n, err := b.f.chain.Client.PendingNonceAt(ctx, from)
		if err != nil {
			b.f.t.Fatal(err)
		}
		nonce = n
	}
	b.nonces[from] = nonce + 1
	tx := types.MustSignNewTx(key, b.signer, &types.DynamicFeeTx{
		ChainID: b.f.chain.ChainID, Nonce: nonce, GasTipCap: gwei, GasFeeCap: gweis(100),
		Gas: gas, To: &to, Value: value, Data: data,
	})
	// Through the backend's own client: the auto-committing one would mine each.
	if err := b.f.chain.Backend.Client().SendTransaction(ctx, tx); err != nil {
		b.f.t.Fatal(err)
	}
	b.last = tx.Hash()
}

// mine commits blocks until every transaction sent is mined and succeeded.
func (b *bulk) mine() {
	b.f.t.Helper()
	for i := 0; i < 100; i++ {
		b.f.chain.Backend.Commit()
		if r, err := b.f.chain.Client.TransactionReceipt(ctx, b.last); err == nil {
			if r.Status != types.ReceiptStatusSuccessful {
				b.f.t.Fatalf("bulk transaction %s failed", b.last)
			}
			return
		}
	}
	b.f.t.Fatal("bulk transactions not mined after 100 blocks")
}

// settleGas builds scenario s in a fresh chain and returns the gas runAndSettle used.
func settleGas(t testing.TB, s scenario) uint64 {
	const slot, gasPerBid = 500, 20_000
	bidders := min(s.manual, 254-s.contracts) // ids: OpenBidder + contracts + EOAs <= 255
	f := newFixture(t, bidders)
	a, w, sb := bindings.NewAuctioneer(), bindings.NewWETH(), testbindings.NewScriptedBidder()
	owner := f.chain.Dev[0].Key
	f.open(slot, s.supply())

	b := newBulk(f)
	for i := 0; i < bidders; i++ {
		b.send(owner, f.addrs.Auctioneer, a.PackNewBidder(f.chain.Extra[i].Address), nil, 200_000)
	}
	b.mine()
	for i := 0; i < bidders; i++ {
		key := f.chain.Extra[i].Key
		b.send(key, f.addrs.WETH, w.PackDeposit(), ethers(10), 100_000)
		b.send(key, f.addrs.WETH, w.PackApprove(f.addrs.Auctioneer, new(big.Int).Lsh(big.NewInt(1), 255)), nil, 100_000)
	}
	b.mine()
	// Prices spread so the heap has work to do: bid k pays 1 + (k*7919 mod 1000) gwei.
	price := func(k int) *big.Int { return gweis(int64(1 + (k*7919)%1000)) }
	perBidder := make([][]*big.Int, bidders)
	for k := 0; k < s.manual; k++ {
		i := k % bidders
		perBidder[i] = append(perBidder[i], packed(t, price(k), gasPerBid, uint8(i+2+s.contracts)))
	}
	for c := 0; c < s.contracts; c++ {
		addr, id := f.deployScripted(10)
		bids := make([]*big.Int, 50)
		for j := range bids {
			bids[j] = packed(t, price(s.manual+50*c+j), gasPerBid, id)
		}
		if err := f.raw(owner, addr, sb.PackSetBids(big64(slot), bids)); err != nil {
			t.Fatal(err)
		}
	}
	ob := bindings.NewOpenBidder()
	for k := 0; k < s.open; k++ {
		pr := price(s.manual + 50*s.contracts + k)
		var h common.Hash
		h[0], h[31] = 1, byte(k)
		b.send(f.chain.Dev[1+k%9].Key, f.addrs.OpenBidder, ob.PackOpenBid(big64(slot), pr, big64(21_000), h), mul(pr, 21_000), 400_000)
	}
	for i := 0; i < bidders; i++ {
		id, _ := f.admin.BidderID(ctx, f.chain.Extra[i].Address)
		if int(id) != i+2+s.contracts && s.contracts == 0 {
			t.Fatalf("bidder %d has id %d", i, id)
		}
		for j := range perBidder[i] {
			perBidder[i][j] = new(big.Int).Or(new(big.Int).AndNot(perBidder[i][j], big.NewInt(0xff)), big.NewInt(int64(id)))
		}
		b.send(f.chain.Extra[i].Key, f.addrs.Auctioneer, a.PackBid(big64(slot), perBidder[i]), nil, 100_000+60_000*uint64(len(perBidder[i])))
	}
	b.mine()

	r := f.settle(slot)
	st, err := f.admin.Auction(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	if want := s.supply(); st.ItemsSold.Uint64() != want {
		t.Fatalf("%v: sold %v, want every bid filled (%d)", s, st.ItemsSold, want)
	}
	return r.GasUsed
}

// maxScenario is the largest auction the contracts accept: MAX_BIDS_PER_SLOT
// manual bids from 247 bidders, seven contract bidders and the OpenBidder with
// maxBids (50) bids each; 255 bidders, every bid winning.
var maxScenario = scenario{manual: 900, contracts: 7, open: 50}

// TestFullAuctionFitsBlock settles the largest auction: it must fit one
// transaction under the Osaka per-transaction cap (EIP-7825), itself below a
// 30M-gas block.
func TestFullAuctionFitsBlock(t *testing.T) {
	used := settleGas(t, maxScenario)
	t.Logf("runAndSettle, %v: %d gas", maxScenario, used)
	if used > txGasCap {
		t.Fatalf("runAndSettle used %d gas, more than the %d-gas transaction cap", used, txGasCap)
	}
}

// BenchmarkRunAndSettleGas reports the gas runAndSettle uses (gas/op) at 1,
// 50, 500 bids and at the maximum; the wall time is the whole setup, not a figure.
func BenchmarkRunAndSettleGas(b *testing.B) {
	for _, s := range benchScenarios {
		b.Run(s.String(), func(b *testing.B) {
			var used uint64
			for i := 0; i < b.N; i++ {
				used = settleGas(b, s)
			}
			b.ReportMetric(float64(used), "gas/op")
			b.ReportMetric(float64(used)/float64(s.bids()), "gas/bid")
		})
	}
}

var benchScenarios = []scenario{{manual: 1}, {manual: 50}, {manual: 500}, {manual: 900}, maxScenario}

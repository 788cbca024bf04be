package auction_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
)

// TestOpenBidderEndToEnd: users without a bidder seat bid through the
// OpenBidder, which wins gas in the auction, pays each filled bid's bundle hash
// in the SettlementHouse and returns the unspent ether.
func TestOpenBidderEndToEnd(t *testing.T) {
	f := newFixture(t, 0)
	ob := bindings.NewOpenBidder()
	const slot = 300
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	u1, u2, u3 := f.chain.Dev[4], f.chain.Dev[5], f.chain.Dev[6]
	h1, h2, h3 := common.HexToHash("0xa1"), common.HexToHash("0xa2"), common.HexToHash("0xa3")
	openBid := func(key int, price *big.Int, gas uint64, h common.Hash) error {
		_, err := f.rawValue(f.chain.Dev[key].Key, f.addrs.OpenBidder, ob.PackOpenBid(big64(slot), price, big64(gas), h), mul(price, gas))
		return err
	}

	// Bids may come before the auction opens.
	if err := openBid(4, gweis(8), 100_000, h1); err != nil {
		t.Fatal(err)
	}
	f.open(slot, 250_000)
	if err := openBid(5, gweis(6), 100_000, h2); err != nil {
		t.Fatal(err)
	}
	if err := openBid(6, gweis(2), 50_000, h3); err != nil {
		t.Fatal(err)
	}
	if err := openBid(6, gweis(9), 30_000, h3); err != nil { // bid id 3, cancelled below
		t.Fatal(err)
	}
	f.bid(alice, slot, auction.Bid{Price: gweis(5), Gas: 100_000})

	// Validation.
	_, err := f.rawValue(u1.Key, f.addrs.OpenBidder, ob.PackOpenBid(big64(slot), gweis(1), big64(50_000), h1), gweis(1))
	wantRevert(t, err, "WrongValue")
	wantRevert(t, openBid(4, gweis(1), 20_999, h1), "InvalidBid")
	wantRevert(t, openBid(4, gweis(1), 250_001, h1), "InvalidBid")
	wantRevert(t, openBid(4, gweis(1), 50_000, common.Hash{}), "InvalidBid")
	wantRevert(t, f.raw(u1.Key, f.addrs.OpenBidder, ob.PackCancelBid(big64(3))), "NotBidOwner")
	if err := f.raw(u3.Key, f.addrs.OpenBidder, ob.PackCancelBid(big64(3))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, f.raw(u3.Key, f.addrs.OpenBidder, ob.PackCancelBid(big64(3))), "BidNotOpen")
	wantRevert(t, f.raw(u1.Key, f.addrs.OpenBidder, ob.PackSubmitBundles(big64(slot))), "AuctionNotSettled")

	// u1 8 gwei (100k) and u2 6 gwei (100k) fill before alice's 5 gwei, which
	// gets the 50k left; u3's 2 gwei gets nothing. Clearing price 5 gwei.
	f.settle(slot)
	if items, owed := f.result(slot, f.addrs.OpenBidder); items != 200_000 || owed.Cmp(mul(gweis(5), 200_000)) != 0 {
		t.Fatalf("OpenBidder bought %d for %v, want 200000 at 5 gwei", items, owed)
	}
	wantRevert(t, openBid(4, gweis(8), 100_000, h1), "AuctionSettled")

	if err := f.raw(f.chain.Dev[9].Key, f.addrs.OpenBidder, ob.PackSubmitBundles(big64(slot))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, f.raw(f.chain.Dev[9].Key, f.addrs.OpenBidder, ob.PackSubmitBundles(big64(slot))), "AlreadyProcessed")
	bundles, err := f.admin.Bundles(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	if len(bundles) != 2 || bundles[0].BundleHashes[0] != h1 || bundles[0].AmountOfGas.Uint64() != 100_000 ||
		bundles[1].BundleHashes[0] != h2 || bundles[1].AmountOfGas.Uint64() != 100_000 || bundles[0].Submitter != f.addrs.OpenBidder {
		t.Fatalf("queryBundles = %+v", bundles)
	}
	if got := f.gasTokens(f.addrs.OpenBidder, slot); got != 0 {
		t.Errorf("OpenBidder kept %d tokens", got)
	}

	// Unspent ether: deposit minus gas won × 5 gwei; u3 gets both deposits back.
	want := map[common.Address]*big.Int{
		u1.Address: mul(gweis(3), 100_000),
		u2.Address: mul(gweis(1), 100_000),
		u3.Address: new(big.Int).Add(mul(gweis(2), 50_000), mul(gweis(9), 30_000)),
	}
	for who, w := range want {
		got, err := owedBy(f, ob, who)
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(w) != 0 {
			t.Errorf("%s is owed %v, want %v", who, got, w)
		}
	}
	before, _ := f.chain.Client.BalanceAt(ctx, u1.Address, nil)
	r, err := f.rawValue(u1.Key, f.addrs.OpenBidder, ob.PackWithdraw(), nil)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := f.chain.Client.BalanceAt(ctx, u1.Address, nil)
	fee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
	if got := new(big.Int).Sub(after, before); got.Cmp(new(big.Int).Sub(want[u1.Address], fee)) != 0 {
		t.Errorf("u1 withdrew %v (after fee %v), want %v", got, fee, want[u1.Address])
	}
	wantRevert(t, f.raw(u1.Key, f.addrs.OpenBidder, ob.PackWithdraw()), "NothingToWithdraw")

	// A missed slot: the Auctioneer refunds the OpenBidder, which credits its users.
	const missed = 301
	f.open(missed, 100_000)
	if _, err := f.rawValue(u2.Key, f.addrs.OpenBidder, ob.PackOpenBid(big64(missed), gweis(3), big64(40_000), h2), mul(gweis(3), 40_000)); err != nil {
		t.Fatal(err)
	}
	f.settle(missed)
	if err := f.raw(u2.Key, f.addrs.OpenBidder, ob.PackSubmitBundles(big64(missed))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, f.raw(u2.Key, f.addrs.OpenBidder, ob.PackClaimRefund(big64(missed))), "NotRefundable")
	if _, err := f.admin.Refund(ctx, missed); err != nil {
		t.Fatal(err)
	}
	owedBefore, _ := owedBy(f, ob, u2.Address)
	if err := f.raw(u2.Key, f.addrs.OpenBidder, ob.PackClaimRefund(big64(missed))); err != nil {
		t.Fatal(err)
	}
	owedAfter, _ := owedBy(f, ob, u2.Address)
	if got := new(big.Int).Sub(owedAfter, owedBefore); got.Cmp(mul(gweis(3), 40_000)) != 0 {
		t.Errorf("refund credited %v, want %v", got, mul(gweis(3), 40_000))
	}
}

func owedBy(f *fixture, ob *bindings.OpenBidder, who common.Address) (*big.Int, error) {
	out, err := f.chain.Client.CallContract(ctx, callMsg(f.addrs.OpenBidder, ob.PackOwed(who)), nil)
	if err != nil {
		return nil, err
	}
	return ob.UnpackOwed(out)
}

func TestOpenBidderSlotLimit(t *testing.T) {
	f := newFixture(t, 0)
	ob := bindings.NewOpenBidder()
	const slot = 310
	bid := func(k int) error {
		var h common.Hash
		h[0], h[1] = 1, byte(k)
		_, err := f.rawValue(f.chain.Dev[1+k%9].Key, f.addrs.OpenBidder, ob.PackOpenBid(big64(slot), gwei, big64(21_000), h), mul(gwei, 21_000))
		return err
	}
	for k := 0; k < 50; k++ {
		if err := bid(k); err != nil {
			t.Fatalf("bid %d: %v", k, err)
		}
	}
	re := wantRevert(t, bid(50), "SlotFull")
	if re.Args[1].Value.(*big.Int).Uint64() != 50 {
		t.Errorf("SlotFull max = %v, want 50", re.Args[1].Value)
	}
	// Raising the Auctioneer's maxBids does not raise the OpenBidder's cap,
	// whose getBid must stay within its gas budget.
	if err := f.raw(f.chain.Dev[0].Key, f.addrs.Auctioneer, bindings.NewAuctioneer().PackUpdateMaxBids(big.NewInt(100))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, bid(51), "SlotFull")
	f.open(slot, 2_000_000)
	r := f.settle(slot)
	if skippedBidders(r)[f.addrs.OpenBidder] {
		t.Fatal("the OpenBidder with 50 bids was skipped")
	}
	if items, _ := f.result(slot, f.addrs.OpenBidder); items != 50*21_000 {
		t.Errorf("OpenBidder bought %d, want %d", items, 50*21_000)
	}
}

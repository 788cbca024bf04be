package auction_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
)

func TestRegistryAndAccessControl(t *testing.T) {
	f := newFixture(t, 0)
	stranger := f.dev(5)
	a := bindings.NewAuctioneer()

	// The deployment registered the OpenBidder as bidder 1.
	if id, err := f.admin.BidderID(ctx, f.addrs.OpenBidder); err != nil || id != 1 {
		t.Fatalf("OpenBidder id = %d, %v; want 1", id, err)
	}
	id, _, err := f.admin.AddBidder(ctx, f.chain.Dev[1].Address)
	if err != nil || id != 2 {
		t.Fatalf("first bidder id = %d, %v; want 2", id, err)
	}
	_, _, err = f.admin.AddBidder(ctx, f.chain.Dev[1].Address)
	wantRevert(t, err, "BidderAlreadyExists")
	_, _, err = f.admin.AddBidder(ctx, common.Address{})
	wantRevert(t, err, "InvalidAddress")

	// Owner-only and operator-only functions refuse everyone else.
	_, _, err = stranger.AddBidder(ctx, f.chain.Dev[6].Address)
	wantRevert(t, err, "Unauthorized")
	_, err = stranger.RemoveBidder(ctx, 2)
	wantRevert(t, err, "Unauthorized")
	_, err = stranger.OpenAuction(ctx, 10, 1_000_000)
	wantRevert(t, err, "Unauthorized")
	f.open(10, 1_000_000)
	_, err = stranger.Settle(ctx, 10)
	wantRevert(t, err, "Unauthorized")
	f.settle(10)
	_, err = stranger.Payout(ctx, 10)
	wantRevert(t, err, "Unauthorized")
	_, err = stranger.Refund(ctx, 10)
	wantRevert(t, err, "Unauthorized")
	for name, data := range map[string][]byte{
		"updateMaxBids":      a.PackUpdateMaxBids(big.NewInt(10)),
		"updateMinGasAmount": a.PackUpdateMinGasAmount(big.NewInt(10)),
		"changeOperator":     a.PackChangeOperator(stranger.From()),
		"updateAccountant":   a.PackUpdateAccountant(stranger.From()),
	} {
		if err := f.raw(f.chain.Dev[5].Key, f.addrs.Auctioneer, data); err == nil {
			t.Errorf("%s by a stranger succeeded", name)
		} else {
			wantRevert(t, err, "Unauthorized")
		}
	}

	// Removing frees the id; the next bidder gets the lowest free id.
	if _, err := f.admin.RemoveBidder(ctx, 2); err != nil {
		t.Fatal(err)
	}
	_, err = f.admin.RemoveBidder(ctx, 2)
	wantRevert(t, err, "InvalidId")
	if id, _ := f.admin.BidderID(ctx, f.chain.Dev[1].Address); id != 0 {
		t.Fatalf("removed bidder still has id %d", id)
	}
	if id, _, err := f.admin.AddBidder(ctx, f.chain.Dev[3].Address); err != nil || id != 2 {
		t.Fatalf("id after removal = %d, %v; want 2", id, err)
	}

	// Two-step ownership: only the proposed owner can accept.
	if err := f.raw(f.chain.Dev[0].Key, f.addrs.Auctioneer, a.PackTransferOwnership(f.chain.Dev[7].Address)); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, f.raw(f.chain.Dev[5].Key, f.addrs.Auctioneer, a.PackAcceptOwnership()), "Unauthorized")
	if err := f.raw(f.chain.Dev[7].Key, f.addrs.Auctioneer, a.PackAcceptOwnership()); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.admin.AddBidder(ctx, f.chain.Dev[8].Address)
	wantRevert(t, err, "Unauthorized")
	if _, _, err := f.dev(7).AddBidder(ctx, f.chain.Dev[8].Address); err != nil {
		t.Fatal(err)
	}
}

func TestBidderLimit(t *testing.T) {
	f := newFixture(t, 255)
	// The OpenBidder holds id 1; 254 more fill the registry.
	for i := 0; i < 254; i++ {
		if _, _, err := f.admin.AddBidder(ctx, f.chain.Extra[i].Address); err != nil {
			t.Fatalf("bidder %d: %v", i+2, err)
		}
	}
	_, _, err := f.admin.AddBidder(ctx, f.chain.Extra[254].Address)
	wantRevert(t, err, "BidderLimitReached")
}

func TestBidValidation(t *testing.T) {
	f := newFixture(t, 0)
	const slot, supply = 7, 1_000_000
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	bob := f.bidder(f.chain.Dev[2].Key, 10)
	poor := f.bidder(f.chain.Dev[3].Key, 0)
	a := bindings.NewAuctioneer()
	aliceID, _ := f.admin.BidderID(ctx, alice.From())
	bobID, _ := f.admin.BidderID(ctx, bob.From())
	pack := func(price *big.Int, gas uint64, id uint8) *big.Int {
		p, err := (auction.Bid{Price: price, Gas: gas, BidderID: id}).Pack()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	rawBid := func(who int, s uint64, bids ...*big.Int) error {
		return f.raw(f.chain.Dev[who].Key, f.addrs.Auctioneer, a.PackBid(big64(s), bids))
	}

	wantRevert(t, rawBid(1, slot, pack(gwei, 50_000, aliceID)), "AuctionNotOpen")
	f.open(slot, supply)
	_, err := f.admin.OpenAuction(ctx, slot, supply)
	wantRevert(t, err, "AuctionAlreadyOpen")
	_, err = f.admin.OpenAuction(ctx, slot+1, 0)
	wantRevert(t, err, "InvalidItemsForSale")

	wantRevert(t, rawBid(4, slot, pack(gwei, 50_000, 9)), "BidderNotRegistered")
	wantRevert(t, rawBid(1, slot), "NoBids")
	wantRevert(t, rawBid(1, slot, pack(gwei, 50_000, bobID)), "InvalidId")
	zeroPrice := new(big.Int).Lsh(big64(50_000), 8)
	zeroPrice.Or(zeroPrice, big.NewInt(int64(aliceID)))
	wantRevert(t, rawBid(1, slot, zeroPrice), "InvalidBidPrice")
	re := wantRevert(t, rawBid(1, slot, pack(gwei, 19_999, aliceID)), "InvalidBidItems")
	if re.Args[1].Value.(*big.Int).Uint64() != 20_000 {
		t.Errorf("InvalidBidItems min = %v, want 20000", re.Args[1].Value)
	}
	wantRevert(t, rawBid(1, slot, pack(gwei, supply+1, aliceID)), "InvalidBidItems")
	// Exactly the minimum and exactly the supply are fine.
	if err := rawBid(1, slot, pack(gwei, 20_000, aliceID), pack(gwei, supply, aliceID)); err != nil {
		t.Fatal(err)
	}

	// Funds: the bids of a slot together must be covered by balance and allowance.
	wantRevert(t, rawBid(3, slot, pack(gwei, 50_000, 4)), "InsufficientFunds")
	tooDear := new(big.Int).Div(ethers(10), big64(50_000)) // 10 ether for 50k gas...
	tooDear.Add(tooDear, big.NewInt(1))                    // ...plus one wei per gas
	wantRevert(t, rawBid(2, slot, pack(tooDear, 50_000, bobID)), "InsufficientFunds")
	if err := f.raw(f.chain.Dev[2].Key, f.addrs.WETH, bindings.NewWETH().PackApprove(f.addrs.Auctioneer, big.NewInt(0))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, rawBid(2, slot, pack(gwei, 50_000, bobID)), "InsufficientFunds")
	_ = poor

	// maxBids per bidder per slot, one past the limit.
	if err := f.raw(f.chain.Dev[0].Key, f.addrs.Auctioneer, a.PackUpdateMaxBids(big.NewInt(3))); err != nil {
		t.Fatal(err)
	}
	if err := rawBid(1, slot, pack(gwei, 20_000, aliceID)); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, rawBid(1, slot, pack(gwei, 20_000, aliceID)), "TooManyBids")
	wantRevert(t, f.raw(f.chain.Dev[0].Key, f.addrs.Auctioneer, a.PackUpdateMaxBids(big.NewInt(101))), "InvalidMaxBids")

	// After settlement no more bids.
	f.settle(slot)
	wantRevert(t, rawBid(1, slot, pack(gwei, 20_000, aliceID)), "AuctionAlreadySettled")
	_, err = f.admin.Settle(ctx, slot)
	wantRevert(t, err, "AuctionAlreadySettled")
	_, err = f.admin.OpenAuction(ctx, slot, supply)
	wantRevert(t, err, "AuctionAlreadySettled")
	_, err = f.admin.Settle(ctx, slot+5)
	wantRevert(t, err, "AuctionNotOpen")
}

func TestSlotBidCap(t *testing.T) {
	f := newFixture(t, 10)
	a := bindings.NewAuctioneer()
	if err := f.raw(f.chain.Dev[0].Key, f.addrs.Auctioneer, a.PackUpdateMaxBids(big.NewInt(100))); err != nil {
		t.Fatal(err)
	}
	out, err := f.chain.Client.CallContract(ctx, callMsg(f.addrs.Auctioneer, a.PackMAXBIDSPERSLOT()), nil)
	if err != nil {
		t.Fatal(err)
	}
	limit, _ := a.UnpackMAXBIDSPERSLOT(out)
	const slot = 3
	f.open(slot, 5_000_000)
	placed := 0
	for i := 0; placed < int(limit.Int64()); i++ {
		c := f.bidder(f.chain.Extra[i].Key, 10)
		bids := make([]auction.Bid, min(100, int(limit.Int64())-placed))
		for j := range bids {
			bids[j] = auction.Bid{Price: gweis(1), Gas: 20_000}
		}
		f.bid(c, slot, bids...)
		placed += len(bids)
	}
	last := f.bidder(f.chain.Extra[9].Key, 10)
	_, err = last.PlaceBids(ctx, slot, []auction.Bid{{Price: gweis(1), Gas: 20_000}})
	wantRevert(t, err, "AuctionFull")
}

func TestUndersubscribedAuction(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 100
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	bob := f.bidder(f.chain.Dev[2].Key, 10)
	f.open(slot, 1_000_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(10), Gas: 100_000})
	f.bid(bob, slot, auction.Bid{Price: gweis(5), Gas: 200_000})
	aliceBefore, bobBefore := f.weth(alice.From()), f.weth(bob.From())
	f.settle(slot)

	st, err := f.admin.Auction(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	if st.IsOpen || !st.IsSettled || st.ClearingPrice.Cmp(gweis(5)) != 0 || st.ItemsSold.Uint64() != 300_000 {
		t.Fatalf("auction state %+v; want settled at 5 gwei with 300000 sold", st)
	}
	// Uniform price: both pay the lowest filled price.
	for _, c := range []struct {
		who    *auction.Client
		before *big.Int
		gas    uint64
	}{{alice, aliceBefore, 100_000}, {bob, bobBefore, 200_000}} {
		items, owed := f.result(slot, c.who.From())
		wantOwed := mul(gweis(5), c.gas)
		if items != c.gas || owed.Cmp(wantOwed) != 0 {
			t.Errorf("%s: bought %d owing %v; want %d owing %v", c.who.From(), items, owed, c.gas, wantOwed)
		}
		if got := f.gasTokens(c.who.From(), slot); got != c.gas {
			t.Errorf("%s holds %d gas tokens, want %d", c.who.From(), got, c.gas)
		}
		if paid := new(big.Int).Sub(c.before, f.weth(c.who.From())); paid.Cmp(wantOwed) != 0 {
			t.Errorf("%s paid %v WETH, want %v", c.who.From(), paid, wantOwed)
		}
	}
	if got := f.weth(f.addrs.Auctioneer); got.Cmp(mul(gweis(5), 300_000)) != 0 {
		t.Errorf("Auctioneer holds %v WETH, want %v", got, mul(gweis(5), 300_000))
	}
}

func TestOversubscribedWithPartialMarginalBid(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 101
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	bob := f.bidder(f.chain.Dev[2].Key, 10)
	carol := f.bidder(f.chain.Dev[3].Key, 10)
	f.open(slot, 250_000)
	f.bid(carol, slot, auction.Bid{Price: gweis(3), Gas: 100_000})
	f.bid(bob, slot, auction.Bid{Price: gweis(5), Gas: 200_000})
	f.bid(alice, slot, auction.Bid{Price: gweis(10), Gas: 100_000}, auction.Bid{Price: gweis(2), Gas: 50_000})
	f.settle(slot)

	want := map[common.Address]uint64{alice.From(): 100_000, bob.From(): 150_000, carol.From(): 0}
	for who, gas := range want {
		items, owed := f.result(slot, who)
		if items != gas || owed.Cmp(mul(gweis(5), gas)) != 0 {
			t.Errorf("%s: bought %d owing %v; want %d at 5 gwei", who, items, owed, gas)
		}
		if got := f.gasTokens(who, slot); got != gas {
			t.Errorf("%s holds %d tokens, want %d", who, got, gas)
		}
	}
	st, _ := f.admin.Auction(ctx, slot)
	if st.ItemsSold.Uint64() != 250_000 || st.ClearingPrice.Cmp(gweis(5)) != 0 {
		t.Errorf("sold %v at %v; want 250000 at 5 gwei", st.ItemsSold, st.ClearingPrice)
	}
}

func TestTiesFillByArrival(t *testing.T) {
	for _, aliceFirst := range []bool{true, false} {
		f := newFixture(t, 0)
		const slot = 102
		alice := f.bidder(f.chain.Dev[1].Key, 10)
		bob := f.bidder(f.chain.Dev[2].Key, 10)
		f.open(slot, 150_000)
		first, second := alice, bob
		if !aliceFirst {
			first, second = bob, alice
		}
		f.bid(first, slot, auction.Bid{Price: gweis(7), Gas: 100_000})
		f.bid(second, slot, auction.Bid{Price: gweis(7), Gas: 100_000})
		f.settle(slot)
		if items, _ := f.result(slot, first.From()); items != 100_000 {
			t.Errorf("aliceFirst=%v: first bidder got %d, want 100000", aliceFirst, items)
		}
		if items, owed := f.result(slot, second.From()); items != 50_000 || owed.Cmp(mul(gweis(7), 50_000)) != 0 {
			t.Errorf("aliceFirst=%v: second bidder got %d for %v, want 50000 at 7 gwei", aliceFirst, items, owed)
		}
	}
}

func TestBidderThatCannotPayIsSkipped(t *testing.T) {
	for _, how := range []string{"no WETH", "no allowance"} {
		t.Run(how, func(t *testing.T) {
			f := newFixture(t, 0)
			const slot = 103
			alice := f.bidder(f.chain.Dev[1].Key, 10)
			bob := f.bidder(f.chain.Dev[2].Key, 10)
			f.open(slot, 100_000)
			f.bid(alice, slot, auction.Bid{Price: gweis(10), Gas: 100_000})
			f.bid(bob, slot, auction.Bid{Price: gweis(4), Gas: 100_000})
			// Alice's funds go away after she bid.
			w := bindings.NewWETH()
			var data []byte
			if how == "no WETH" {
				data = w.PackWithdraw(ethers(10))
			} else {
				data = w.PackApprove(f.addrs.Auctioneer, big.NewInt(0))
			}
			if err := f.raw(f.chain.Dev[1].Key, f.addrs.WETH, data); err != nil {
				t.Fatal(err)
			}
			r := f.settle(slot)

			if items, owed := f.result(slot, alice.From()); items != 0 || owed.Sign() != 0 {
				t.Errorf("alice bought %d for %v, want nothing", items, owed)
			}
			if items, owed := f.result(slot, bob.From()); items != 100_000 || owed.Cmp(mul(gweis(4), 100_000)) != 0 {
				t.Errorf("bob bought %d for %v, want 100000 at 4 gwei", items, owed)
			}
			skipped := 0
			a := bindings.NewAuctioneer()
			for _, l := range r.Logs {
				if ev, err := a.UnpackBidSkippedEvent(l); err == nil && ev.Bidder == alice.From() {
					skipped++
				}
			}
			if skipped != 1 {
				t.Errorf("%d BidSkipped events for alice, want 1", skipped)
			}
		})
	}
}

func TestGetBidderInfoReverts(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 104
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	f.open(slot, 100_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(1), Gas: 50_000})
	_, err := f.admin.BidderInfo(ctx, slot, alice.From())
	wantRevert(t, err, "AuctionNotSettled")
	f.settle(slot)
	if items, _ := f.result(slot, alice.From()); items != 50_000 {
		t.Fatalf("alice bought %d, want 50000", items)
	}
	_, err = f.admin.BidderInfo(ctx, slot, f.chain.Dev[2].Address)
	wantRevert(t, err, "BidderNotParticipating")
}

func TestRemovedBidderBidsAreIgnored(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 105
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	bob := f.bidder(f.chain.Dev[2].Key, 10)
	f.open(slot, 100_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(9), Gas: 100_000})
	f.bid(bob, slot, auction.Bid{Price: gweis(3), Gas: 100_000})
	aliceID, _ := f.admin.BidderID(ctx, alice.From())
	if _, err := f.admin.RemoveBidder(ctx, aliceID); err != nil {
		t.Fatal(err)
	}
	// Carol takes Alice's id; she must not inherit Alice's bids in this slot.
	carol := f.bidder(f.chain.Dev[3].Key, 10)
	if id, _ := f.admin.BidderID(ctx, carol.From()); id != aliceID {
		t.Fatalf("carol got id %d, want the freed %d", id, aliceID)
	}
	_, err := carol.PlaceBids(ctx, slot, []auction.Bid{{Price: gweis(1), Gas: 20_000}})
	wantRevert(t, err, "InvalidId")
	f.settle(slot)
	if items, _ := f.result(slot, bob.From()); items != 100_000 {
		t.Errorf("bob bought %d, want 100000", items)
	}
	for _, who := range []common.Address{alice.From(), carol.From()} {
		_, err := f.admin.BidderInfo(ctx, slot, who)
		wantRevert(t, err, "BidderNotParticipating")
	}
}

func TestSubmitBundleBurnsTokens(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 106
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	f.open(slot, 500_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(2), Gas: 100_000})
	f.settle(slot)

	h1, h2 := common.HexToHash("0x01"), common.HexToHash("0xbeef")
	if _, err := alice.Pay(ctx, slot, 30_000, []common.Hash{h1, h2}); err != nil {
		t.Fatal(err)
	}
	if got := f.gasTokens(alice.From(), slot); got != 70_000 {
		t.Errorf("alice holds %d tokens after paying 30000, want 70000", got)
	}
	if got := f.gasTokens(f.addrs.SettlementHouse, slot); got != 0 {
		t.Errorf("the house kept %d tokens; they must be burned", got)
	}
	bundles, err := f.admin.Bundles(ctx, slot)
	if err != nil {
		t.Fatal(err)
	}
	if len(bundles) != 1 || bundles[0].Submitter != alice.From() || bundles[0].AmountOfGas.Uint64() != 30_000 ||
		len(bundles[0].BundleHashes) != 2 || bundles[0].BundleHashes[0] != h1 || bundles[0].BundleHashes[1] != h2 {
		t.Fatalf("queryBundles = %+v", bundles)
	}
	if other, _ := f.admin.Bundles(ctx, slot+1); len(other) != 0 {
		t.Errorf("another slot has %d bundles", len(other))
	}

	_, err = alice.Pay(ctx, slot, 80_000, []common.Hash{h1})
	wantRevert(t, err, "InsufficientBalance")
	_, err = alice.Pay(ctx, slot, 20_999, []common.Hash{h1})
	wantRevert(t, err, "BundleGasTooLow")
	h := bindings.NewSettlementHouse()
	wantRevert(t, f.raw(f.chain.Dev[1].Key, f.addrs.SettlementHouse, h.PackSubmitBundle(big64(slot), big64(21_000), nil)), "NoBundleHashes")
	wantRevert(t, f.raw(f.chain.Dev[1].Key, f.addrs.SettlementHouse, h.PackSubmitBundle(big64(slot), big64(21_000), [][32]byte{{}})), "ZeroBundleHash")
	many := make([][32]byte, 65)
	for i := range many {
		many[i][0] = 1
	}
	wantRevert(t, f.raw(f.chain.Dev[1].Key, f.addrs.SettlementHouse, h.PackSubmitBundle(big64(slot), big64(21_000), many)), "TooManyBundleHashes")
	// Without approval the house may not take the tokens.
	if err := f.raw(f.chain.Dev[1].Key, f.addrs.Auctioneer, bindings.NewAuctioneer().PackApprove(f.addrs.SettlementHouse, big64(slot), big.NewInt(0))); err != nil {
		t.Fatal(err)
	}
	wantRevert(t, f.raw(f.chain.Dev[1].Key, f.addrs.SettlementHouse, h.PackSubmitBundle(big64(slot), big64(21_000), [][32]byte{h1})), "InsufficientPermission")
}

func TestPayoutAndRefund(t *testing.T) {
	f := newFixture(t, 0)
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	bob := f.bidder(f.chain.Dev[2].Key, 10)
	validator := f.chain.Dev[8].Address
	owner := f.chain.Dev[0].Address
	for _, slot := range []uint64{200, 201} {
		f.open(slot, 100_000)
		f.bid(alice, slot, auction.Bid{Price: gweis(10), Gas: 60_000})
		f.bid(bob, slot, auction.Bid{Price: gweis(10), Gas: 60_000})
	}
	_, err := f.admin.Payout(ctx, 200)
	wantRevert(t, err, "AuctionNotClosed")
	_, err = f.admin.Refund(ctx, 200)
	wantRevert(t, err, "AuctionNotClosed")
	f.settle(200)
	f.settle(201)
	proceeds := mul(gweis(10), 100_000)

	// Slot 200 landed: proceeds to the Accountant, 1% fee to the owner, the rest
	// to the reward address set (here after the payout: the share waits for it).
	if _, err := f.admin.Payout(ctx, 200); err != nil {
		t.Fatal(err)
	}
	if got := f.weth(f.addrs.Accountant); got.Cmp(proceeds) != 0 {
		t.Fatalf("Accountant holds %v, want %v", got, proceeds)
	}
	_, err = f.admin.Payout(ctx, 200)
	wantRevert(t, err, "AuctionAlreadyFinalized")
	_, err = f.admin.Refund(ctx, 200)
	wantRevert(t, err, "AuctionAlreadyFinalized")
	if _, err := f.dev(5).SetValidatorRewardAddress(ctx, 200, validator); err == nil {
		t.Fatal("a stranger set the reward address")
	} else {
		wantRevert(t, err, "Unauthorized")
	}
	if _, err := f.admin.SetValidatorRewardAddress(ctx, 200, validator); err != nil {
		t.Fatal(err)
	}
	fee := new(big.Int).Div(proceeds, big.NewInt(100))
	if got, _ := f.admin.AccountantBalance(ctx, owner); got.Cmp(fee) != 0 {
		t.Errorf("admin fee %v, want %v", got, fee)
	}
	share := new(big.Int).Sub(proceeds, fee)
	if got, _ := f.admin.AccountantBalance(ctx, validator); got.Cmp(share) != 0 {
		t.Errorf("validator share %v, want %v", got, share)
	}
	acct := bindings.NewAccountant()
	if err := f.raw(f.chain.Dev[8].Key, f.addrs.Accountant, acct.PackWithdraw()); err != nil {
		t.Fatal(err)
	}
	if got := f.weth(validator); got.Cmp(share) != 0 {
		t.Errorf("validator withdrew %v, want %v", got, share)
	}
	wantRevert(t, f.raw(f.chain.Dev[8].Key, f.addrs.Accountant, acct.PackWithdraw()), "NothingToWithdraw")
	wantRevert(t, f.raw(f.chain.Dev[5].Key, f.addrs.Accountant, acct.PackRecordPayment(big64(1), big64(1))), "Unauthorized")

	// Slot 201 was missed: every winner gets its WETH back.
	aliceBefore, bobBefore := f.weth(alice.From()), f.weth(bob.From())
	if _, err := f.admin.Refund(ctx, 201); err != nil {
		t.Fatal(err)
	}
	_, aliceOwed := f.result(201, alice.From())
	_, bobOwed := f.result(201, bob.From())
	if got := new(big.Int).Sub(f.weth(alice.From()), aliceBefore); got.Cmp(aliceOwed) != 0 || aliceOwed.Sign() == 0 {
		t.Errorf("alice refunded %v, want %v", got, aliceOwed)
	}
	if got := new(big.Int).Sub(f.weth(bob.From()), bobBefore); got.Cmp(bobOwed) != 0 || bobOwed.Sign() == 0 {
		t.Errorf("bob refunded %v, want %v", got, bobOwed)
	}
	st, _ := f.admin.Auction(ctx, 201)
	if !st.IsRefunded || st.IsPaidOut {
		t.Errorf("slot 201 state %+v, want refunded", st)
	}
	_, err = alice.Pay(ctx, 201, 21_000, []common.Hash{{1}})
	wantRevert(t, err, "AuctionRefunded")
}

func TestDecodeRevertNamesErrors(t *testing.T) {
	a := bindings.NewAuctioneer()
	parsed := a.GetABI()
	data, err := parsed.Errors["InvalidBidItems"].Inputs.Pack(big.NewInt(5), big.NewInt(20_000), big.NewInt(100))
	if err != nil {
		t.Fatal(err)
	}
	id := parsed.Errors["InvalidBidItems"].ID
	re := auction.DecodeRevert(append(id[:4:4], data...))
	if re.Name != "InvalidBidItems" || re.Error() != "execution reverted: InvalidBidItems(items=5, min=20000, max=100): "+
		"the gas of a bid must be between the minimum gas per bid and the gas for sale" {
		t.Errorf("decoded %q", re.Error())
	}
	for _, data := range [][]byte{nil, {1, 2}, {0xde, 0xad, 0xbe, 0xef}, append(id[:4:4], 1)} {
		if re := auction.DecodeRevert(data); re.Name != "" {
			t.Errorf("DecodeRevert(%x) named %q", data, re.Name)
		}
	}
}

func FuzzDecodeRevert(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x08, 0xc3, 0x79, 0xa0, 0, 0})
	f.Add([]byte{0x4e, 0x48, 0x7b, 0x71})
	f.Fuzz(func(t *testing.T, data []byte) {
		re := auction.DecodeRevert(data)
		_ = re.Error()
	})
}

// TestLazyMintedTokens: won tokens count in balanceOf at once and move into
// the ERC-6909 balance on the first debit, exactly once, even after the
// winner was removed from the registry.
func TestLazyMintedTokens(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 107
	alice := f.bidder(f.chain.Dev[1].Key, 10)
	f.open(slot, 100_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(1), Gas: 100_000})
	f.settle(slot)
	id, _ := f.admin.BidderID(ctx, alice.From())
	if _, err := f.admin.RemoveBidder(ctx, id); err != nil {
		t.Fatal(err)
	}
	a := bindings.NewAuctioneer()
	bob := f.chain.Dev[2].Address
	if got := f.gasTokens(alice.From(), slot); got != 100_000 {
		t.Fatalf("alice holds %d before any transfer, want 100000", got)
	}
	var mints int
	for i := 0; i < 2; i++ {
		r, err := f.rawValue(f.chain.Dev[1].Key, f.addrs.Auctioneer, a.PackTransfer(bob, big64(slot), big64(10_000)), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range r.Logs {
			if ev, err := a.UnpackTransferEvent(l); err == nil && ev.From == (common.Address{}) && ev.To == alice.From() && ev.Amount.Uint64() == 100_000 {
				mints++
			}
		}
	}
	if mints != 1 {
		t.Errorf("%d mint events, want 1 (on the first transfer)", mints)
	}
	if got := f.gasTokens(alice.From(), slot); got != 80_000 {
		t.Errorf("alice holds %d after sending 20000, want 80000", got)
	}
	if got := f.gasTokens(bob, slot); got != 20_000 {
		t.Errorf("bob holds %d, want 20000", got)
	}
	wantRevert(t, f.raw(f.chain.Dev[1].Key, f.addrs.Auctioneer, a.PackTransfer(bob, big64(slot), big64(80_001))), "InsufficientBalance")
	// Bob never won anything: his tokens are plain balance, usable at once.
	if _, err := f.client(f.chain.Dev[2].Key).Pay(ctx, slot, 21_000, []common.Hash{{9}}); err == nil {
		t.Fatal("paid 21000 with 20000 tokens")
	}
	if _, err := alice.Pay(ctx, slot, 80_000, []common.Hash{{9}}); err != nil {
		t.Fatal(err)
	}
	if got := f.gasTokens(alice.From(), slot); got != 0 {
		t.Errorf("alice holds %d after paying everything", got)
	}
}

// FuzzBidPack: packing then unpacking gives the bid back; out-of-range prices are refused.
func FuzzBidPack(f *testing.F) {
	f.Add([]byte{1}, uint64(21_000), uint8(3))
	f.Add([]byte{0}, uint64(0), uint8(0))
	f.Add(make([]byte, 17), uint64(1<<63), uint8(255))
	f.Fuzz(func(t *testing.T, price []byte, gas uint64, id uint8) {
		p := new(big.Int).SetBytes(price)
		packed, err := (auction.Bid{Price: p, Gas: gas, BidderID: id}).Pack()
		if p.Sign() == 0 || p.BitLen() > 128 {
			if err == nil {
				t.Fatalf("price %v packed", p)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		b := auction.UnpackBid(packed)
		if b.Price.Cmp(p) != 0 || b.Gas != gas || b.BidderID != id {
			t.Fatalf("round trip %v/%d/%d -> %v/%d/%d", p, gas, id, b.Price, b.Gas, b.BidderID)
		}
	})
}

package auction_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/bindings/testbindings"
)

func packed(t testing.TB, price *big.Int, gas uint64, id uint8) *big.Int {
	t.Helper()
	p, err := (auction.Bid{Price: price, Gas: gas, BidderID: id}).Pack()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func skippedBidders(r *types.Receipt) map[common.Address]bool {
	a := bindings.NewAuctioneer()
	out := map[common.Address]bool{}
	for _, l := range r.Logs {
		if ev, err := a.UnpackBidderSkippedEvent(l); err == nil {
			out[ev.Bidder] = true
		}
	}
	return out
}

// TestContractBidders: getBid is read at settlement; a contract whose getBid
// reverts, burns its gas, or answers malformed or invalid bids is skipped and
// the auction settles with everyone else.
func TestContractBidders(t *testing.T) {
	f := newFixture(t, 0)
	sb := testbindings.NewScriptedBidder()
	const slot = 400
	alice := f.bidder(f.chain.Dev[1].Key, 10)

	good, goodID := f.deployScripted(10)
	bad := map[string]uint64{
		"revert": 1, "burn gas": 2, "bad offset": 3, "oversized": 4, "short": 5,
	}
	badAddr := map[string]common.Address{}
	for name, mode := range bad {
		addr, _ := f.deployScripted(10)
		badAddr[name] = addr
		if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetMode(big64(mode))); err != nil {
			t.Fatal(err)
		}
		// Valid bids behind the failure mode, so a skipped bidder could otherwise win.
		if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetBids(big64(slot), []*big.Int{packed(t, gweis(50), 50_000, 0)})); err != nil {
			t.Fatal(err)
		}
	}
	wrongID, _ := f.deployScripted(10)
	badAddr["wrong id"] = wrongID
	if err := f.raw(f.chain.Dev[0].Key, wrongID, sb.PackSetBids(big64(slot), []*big.Int{packed(t, gweis(50), 50_000, goodID)})); err != nil {
		t.Fatal(err)
	}
	// Eight contract bidders at most (the OpenBidder is one).
	_, _, err := f.admin.AddBidder(ctx, f.addrs.WETH)
	wantRevert(t, err, "ContractBidderLimitReached")

	if err := f.raw(f.chain.Dev[0].Key, good, sb.PackSetBids(big64(slot), []*big.Int{packed(t, gweis(6), 200_000, goodID)})); err != nil {
		t.Fatal(err)
	}
	f.open(slot, 250_000)
	f.bid(alice, slot, auction.Bid{Price: gweis(5), Gas: 100_000})
	r := f.settle(slot)

	skipped := skippedBidders(r)
	for name, addr := range badAddr {
		if !skipped[addr] {
			t.Errorf("%s: contract bidder not reported skipped", name)
		}
		_, err := f.admin.BidderInfo(ctx, slot, addr)
		wantRevert(t, err, "BidderNotParticipating")
		if got := f.gasTokens(addr, slot); got != 0 {
			t.Errorf("%s: skipped bidder holds %d tokens", name, got)
		}
	}
	if skipped[good] || skipped[f.addrs.OpenBidder] {
		t.Errorf("a valid contract bidder was skipped: %v", skipped)
	}
	if items, owed := f.result(slot, good); items != 200_000 || owed.Cmp(mul(gweis(5), 200_000)) != 0 {
		t.Errorf("contract bidder bought %d for %v, want 200000 at 5 gwei", items, owed)
	}
	if items, _ := f.result(slot, alice.From()); items != 50_000 {
		t.Errorf("alice bought %d, want the 50000 left", items)
	}

	// Next slot: too many bids, gas below the minimum, and a tie with a manual bid.
	const next = 401
	tooMany := make([]*big.Int, 51)
	for i := range tooMany {
		tooMany[i] = packed(t, gweis(50), 20_000, 0)
	}
	fix := func(addr common.Address, bids []*big.Int) {
		id, _ := f.admin.BidderID(ctx, addr)
		for i := range bids {
			bids[i].Or(bids[i], big.NewInt(int64(id)))
		}
		if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetMode(big64(0))); err != nil {
			t.Fatal(err)
		}
		if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetBids(big64(next), bids)); err != nil {
			t.Fatal(err)
		}
	}
	fix(badAddr["revert"], tooMany)
	fix(badAddr["short"], []*big.Int{packed(t, gweis(50), 19_999, 0)})
	fix(badAddr["oversized"], []*big.Int{packed(t, gweis(50), 300_001, 0)})
	if err := f.raw(f.chain.Dev[0].Key, good, sb.PackSetBids(big64(next), []*big.Int{packed(t, gweis(4), 100_000, goodID)})); err != nil {
		t.Fatal(err)
	}
	f.open(next, 300_000)
	f.bid(alice, next, auction.Bid{Price: gweis(4), Gas: 250_000})
	r = f.settle(next)
	skipped = skippedBidders(r)
	for _, name := range []string{"revert", "short", "oversized"} {
		if !skipped[badAddr[name]] {
			t.Errorf("%s (invalid bids) not skipped", name)
		}
	}
	// Same price: the manual bid arrived first, the contract bid fills the rest.
	if items, _ := f.result(next, alice.From()); items != 250_000 {
		t.Errorf("alice bought %d, want 250000", items)
	}
	if items, _ := f.result(next, good); items != 50_000 {
		t.Errorf("contract bidder bought %d, want 50000", items)
	}
}

// TestHostileGetBidAnswers: whatever bytes a contract bidder's getBid returns,
// settlement goes through; the answer either counts as valid bids or the
// bidder is skipped.
func TestHostileGetBidAnswers(t *testing.T) {
	f := newFixture(t, 0)
	sb := testbindings.NewScriptedBidder()
	addr, id := f.deployScripted(10)
	if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetMode(big64(6))); err != nil {
		t.Fatal(err)
	}
	word := func(v uint64) []byte { return common.LeftPadBytes(new(big.Int).SetUint64(v).Bytes(), 32) }
	valid := append(append(word(32), word(1)...), common.LeftPadBytes(packed(t, gweis(1), 30_000, id).Bytes(), 32)...)
	answers := map[string][]byte{
		"empty":               nil,
		"one byte":            {1},
		"offset only":         word(32),
		"huge offset":         append(word(1<<62), word(1)...),
		"huge length":         append(word(32), word(1<<62)...),
		"length past data":    append(word(32), word(3)...),
		"trailing garbage":    append(append([]byte{}, valid...), 7),
		"valid":               valid,
		"misaligned":          append(word(33), word(0)...),
		"offset 0":            append(word(0), word(0)...),
		"zero price bid":      append(append(word(32), word(1)...), word(uint64(id))...),
		"all ones":            bytes32s(5, 0xff),
		"random-looking data": bytes32s(9, 0x5a),
	}
	slot := uint64(600)
	for name, answer := range answers {
		slot++
		if err := f.raw(f.chain.Dev[0].Key, addr, sb.PackSetRaw(answer)); err != nil {
			t.Fatal(err)
		}
		f.open(slot, 1_000_000)
		r := f.settle(slot) // fails the test if settlement reverts
		skipped := skippedBidders(r)[addr]
		res, err := f.admin.BidderInfo(ctx, slot, addr)
		switch {
		case name == "valid":
			if err != nil || res.ItemsBought.Uint64() != 30_000 || skipped {
				t.Errorf("%s: result %+v, %v, skipped %v; want 30000 bought", name, res, err, skipped)
			}
		default:
			if !skipped || err == nil {
				t.Errorf("%s: skipped=%v, getBidderInfo err=%v; want skipped and not participating", name, skipped, err)
			}
		}
	}
}

func bytes32s(n int, b byte) []byte {
	out := make([]byte, 32*n)
	for i := range out {
		out[i] = b
	}
	return out
}

// TestSettleNeedsGasForBidders: the operator cannot starve a contract
// bidder's getBid by sending too little gas; settlement reverts instead.
func TestSettleNeedsGasForBidders(t *testing.T) {
	f := newFixture(t, 0)
	const slot = 700
	f.open(slot, 1_000_000)
	a := bindings.NewAuctioneer()
	msg := callMsg(f.addrs.Auctioneer, a.PackRunAndSettle(big64(slot)))
	msg.From = f.chain.Dev[0].Address
	msg.Gas = 250_000 // below GET_BID_GAS for the OpenBidder's getBid
	_, err := f.chain.Client.CallContract(ctx, msg, nil)
	wantRevert(t, auction.DecodeError(err), "InsufficientGas")
	msg.Gas = 1_000_000
	if _, err := f.chain.Client.CallContract(ctx, msg, nil); err != nil {
		t.Fatalf("with enough gas: %v", err)
	}
}

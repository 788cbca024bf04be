package betapool

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// bigTx is a zero-tip transfer by the dev key carrying n bytes of calldata
// under the given gas limit.
func bigTx(t *testing.T, nonce uint64, n int, gas uint64) string {
	to := common.Address{0xbe, 0xef}
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i | 1)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(chainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(chainID), Nonce: nonce, GasFeeCap: big.NewInt(2e9), Gas: gas, To: &to, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return hexutil.Encode(raw)
}

// TestBetaDiskFill is finding 3: a tx whose calldata cannot fit its gas
// limit is refused (the attack stored 1 MB txs with 21,000 gas), and so is
// a tx over the fork's per-tx cap (EIP-7825); so is a bundle over its
// slot's beta_gas, read from the L2; one client IP is held to its quota;
// the store's disk budget refuses with a clear error; while it is full,
// bundles of slots 64 slots old that were never included or missed go
// early; and pruning deletes the bundles of slots past the retention
// period, while those within it still answer mev_getBetaBundle.
// devChain is an in-memory dev chain whose genesis funds the dev keys.
func devChain(t *testing.T) *chain.Chain {
	c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return c
}

// memDB is an in-memory SQLite store, closed at the test's end.
func memDB(t *testing.T) store.Store {
	db, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestBetaDiskFill(t *testing.T) {
	c, db := devChain(t), memDB(t)
	var slot atomic.Uint64
	slot.Store(100)
	l2 := &fakeL2{items: map[uint64]*big.Int{101: big.NewInt(1_000_000)}}
	paid := NewSettlements(l2, SettlementConfig{Refresh: -1})
	p := newPool(Config{MaxPerIP: 5, Retention: 200, MaxStoreBytes: 40_000}, db, chainID, slot.Load, nil, paid)
	p.SetGasRules(c)
	ctx := context.Background()
	if _, err := paid.ReadGas(ctx, 101); err != nil { // what the service's background read does
		t.Fatal(err)
	}
	send := func(ip string, s uint64, txs ...string) (common.Hash, error) {
		sl := fmt.Sprint(s)
		return p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: txs, Slot: &sl}, common.Address{}, ip)
	}

	if _, err := send("10.0.0.1", 101, bigTx(t, 0, 100_000, 21_000)); !errors.Is(err, bundle.ErrBetaGasTooLow) {
		t.Fatalf("100 KB of calldata under 21,000 gas: %v", err)
	}
	// 1,000 non-zero bytes: intrinsic gas 37,000, EIP-7623 floor 61,000.
	if _, err := send("10.0.0.1", 101, bigTx(t, 0, 1_000, 50_000)); !errors.Is(err, bundle.ErrBetaGasTooLow) || !strings.Contains(err.Error(), "need 61000") {
		t.Fatalf("gas over the intrinsic gas, under the calldata floor: %v", err)
	}
	if _, err := send("10.0.0.1", 102, bigTx(t, 0, 0, 1<<24+1)); !errors.Is(err, bundle.ErrBetaGasTooHigh) {
		t.Fatalf("a tx over EIP-7825's cap: %v", err)
	}
	_, err := send("10.0.0.1", 101, bigTx(t, 0, 0, 600_000), bigTx(t, 1, 0, 600_000))
	if !errors.Is(err, bundle.ErrBetaGasTooHigh) || !strings.Contains(err.Error(), "sum to 1200000, slot 101 sells 1000000 gas") {
		t.Fatalf("1.2M gas for a slot selling 1M: %v", err)
	}
	// Slot 102 has no auction: 1.2M fits a block.
	if _, err := send("10.0.0.9", 102, bigTx(t, 0, 0, 600_000), bigTx(t, 1, 0, 600_000)); err != nil {
		t.Fatalf("1.2M gas for a slot without an auction yet: %v", err)
	}
	// Five bundles of ~5 KB from one IP, then its quota.
	var first common.Hash
	for i := uint64(0); i < 6; i++ {
		h, err := send("10.0.0.1", 101, bigTx(t, i, 5_000, 300_000))
		if i == 0 {
			first = h
		}
		if i < 5 && err != nil || i == 5 && !errors.Is(err, ErrQuota) {
			t.Fatalf("bundle %d from one IP: %v", i, err)
		}
	}
	// Other IPs fill the 40,000-byte budget. The L2 is down: no entry can
	// be found unpaid, so none of the coming slots is evicted
	// (TestBetaEvictionUnpaid has the L2 up).
	l2.set(func() { l2.down = true })
	var filled error
	for i := uint64(10); filled == nil && i < 30; i++ {
		_, filled = send(fmt.Sprintf("10.0.1.%d", i), 102, bigTx(t, i, 5_000, 300_000))
	}
	if !errors.Is(filled, ErrStoreFull) || !strings.Contains(filled.Error(), "room comes back as slots pass") ||
		!strings.Contains(filled.Error(), "the oldest stored is for slot 101") {
		t.Fatalf("over the disk budget: %v", filled)
	}
	// The first bundle was paid and included in slot 101's block.
	if err := db.PutBetaOutcomes(ctx, []store.BetaOutcome{{Hash: first, Slot: 101, State: store.BetaIncluded, Total: 1}}); err != nil {
		t.Fatal(err)
	}
	// Slot 101 is 65 slots old, within the retention period: while the
	// store is full, its bundles that were never included or missed go
	// early, so a new bundle gets room; the included one stays, and so do
	// slot 102's.
	slot.Store(166)
	if _, err := send("10.0.2.1", 167, bigTx(t, 50, 5_000, 300_000)); err != nil {
		t.Fatalf("a full store with expired bundles: %v", err)
	}
	if st, err := p.Status(ctx, first); err != nil || st.Slots[0].State != StateIncluded {
		t.Fatalf("included bundle within the retention: %+v %v", st, err)
	}
	if _, err := p.Status(ctx, bundle.HashOf([]common.Hash{txHash(t, bigTx(t, 1, 5_000, 300_000))})); !errors.Is(err, ErrUnknownBundle) {
		t.Fatalf("expired bundle of slot 101 while the store was full: %v", err)
	}
	st, err := p.Status(ctx, bundle.HashOf([]common.Hash{txHash(t, bigTx(t, 10, 5_000, 300_000))}))
	if err != nil || len(st.Slots) != 1 || st.Slots[0].State != StateExpired {
		t.Fatalf("expired bundle of slot 102: %+v %v", st, err)
	}
	// Past the retention period (200 slots) slot 101's included bundle goes
	// too.
	slot.Store(302)
	if err := p.Prune(ctx, 302-200); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Status(ctx, first); !errors.Is(err, ErrUnknownBundle) {
		t.Fatalf("bundle of a slot past the retention: %v", err)
	}
}

func txHash(t *testing.T, s string) common.Hash {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(hexutil.MustDecode(s)); err != nil {
		t.Fatal(err)
	}
	return tx.Hash()
}

// TestBetaEvictionStatus is finding 3's full store: addresses that filled
// the disk budget with bundles for coming slots no longer lock an honest
// client out; the largest holder's newest entry of a slot past EvictLead
// goes and mev_getBetaBundle reports it evicted, with the reason; the
// largest holder itself is still refused.
func TestBetaEvictionStatus(t *testing.T) {
	db := memDB(t)
	var slot atomic.Uint64
	slot.Store(100)
	p := New(Config{Retention: 200, MaxStoreBytes: 20_000}, db, chainID, slot.Load, nil)
	ctx := context.Background()
	send := func(ip string, s uint64, tx string) (common.Hash, error) {
		sl := fmt.Sprint(s)
		return p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{tx}, Slot: &sl}, common.Address{}, ip)
	}
	var stored []common.Hash
	var filled error
	for i := uint64(0); filled == nil && i < 10; i++ {
		var h common.Hash
		if h, filled = send("10.0.0.1", 120+i, bigTx(t, i, 5_000, 300_000)); filled == nil {
			stored = append(stored, h)
		}
	}
	if !errors.Is(filled, ErrStoreFull) || len(stored) < 2 {
		t.Fatalf("one address fills the budget: %d bundles, %v", len(stored), filled)
	}
	newest := stored[len(stored)-1]
	if _, err := send("10.0.9.9", 130, bigTx(t, 40, 5_000, 300_000)); err != nil {
		t.Fatalf("an honest bundle on a full store: %v", err)
	}
	st, err := p.Status(ctx, newest)
	if err != nil || len(st.Slots) != 1 || st.Slots[0].State != StateEvicted || st.Slots[0].Reason != store.BetaEvicted {
		t.Fatalf("the largest holder's newest bundle: %+v %v", st, err)
	}
	if _, err := send("10.0.0.1", 131, bigTx(t, 41, 5_000, 300_000)); !errors.Is(err, ErrStoreFull) {
		t.Fatalf("the largest holder is still refused: %v", err)
	}
	if st, err := p.Status(ctx, stored[0]); err != nil || st.Slots[0].State != StatePending {
		t.Fatalf("its older bundle stays: %+v %v", st, err)
	}
}

// TestBetaEvictionUnpaid is the full store of issue 14's last gap: client
// addresses that fill the disk budget with unpaid bundles for the next
// slots (which EvictLead's rule never reaches) no longer lock an honest
// bundle for the next slot out: it takes the room of the largest holder's
// newest entry the L2 settlement does not pay, and the paid one is kept.
// With the L2 unreachable, only EvictLead's rule applies: refused.
func TestBetaEvictionUnpaid(t *testing.T) {
	c, db := devChain(t), memDB(t)
	var slot atomic.Uint64
	slot.Store(100)
	tx := func(nonce uint64) string { return bigTx(t, nonce, 5_000, 300_000) }
	stored, err := rlp.EncodeToBytes([][]byte{hexutil.MustDecode(tx(0))})
	if err != nil {
		t.Fatal(err)
	}
	entry := int64(store.BetaEntryBytes + len(stored))
	l2 := &fakeL2{}
	p := newPool(Config{Retention: 200, MaxStoreBytes: 7 * entry, MaxBytesPerIP: 3 * entry}, db, chainID, slot.Load, nil, NewSettlements(l2, SettlementConfig{Refresh: -1}))
	p.SetGasRules(c)
	p.SetAccounts(c) // the attacker's key is funded: the money check lets it in
	ctx := context.Background()
	send := func(ip string, s uint64, nonce uint64) (common.Hash, error) {
		sl := fmt.Sprint(s)
		return p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{tx(nonce)}, Slot: &sl}, common.Address{}, ip)
	}
	// Three addresses fill the budget with bundles for slots 101-103.
	var mine []common.Hash // 10.0.0.1's, the largest holder's
	nonce := uint64(0)
	for _, a := range []struct {
		ip string
		n  int
	}{{"10.0.0.1", 3}, {"10.0.0.2", 2}, {"10.0.0.3", 2}} {
		for i := 0; i < a.n; i++ {
			h, err := send(a.ip, 101+uint64(i), nonce)
			if err != nil {
				t.Fatalf("%s bundle %d: %v", a.ip, i, err)
			}
			if a.ip == "10.0.0.1" {
				mine = append(mine, h)
			}
			nonce++
		}
	}
	if used, err := db.(Store).BetaBundleBytes(ctx); err != nil || used != 7*entry {
		t.Fatalf("budget use %d, want %d (full): %v", used, 7*entry, err)
	}
	// The largest holder's newest entry (slot 103) is paid on the L2.
	l2.set(func() {
		l2.bundles = map[uint64][]auction.Bundle{103: {{AmountOfGas: big.NewInt(300_000), BundleHashes: []common.Hash{mine[2]}}}}
	})
	if _, err := send("10.0.9.9", 101, 50); err != nil {
		t.Fatalf("an honest bundle for the next slot on a store full of unpaid bundles: %v", err)
	}
	if st, err := p.Status(ctx, mine[2]); err != nil || st.Slots[0].State != StatePaid {
		t.Fatalf("the paid entry: %+v %v", st, err)
	}
	if st, err := p.Status(ctx, mine[1]); err != nil || st.Slots[0].State != StateEvicted || st.Slots[0].Reason != store.BetaEvicted {
		t.Fatalf("the largest holder's newest unpaid entry (slot 102): %+v %v", st, err)
	}
	// L2 down: nothing is known unpaid, and slots 101-103 are within
	// EvictLead: a second honest bundle is refused, nothing is evicted.
	l2.set(func() { l2.down = true })
	if _, err := send("10.0.9.8", 101, 51); !errors.Is(err, ErrStoreFull) {
		t.Fatalf("with the L2 down: %v", err)
	}
	if st, err := p.Status(ctx, mine[0]); err != nil || st.Slots[0].State != StatePending {
		t.Fatalf("with the L2 down the entries stay: %+v %v", st, err)
	}
}

// TestBetaAdmissionFunds: a beta bundle whose first tx's sender holds
// nothing, or whose max fee is below any base fee its slot's block can
// have, is refused with an error that says what was wrong and what was
// expected (invalid params, -32602), and nothing is stored.
func TestBetaAdmissionFunds(t *testing.T) {
	c, db := devChain(t), memDB(t)
	p := New(Config{}, db, chainID, func() uint64 { return 100 }, nil)
	p.SetAccounts(c)
	ctx := context.Background()
	slot := "101"
	empty, _ := crypto.GenerateKey()
	_, err := p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{signedTx(t, empty, 0, 0)}, Slot: &slot}, common.Address{}, "10.0.0.1")
	if !errors.Is(err, bundle.ErrInsufficientFunds) || !strings.Contains(err.Error(), "costs up to 42000000000001 wei (gas limit x max fee + value)") ||
		!strings.Contains(err.Error(), "holds 0 wei") {
		t.Fatalf("a sender without funds: %v", err)
	}
	var rerr rpc.Error
	if !errors.As(classify(err), &rerr) || rerr.ErrorCode() != -32602 {
		t.Fatalf("JSON-RPC class of %v: %v", err, classify(err))
	}
	to := common.Address{0xbe, 0xef}
	cheap, _ := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(chainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(chainID), GasFeeCap: big.NewInt(1), Gas: 21000, To: &to})
	raw, _ := cheap.MarshalBinary()
	_, err = p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &slot}, common.Address{}, "10.0.0.1")
	if !errors.Is(err, bundle.ErrFeeCapTooLow) || !strings.Contains(err.Error(), "has max fee 1 wei") {
		t.Fatalf("max fee 1 wei: %v", err)
	}
	if used, err := db.(Store).BetaBundleBytes(ctx); err != nil || used != 0 {
		t.Fatalf("refused bundles stored: %d bytes, %v", used, err)
	}
	// The funded dev key passes.
	if _, err := p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{signedTx(t, key, 0, 0)}, Slot: &slot}, common.Address{}, "10.0.0.1"); err != nil {
		t.Fatalf("funded sender: %v", err)
	}
}

// TestBetaEvictionOfResentBundle: a bundle sent again for every slot keeps
// its txs stored while any of its entries is (each new entry costs only
// 128 bytes); a full store frees them for an honest bundle by evicting
// every entry, over 40 slots (passed ones, the next ones, far ones).
func TestBetaEvictionOfResentBundle(t *testing.T) {
	db := memDB(t)
	var slot atomic.Uint64
	slot.Store(100)
	tx := bigTx(t, 0, 5_000, 300_000)
	stored, _ := rlp.EncodeToBytes([][]byte{hexutil.MustDecode(tx)})
	entry := int64(store.BetaEntryBytes + len(stored))
	p := newPool(Config{Retention: 200, MaxStoreBytes: entry + 39*store.BetaEntryBytes + 100}, db, chainID, slot.Load, nil, NewSettlements(&fakeL2{}, SettlementConfig{Refresh: -1}))
	ctx := context.Background()
	send := func(ip string, s uint64, tx string) (common.Hash, error) {
		sl := fmt.Sprint(s)
		return p.AddFrom(ctx, bundle.BetaBundleArgs{Txs: []string{tx}, Slot: &sl}, common.Address{}, ip)
	}
	var (
		h   common.Hash
		err error
	)
	for s := uint64(101); s <= 120; s++ {
		if h, err = send("10.0.0.1", s, tx); err != nil {
			t.Fatal(err)
		}
	}
	slot.Store(140) // slots 101-120 passed, within the 64 the status reports
	for s := uint64(141); s <= 160; s++ {
		if _, err := send("10.0.0.1", s, tx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := send("10.0.9.9", 141, bigTx(t, 1, 5_000, 300_000)); err != nil {
		t.Fatalf("an honest bundle of the bundle's size: %v", err)
	}
	st, err := p.Status(ctx, h)
	if err != nil || len(st.Slots) != 40 || len(st.Txs) != 0 {
		t.Fatalf("the re-sent bundle: %d slots, %d txs, %v", len(st.Slots), len(st.Txs), err)
	}
	for _, s := range st.Slots {
		if s.State != StateEvicted {
			t.Fatalf("slot %d: %s, want evicted", s.Slot, s.State)
		}
	}
}

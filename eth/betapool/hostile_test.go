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
func TestBetaDiskFill(t *testing.T) {
	c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	db, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var slot atomic.Uint64
	slot.Store(100)
	p := New(Config{MaxPerIP: 5, Retention: 200, MaxStoreBytes: 40_000}, db, chainID, slot.Load, nil)
	p.SetGasRules(c)
	l2 := &fakeL2{items: map[uint64]*big.Int{101: big.NewInt(1_000_000)}}
	NewBetaBlocks(c, p, NewSettlements(l2, SettlementConfig{Refresh: -1}))
	ctx := context.Background()
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
	_, err = send("10.0.0.1", 101, bigTx(t, 0, 0, 600_000), bigTx(t, 1, 0, 600_000))
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
	db, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
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

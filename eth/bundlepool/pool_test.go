package bundlepool

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/params"
)

func rawTx(t *testing.T, nonce uint64) hexutil.Bytes {
	to := common.Address{1}
	tx, err := types.SignNewTx(params.DevAccounts()[0].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e9), Gas: 21000, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return raw
}

type counter map[bundle.StatKind]int

func (c counter) Add(_ common.Address, k bundle.StatKind) { c[k]++ }

func TestPool(t *testing.T) {
	head := uint64(10)
	stats := counter{}
	p := New(Config{MaxBundles: 3, MaxPerBlock: 2}, params.DevChainID, func() uint64 { return head }, stats)
	alice, bob := common.Address{0xa}, common.Address{0xb}
	uuid := "123e4567-e89b-12d3-a456-426614174000"

	h1, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 11, ReplacementUUID: uuid}, alice)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 11}, alice); err != nil || again != h1 || p.Len() != 1 {
		t.Fatalf("re-send: %v %s len %d", err, again, p.Len())
	}
	// Someone else cannot cancel alice's uuid: uuids are scoped to their signer.
	if _, err := p.Cancel(uuid, bob); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("cancel by another signer: %v", err)
	}
	// Alice replaces it with a bundle for block 12.
	h2, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 12, ReplacementUUID: uuid}, alice)
	if err != nil || p.Len() != 1 || len(p.Bundles(11, 0)) != 0 || len(p.Bundles(12, 0)) != 1 {
		t.Fatalf("replace: %v len %d", err, p.Len())
	}
	// Per-block and total limits.
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 2)}, BlockNumber: 12}, bob)
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 3)}, BlockNumber: 12}, bob); !errors.Is(err, ErrBlockFull) {
		t.Fatalf("one past the per-block limit: %v", err)
	}
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 4)}, BlockNumber: 13}, bob)
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 5)}, BlockNumber: 14}, bob); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("one past the pool limit: %v", err)
	}
	// Cancel, unknown uuid, bad uuid.
	if got, err := p.Cancel(uuid, alice); err != nil || got != h2 {
		t.Fatalf("cancel: %v", err)
	}
	if _, err := p.Cancel(uuid, alice); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("second cancel: %v", err)
	}
	if _, err := p.Cancel("x", alice); !errors.Is(err, bundle.ErrSendReplacementID) {
		t.Fatalf("bad uuid: %v", err)
	}
	// Prune drops blocks at or below the head.
	head = 12
	p.Prune(12)
	if p.Len() != 1 || len(p.Bundles(13, 0)) != 1 {
		t.Fatalf("after prune: %d", p.Len())
	}
	// Adding also prunes once the head has moved.
	head = 13
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 6)}, BlockNumber: 14}, bob)
	if p.Len() != 1 || len(p.Bundles(13, 0)) != 0 {
		t.Fatalf("after add at a new head: %d", p.Len())
	}
	if stats[bundle.StatBundle] != 5 {
		t.Fatalf("bundle stats %v", stats)
	}
	p.MarkIncluded(14, common.Hash{14}, p.Bundles(14, 0))
	if stats[bundle.StatInclusion] != 1 {
		t.Fatalf("inclusion stats %v", stats)
	}
	// Statuses: the replaced and the cancelled bundle say so; the uuid
	// bundle's status is its signer's only.
	for _, tc := range []struct {
		hash   common.Hash
		block  uint64
		state  State
		reason bundle.DropReason
	}{{h1, 11, StateDropped, bundle.DropReplaced}, {h2, 12, StateDropped, bundle.DropCancelled}} {
		st, err := p.Status(tc.hash, tc.block, alice)
		if err != nil || st.State != tc.state || st.Reason != tc.reason {
			t.Errorf("status of %s: %+v, %v; want %s (%s)", tc.hash, st, err, tc.state, tc.reason)
		}
	}
	if _, err := p.Status(h1, 11, bob); !errors.Is(err, ErrNotYourBundle) {
		t.Errorf("another signer reads alice's status: %v", err)
	}
	if _, err := p.Status(common.Hash{1}, 0, alice); !errors.Is(err, ErrUnknownBundle) {
		t.Errorf("status of an unknown bundle: %v", err)
	}
}

// TestStatusLifecycle follows bundles through a build: one included, one
// failing its simulation, one outbid, one never looked at.
func TestStatusLifecycle(t *testing.T) {
	head := uint64(1)
	p := New(Config{}, params.DevChainID, func() uint64 { return head }, nil)
	send := func(nonce uint64) *bundle.SendBundle {
		h, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, nonce)}, BlockNumber: 2}, common.Address{})
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
	in, bad, outbid, late := send(0), send(7), send(8), send(9)
	p.Considered(2, []bundle.Consideration{
		{Bundle: in, Simulated: true, Included: true},
		{Bundle: bad, Reason: bundle.DropNonce, Err: errors.New("nonce too high")},
		{Bundle: outbid, Simulated: true, Reason: bundle.DropOutbid},
	})
	if st, _ := p.Status(bad.Hash, 0, common.Address{}); st.State != StateConsidered || st.Reason != bundle.DropNonce || st.Error != "nonce too high" {
		t.Errorf("failed bundle before its block: %+v", st)
	}
	if st, _ := p.Status(outbid.Hash, 2, common.Address{}); st.State != StateSimulated || st.SimulatedAt.IsZero() || st.Reason != bundle.DropOutbid {
		t.Errorf("outbid bundle before its block: %+v", st)
	}
	p.MarkIncluded(2, common.Hash{2}, []*bundle.SendBundle{in})
	head = 2
	p.Prune(2)
	want := map[common.Hash]struct {
		state  State
		reason bundle.DropReason
	}{
		in.Hash: {StateIncluded, ""}, bad.Hash: {StateDropped, bundle.DropNonce},
		outbid.Hash: {StateDropped, bundle.DropOutbid}, late.Hash: {StateDropped, bundle.DropNotConsidered},
	}
	for h, w := range want {
		st, err := p.Status(h, 2, common.Address{})
		if err != nil || st.State != w.state || st.Reason != w.reason {
			t.Errorf("%s after its block: %+v, %v; want %s (%s)", h, st, err, w.state, w.reason)
		}
	}
	if st, _ := p.Status(in.Hash, 2, common.Address{}); st.IncludedIn != (common.Hash{2}) || st.SealedAt.IsZero() {
		t.Errorf("included bundle: %+v", st)
	}
	// Statuses are forgotten statusBlocks after their block.
	head = 2 + statusBlocks
	p.Prune(head)
	if _, err := p.Status(in.Hash, 2, common.Address{}); !errors.Is(err, ErrUnknownBundle) {
		t.Errorf("status kept %d blocks on: %v", statusBlocks, err)
	}
}

// A replacement that fails its checks leaves the bundle it would replace
// pending: the sender's original still competes for its block.
func TestFailedReplacementKeepsOriginal(t *testing.T) {
	p := New(Config{MaxBundles: 10, MaxPerBlock: 1}, params.DevChainID, func() uint64 { return 10 }, nil)
	alice, bob := common.Address{0xa}, common.Address{0xb}
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	orig, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 11, ReplacementUUID: uuid}, alice)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 12}, bob); err != nil {
		t.Fatal(err)
	}
	// Block 12 is full: the replacement fails, the original stays.
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 2)}, BlockNumber: 12, ReplacementUUID: uuid}, alice); !errors.Is(err, ErrBlockFull) {
		t.Fatalf("replacement into a full block: %v", err)
	}
	if got := p.Bundles(11, 0); len(got) != 1 || got[0].Hash != orig || p.Len() != 2 {
		t.Fatalf("original after a failed replacement: %d bundles for block 11, %d in all", len(got), p.Len())
	}
	if got, err := p.Cancel(uuid, alice); err != nil || got != orig {
		t.Fatalf("the uuid still names the original: %s %v", got, err)
	}
	// A replacement in the same full block takes the slot of the bundle it
	// replaces (another uuid: the cancelled one stays cancelled for block 11).
	uuid2 := "123e4567-e89b-12d3-a456-426614174001"
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 3)}, BlockNumber: 11, ReplacementUUID: uuid2}, alice); err != nil {
		t.Fatal(err)
	}
	repl, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 4)}, BlockNumber: 11, ReplacementUUID: uuid2}, alice)
	if got := p.Bundles(11, 0); err != nil || len(got) != 1 || got[0].Hash != repl {
		t.Fatalf("replacement in its own full block: %v, %d bundles", err, len(got))
	}
}

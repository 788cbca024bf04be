package bundlepool

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// TestSignedSendTakesOverUnsignedBundle is the squatting attack: someone
// who sees a signer's transactions sends them unsigned first. The signer's
// send with its uuid then owns the bundle: its cancel works, the unsigned
// sender's cancel does not, and the status is shown to the signer only.
func TestSignedSendTakesOverUnsignedBundle(t *testing.T) {
	head := uint64(10)
	p := New(Config{}, params.DevChainID, func() uint64 { return head }, nil)
	victim, other := common.Address{0xa}, common.Address{0xb}
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	txs := []hexutil.Bytes{rawTx(t, 0)}

	h, err := p.AddFrom(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, common.Address{}, "10.0.0.66")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.AddFrom(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, victim, "10.0.0.1"); err != nil || got != h || p.Len() != 1 {
		t.Fatalf("signed send of the same bundle: %v %s, %d pending", err, got, p.Len())
	}
	if _, err := p.Status(h, 11, common.Address{}); !errors.Is(err, ErrNotYourBundle) {
		t.Fatalf("status asked unsigned after the takeover: %v", err)
	}
	if st, err := p.Status(h, 11, victim); err != nil || st.Signer != victim {
		t.Fatalf("status asked by the signer: %+v %v", st, err)
	}
	// An unsigned replay changes nothing; another signer's send neither.
	p.AddFrom(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, common.Address{}, "10.0.0.66")
	p.AddFrom(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, other, "10.0.0.77")
	if _, err := p.Cancel(uuid, common.Address{}); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("unsigned cancel of the signer's bundle: %v", err)
	}
	if _, err := p.Cancel(uuid, other); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("another signer's cancel: %v", err)
	}
	if p.Len() != 1 {
		t.Fatalf("%d pending, want the signer's bundle", p.Len())
	}
	if got, err := p.Cancel(uuid, victim); err != nil || got != h || p.Len() != 0 {
		t.Fatalf("the signer's cancel: %v %s, %d pending", err, got, p.Len())
	}
}

// TestSignedBundleKeepsItsOwner: a bundle sent signed first stays its
// signer's whatever is sent after it.
func TestSignedBundleKeepsItsOwner(t *testing.T) {
	p := New(Config{}, params.DevChainID, func() uint64 { return 10 }, nil)
	owner, other := common.Address{0xa}, common.Address{0xb}
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	txs := []hexutil.Bytes{rawTx(t, 0)}
	h, err := p.Add(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, owner)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, common.Address{})
	p.Add(bundle.SendBundleArgs{Txs: txs, BlockNumber: 11, ReplacementUUID: uuid}, other)
	for _, who := range []common.Address{{}, other} {
		if _, err := p.Status(h, 11, who); !errors.Is(err, ErrNotYourBundle) {
			t.Fatalf("status for %s: %v", who, err)
		}
		if _, err := p.Cancel(uuid, who); !errors.Is(err, ErrUnknownUUID) {
			t.Fatalf("cancel by %s: %v", who, err)
		}
	}
	if _, err := p.Cancel(uuid, owner); err != nil {
		t.Fatalf("the owner's cancel: %v", err)
	}
}

// TestPoolPersists: with a store, accepted bundles, takeovers and
// cancellations are committed before the calls return; a new pool on the
// reopened database has the bundles whose block is ahead, with their
// owners, and still refuses the cancelled uuid.
func TestPoolPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel.db")
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	head := uint64(10)
	stats := counter{}
	newPool := func(st store.Store) *Pool {
		clear(stats)
		p := New(Config{}, params.DevChainID, func() uint64 { return head }, stats)
		if err := p.Persist(context.Background(), st); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := newPool(st)
	alice := common.Address{0xa}
	u1, u2 := "123e4567-e89b-12d3-a456-426614174001", "123e4567-e89b-12d3-a456-426614174002"
	kept, _ := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 12, ReplacementUUID: u1}, common.Address{}, "10.0.0.66")
	p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 12, ReplacementUUID: u1}, alice, "10.0.0.1") // takes it over
	cancelled, _ := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 13, ReplacementUUID: u2}, alice)
	if _, err := p.Cancel(u2, alice); err != nil {
		t.Fatal(err)
	}
	passed, _ := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 2)}, BlockNumber: 11}, common.Address{})
	unsigned, _ := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 3)}, BlockNumber: 14}, common.Address{})
	st.Close() // as a crash would leave it: nothing flushed at shutdown

	head = 11 // block 11 was built meanwhile
	st, err = store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p = newPool(st)
	if p.Len() != 2 || len(p.Bundles(12, 0)) != 1 || len(p.Bundles(14, 0)) != 1 || len(p.Bundles(11, 0)) != 0 || len(p.Bundles(13, 0)) != 0 {
		t.Fatalf("after the restart: %d pending (want %s for 12 and %s for 14; not %s, %s)", p.Len(), kept, unsigned, cancelled, passed)
	}
	if stats[bundle.StatBundle] != 0 {
		t.Fatalf("reloading counted %d new bundles for their signers", stats[bundle.StatBundle])
	}
	if b := p.Bundles(12, 0)[0]; b.Hash != kept || b.Signer != alice {
		t.Fatalf("block 12 holds %s of %s, want %s of the signer who took it over", b.Hash, b.Signer, kept)
	}
	if _, err := p.Cancel(u1, common.Address{}); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("unsigned cancel after the restart: %v", err)
	}
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 13, ReplacementUUID: u2}, alice); !errors.Is(err, ErrCancelled) {
		t.Fatalf("replayed send of the cancelled uuid after the restart: %v", err)
	}
	if st, err := p.Status(kept, 12, alice); err != nil || st.State != StateReceived {
		t.Fatalf("status after the restart: %+v %v", st, err)
	}
}

// TestStatusUnknownWithoutBlock: asking for an unknown bundle without a
// block does not speak of a block 0 nobody asked about.
func TestStatusUnknownWithoutBlock(t *testing.T) {
	p := New(Config{}, params.DevChainID, func() uint64 { return 10 }, nil)
	_, err := p.Status(common.Hash{1}, 0, common.Address{})
	if !errors.Is(err, ErrUnknownBundle) || strings.Contains(err.Error(), "block 0") || !strings.Contains(err.Error(), "(for any block)") {
		t.Fatalf("unknown bundle, no block: %v", err)
	}
	if _, err := p.Status(common.Hash{1}, 12, common.Address{}); !strings.Contains(err.Error(), "for block 12") {
		t.Fatalf("unknown bundle for block 12: %v", err)
	}
}

package relay_test

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// TestBetaThroughRelay: a verified submission for slot 1 gets slot 1's paid
// beta bundle appended; getHeader serves the merged header signed by the
// relay at the alpha's value; getPayload delivers the merged payload, which
// geth's import accepts; the delivered record and the bundle's status say
// so. A submission for slot 2 that leaves less than slot 2's beta_gas
// unused is refused with ErrBetaRoom.
func TestBetaThroughRelay(t *testing.T) {
	holder := &relaytest.BetaHolder{}
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = holder }})
	ctx := context.Background()
	stats := store.NewStatsBuffer(e.Store, time.Hour)
	defer stats.Close()
	l2 := &relaytest.Settlement{Items: map[uint64]uint64{1: 1_000_000, 2: relaytest.GasLimit - 100_000}}
	svc := e.BetaService(t, l2, stats)
	holder.Service = svc
	pool := svc.Pool()
	searcher := common.Address{0x5e}
	key := params.DevAccounts()[5].Key
	to := common.Address{0xbe}
	var beta []*types.Transaction
	var raw []string
	for nonce := uint64(0); nonce < 2; nonce++ {
		tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei),
			Gas: 21000, To: &to, Value: big.NewInt(1)})
		b, _ := tx.MarshalBinary()
		beta, raw = append(beta, tx), append(raw, hexutil.Encode(b))
	}
	slot1 := strconv.Itoa(1)
	hash, err := pool.Add(ctx, bundle.BetaBundleArgs{Txs: raw, Slot: &slot1}, searcher)
	if err != nil {
		t.Fatal(err)
	}
	l2.Pay(1, 1_000_000, hash)
	svc.Refresh(ctx, 0) // what the background reads do
	e.RegisterAll()

	// No room: slot 2's beta gas leaves 100,000 gas, ten transfers and the
	// payment use 231,000.
	if _, err := submit(e, e.Submission(e.BuildBlock(2, 10, nil)), false); !errors.Is(err, relay.ErrBetaRoom) {
		t.Fatalf("submission without room for beta: %v, want %v", err, relay.ErrBetaRoom)
	}

	alpha := e.BuildBlock(1, 10, nil)
	if out, err := submit(e, e.Submission(alpha), false); err != nil || out != relay.Accepted {
		t.Fatalf("submit: %v, %v", out, err)
	}
	v := e.Proposer(1)
	parent := beacon.Root(e.Chain.Head().Hash())
	bid, err := e.Relay.GetHeader(context.Background(), 1, parent, v.Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader: %v, %v", bid, err)
	}
	merged := bid.Header().BlockHash()
	if merged == beacon.Root(alpha.Built.Block.Hash()) {
		t.Fatal("getHeader serves the alpha block, not the beta block")
	}
	if err := bid.VerifySignature(beacon.BuilderDomain(e.Beacon)); err != nil || bid.Pubkey() != e.RelayKey.PublicKey() {
		t.Fatalf("merged bid signature: %v", err)
	}
	if bid.Value().Uint256().Cmp(alpha.Value) != 0 {
		t.Fatalf("merged bid value %s, want the alpha's %s", bid.Value().Uint256(), alpha.Value)
	}
	if k := e.Relay.KeptStates(); k[1] != 1 {
		t.Fatalf("kept states %v, want one for slot 1", k)
	}

	d, err := e.Relay.GetPayload(ctx, e.BlindedBlock(1, bid), false)
	if err != nil {
		t.Fatal(err)
	}
	ed := d.Payload.ToExecutableData()
	reqs, err := d.Requests.EngineRequests()
	if err != nil {
		t.Fatal(err)
	}
	root := e.Attrs(1).ParentBeaconRoot
	blk, err := engine.ExecutableDataToBlock(*ed, []common.Hash{}, &root, reqs)
	if err != nil {
		t.Fatal(err)
	}
	txs := blk.Transactions()
	n := len(alpha.Built.Block.Transactions())
	if len(txs) != n+2 || txs[n].Hash() != beta[0].Hash() || txs[n+1].Hash() != beta[1].Hash() {
		t.Fatalf("delivered block has %d txs, want the alpha's %d and the 2 beta txs", len(txs), n)
	}
	if err := e.Chain.ImportBuilt(&chain.BuiltBlock{Block: blk, Envelope: &engine.ExecutionPayloadEnvelope{ExecutionPayload: ed, Requests: reqs}}); err != nil {
		t.Fatalf("geth rejects the delivered beta block: %v", err)
	}
	rec, err := e.Store.Delivered(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rec.BlockHash != merged || rec.AlphaBlockHash == nil || *rec.AlphaBlockHash != beacon.Root(alpha.Built.Block.Hash()) ||
		rec.BetaGasUsed != 42000 || rec.BetaBundleCount != 1 || rec.NumTx != uint64(n+2) {
		t.Fatalf("delivered record %+v", rec)
	}
	st, err := pool.Status(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Slots[0]; s.State != betapool.StateIncluded || len(s.Included) != 2 || s.BlockHash != blk.Hash() {
		t.Fatalf("bundle status %+v", s)
	}
	for slot, want := range map[uint64]bool{1: true, 2: false} {
		if due, err := e.Relay.BetaDue(ctx, slot); err != nil || due != want {
			t.Fatalf("BetaDue(%d) = %v, %v; want %v", slot, due, err, want)
		}
	}
	if u, err := stats.Get(ctx, searcher); err != nil || u.BetaBundles != 1 || u.BetaIncluded != 1 || u.BetaMissed != 0 {
		t.Fatalf("signer stats %+v, %v; want 1 sent, 1 included", u, err)
	}
	e.Relay.SetHeadSlot(1)
	if k := e.Relay.KeptStates(); k[1] != 0 {
		t.Fatalf("kept states after the slot passed: %v", k)
	}

	// Slot 3: the same bundle, paid again, is invalid on the state it meets
	// (its nonces are used): nothing is appended, alpha is delivered as it
	// is, and the bundle is recorded missed for its own txs (the buyer's
	// risk, operator.Judge).
	slot3 := "3"
	if _, err := pool.Add(ctx, bundle.BetaBundleArgs{Txs: raw, Slot: &slot3}, searcher); err != nil {
		t.Fatal(err)
	}
	l2.Pay(3, 1_000_000, hash)
	svc.Refresh(ctx, 1)
	alpha3 := e.BuildBlock(3, 1, nil)
	if _, err := submit(e, e.Submission(alpha3), false); err != nil {
		t.Fatal(err)
	}
	parent = beacon.Root(e.Chain.Head().Hash())
	bid3, err := e.Relay.GetHeader(context.Background(), 3, parent, e.Proposer(3).Key.PublicKey())
	if err != nil || bid3 == nil || bid3.Header().BlockHash() != beacon.Root(alpha3.Built.Block.Hash()) {
		t.Fatalf("getHeader for a slot whose paid bundle is invalid: %v, want the alpha", err)
	}
	if _, err := e.Relay.GetPayload(ctx, e.BlindedBlock(3, bid3), false); err != nil {
		t.Fatal(err)
	}
	if due, err := e.Relay.BetaDue(ctx, 3); err != nil || !due {
		t.Fatalf("BetaDue(3) = %v, %v; want due", due, err)
	}
	e.Relay.SetHeadSlot(4)
	st, err = pool.Status(ctx, hash)
	if err != nil {
		t.Fatal(err)
	}
	if s := st.Slots[1]; s.Slot != 3 || s.State != betapool.StateMissed || !strings.Contains(s.Reason, miner.ReasonInvalid) {
		t.Fatalf("slot 3 status %+v, want missed: %s", s, miner.ReasonInvalid)
	}
}

// TestBetaThroughRelayCapella: the beta block on a Shanghai chain served as
// a Capella bid: merged header, merged payload, accepted by geth's import.
func TestBetaThroughRelayCapella(t *testing.T) {
	holder := &relaytest.BetaHolder{}
	e := relaytest.New(t, relaytest.Options{Capella: true, Configure: func(c *relay.Config) { c.Beta = holder }})
	ctx := context.Background()
	l2 := &relaytest.Settlement{Items: map[uint64]uint64{1: 21000}}
	svc := e.BetaService(t, l2, nil)
	holder.Service = svc
	pool := svc.Pool()
	to := common.Address{0xbe}
	tx := types.MustSignNewTx(params.DevAccounts()[5].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := tx.MarshalBinary()
	slot1 := "1"
	hash, err := pool.Add(ctx, bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &slot1}, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	l2.Pay(1, 21000, hash)
	svc.Refresh(ctx, 0)
	e.RegisterAll()

	alpha := e.BuildBlock(1, 5, nil)
	if out, err := submit(e, e.Submission(alpha), false); err != nil || out != relay.Accepted {
		t.Fatalf("submit: %v, %v", out, err)
	}
	v := e.Proposer(1)
	bid, err := e.Relay.GetHeader(context.Background(), 1, beacon.Root(e.Chain.Head().Hash()), v.Key.PublicKey())
	if err != nil || bid == nil || bid.Capella == nil {
		t.Fatalf("getHeader: %+v, %v; want a Capella bid", bid, err)
	}
	if bid.Header().BlockHash() == beacon.Root(alpha.Built.Block.Hash()) {
		t.Fatal("getHeader serves the alpha block, not the beta block")
	}
	d, err := e.Relay.GetPayload(ctx, e.BlindedBlock(1, bid), false)
	if err != nil {
		t.Fatal(err)
	}
	ed := d.Payload.ToExecutableData()
	blk, err := engine.ExecutableDataToBlock(*ed, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if txs := blk.Transactions(); txs[len(txs)-1].Hash() != tx.Hash() {
		t.Fatal("the delivered Capella block does not end with the beta tx")
	}
	if err := e.Chain.ImportBuilt(&chain.BuiltBlock{Block: blk, Envelope: &engine.ExecutionPayloadEnvelope{ExecutionPayload: ed}}); err != nil {
		t.Fatalf("geth rejects the delivered Capella beta block: %v", err)
	}
}

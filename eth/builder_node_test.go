package eth_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// withJWT serves the engine API on authrpc with a fresh JWT secret and
// returns a function that dials it as a consensus client would.
func withJWT(t *testing.T, cfg *node.Config) func(*testnode.Node) *rpc.Client {
	t.Helper()
	var secret [32]byte
	rand.Read(secret[:])
	path := filepath.Join(t.TempDir(), "jwt.hex")
	if err := os.WriteFile(path, []byte(hexutil.Encode(secret[:])), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.JWTSecret = path
	return func(n *testnode.Node) *rpc.Client {
		c, err := rpc.DialOptions(context.Background(), n.Stack().HTTPAuthEndpoint(), rpc.WithHTTPAuth(node.NewJWTAuth(secret)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
}

// forkchoice sends engine_forkchoiceUpdatedV3 with attributes, as a
// consensus client preparing its next proposal does.
func forkchoice(t *testing.T, c *rpc.Client, head common.Hash, a chain.PayloadAttributes) {
	t.Helper()
	root := a.ParentBeaconRoot
	var res engine.ForkChoiceResponse
	err := c.CallContext(context.Background(), &res, "engine_forkchoiceUpdatedV3",
		engine.ForkchoiceStateV1{HeadBlockHash: head, SafeBlockHash: head, FinalizedBlockHash: head},
		engine.PayloadAttributes{Timestamp: a.Timestamp, Random: a.PrevRandao, SuggestedFeeRecipient: a.FeeRecipient, Withdrawals: a.Withdrawals, BeaconRoot: &root})
	if err != nil {
		t.Fatalf("forkchoiceUpdatedV3: %v", err)
	}
	if res.PayloadStatus.Status != engine.VALID || res.PayloadID == nil {
		t.Fatalf("forkchoiceUpdatedV3: %s, payload id %v", res.PayloadStatus.Status, res.PayloadID)
	}
}

// nextSlotAttrs are attributes for the slot after the head's, with a
// withdrawal so that the withdrawals root is checked too.
func nextSlotAttrs(r *relay.Relay, head *types.Header) (uint64, chain.PayloadAttributes) {
	bcfg := r.BeaconConfig()
	slot := bcfg.SlotAt(head.Time) + 1
	return slot, chain.PayloadAttributes{
		Timestamp: bcfg.SlotTime(slot), PrevRandao: common.Hash{0x77}, FeeRecipient: common.Address{0xfe},
		Withdrawals:      []*types.Withdrawal{{Index: 9, Validator: 1, Address: common.Address{0xaa}, Amount: 1000}},
		ParentBeaconRoot: common.Hash{0x42},
	}
}

// TestForkchoiceAttributesReachRelay: the payload attributes a consensus
// client sends with engine_forkchoiceUpdated over authrpc (JWT, loopback)
// are what the relay checks a submission for that slot against, with no
// beacon event: before the call the slot's attributes are unknown, a call
// with another prevRandao or other withdrawals makes the submission fail
// those checks, the matching call lets it through.
func TestForkchoiceAttributesReachRelay(t *testing.T) {
	var dial func(*testnode.Node) *rpc.Client
	n := testnode.New(t, testnode.Options{Configure: func(c *node.Config, _ *ethconfig.Config, _ *eth.Config) { dial = withJWT(t, c) }})
	engineAPI := dial(n)
	// The rest of geth's engine namespace is served as before.
	var caps []string
	if err := engineAPI.Call(&caps, "engine_exchangeCapabilities", []string{"engine_forkchoiceUpdatedV3"}); err != nil || len(caps) == 0 {
		t.Fatalf("engine_exchangeCapabilities: %v %v", caps, err)
	}
	n.Step() // the dev validators register; duties are known
	head := n.Step()
	r := n.Relay().Relay()
	slot, attrs := nextSlotAttrs(r, head)

	seed := sha256.Sum256([]byte("test builder"))
	key, _ := beacon.DeriveSecretKey(seed[:])
	b, err := builder.New(builder.Config{Beacon: r.BeaconConfig(), SecretKey: key, CoinbaseKey: chain.DevBuilderKey(), Bonus: eth.DevBuilderBonus}, n.Submission().Builder())
	if err != nil {
		t.Fatal(err)
	}
	local := builder.LocalRelay{R: r}
	ctx := context.Background()
	p, ok, err := local.Proposer(ctx, slot)
	if err != nil || !ok {
		t.Fatalf("no registered proposer for slot %d: %v", slot, err)
	}
	built, err := b.Build(ctx, builder.Job{Slot: slot, Parent: head, Attrs: attrs}, p)
	if err != nil {
		t.Fatal(err)
	}
	submit := func() error { return local.Submit(ctx, built.Submission) }

	if err := submit(); !errors.Is(err, relay.ErrNoPayloadAttributes) {
		t.Fatalf("before forkchoiceUpdated: %v, want %v", err, relay.ErrNoPayloadAttributes)
	}
	other := attrs
	other.PrevRandao = common.Hash{0x78}
	forkchoice(t, engineAPI, head.Hash(), other)
	if err := submit(); !errors.Is(err, relay.ErrPrevRandao) {
		t.Fatalf("forkchoiceUpdated with another prevRandao: %v, want %v", err, relay.ErrPrevRandao)
	}
	other = attrs
	other.Withdrawals = []*types.Withdrawal{}
	forkchoice(t, engineAPI, head.Hash(), other)
	if err := submit(); !errors.Is(err, relay.ErrWithdrawalsRoot) {
		t.Fatalf("forkchoiceUpdated with other withdrawals: %v, want %v", err, relay.ErrWithdrawalsRoot)
	}
	forkchoice(t, engineAPI, head.Hash(), attrs)
	if err := submit(); err != nil {
		t.Fatalf("forkchoiceUpdated with the block's attributes: %v", err)
	}
	if best := r.BestBid(slot, beacon.Root(head.Hash()), p.Pubkey); best == nil || best.Trace.BlockHash != built.Submission.BidTrace().BlockHash {
		t.Fatal("the accepted submission is not the slot's best bid")
	}

	// Without a coinbase key the proposer is the block's fee recipient and
	// the relay checks the payment by its balance difference.
	tx, _ := types.SignNewTx(testnode.Account(3).Key, types.LatestSignerForChainID(big.NewInt(1337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: 0, GasTipCap: big.NewInt(5e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &common.Address{0xcc}, Value: big.NewInt(1),
	})
	if err := n.Client().SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := n.Engine().SyncPool(); err != nil {
		t.Fatal(err)
	}
	slot++
	attrs.Timestamp = r.BeaconConfig().SlotTime(slot)
	forkchoice(t, engineAPI, head.Hash(), attrs)
	if p, ok, err = local.Proposer(ctx, slot); err != nil || !ok {
		t.Fatalf("no registered proposer for slot %d: %v", slot, err)
	}
	direct, err := builder.New(builder.Config{Beacon: r.BeaconConfig(), SecretKey: key}, n.Submission().Builder())
	if err != nil {
		t.Fatal(err)
	}
	if built, err = direct.Build(ctx, builder.Job{Slot: slot, Parent: head, Attrs: attrs}, p); err != nil {
		t.Fatal(err)
	}
	if built.Result.Block.Coinbase() != p.FeeRecipient || built.Value.IsZero() || len(built.Result.Block.Transactions()) != 1 {
		t.Fatalf("fee recipient %s (proposer's %s), value %s, %d txs", built.Result.Block.Coinbase().Hex(), p.FeeRecipient.Hex(), built.Value, len(built.Result.Block.Transactions()))
	}
	if err := local.Submit(ctx, built.Submission); err != nil {
		t.Fatalf("a block paying by fee recipient: %v", err)
	}
}

// nopPublisher publishes nothing (the external relay is never asked for a
// payload here).
type nopPublisher struct{}

func (nopPublisher) Publish(context.Context, *beacon.SignedBlockContents, *beacon.ExecutionPayload, *beacon.BlobsBundle, *beacon.ExecutionRequests) error {
	return errors.New("not publishing")
}

// TestBuilderMode: with --builder, payload attributes from
// engine_forkchoiceUpdated make the builder build the slot's block and
// submit it to the in-process relay, which verifies it and serves it in
// getHeader, and to an external relay over loopback HTTP (a second relay
// on the same chain), which accepts the same block. A transaction paying
// a tip then makes the builder rebuild and submit a better bid to both.
func TestBuilderMode(t *testing.T) {
	extMux := http.NewServeMux()
	posted := make(chan int, 16)
	ext := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		extMux.ServeHTTP(rec, req)
		if req.Method == http.MethodPost && req.URL.Path == relayapi.PathBuilderBlocks {
			posted <- rec.status
		}
	}))
	defer ext.Close()

	var dial func(*testnode.Node) *rpc.Client
	var extRelay *relay.Relay
	n := testnode.New(t, testnode.Options{
		Configure: func(c *node.Config, _ *ethconfig.Config, g *eth.Config) {
			dial = withJWT(t, c)
			g.Builder = eth.BuilderConfig{Enabled: true, Relays: []string{ext.URL}, SlotOpen: -1}
		},
		Register: func(n *eth.Node) error {
			st, err := store.OpenSQLite("")
			if err != nil {
				return err
			}
			t.Cleanup(func() { st.Close() })
			seed := sha256.Sum256([]byte("external relay"))
			key, _ := beacon.DeriveSecretKey(seed[:])
			extRelay, err = relay.New(relay.Config{Beacon: n.Relay().Relay().BeaconConfig(), SecretKey: key, GetHeaderCutoff: -1, GetPayloadCutoff: -1},
				n.Chain(), st, nopPublisher{}, nil)
			if err != nil {
				return err
			}
			relayapi.MountBuilder(extMux, extRelay, relayapi.BuilderConfig{})
			return nil
		},
	})
	engineAPI := dial(n)
	if n.Builder() == nil {
		t.Fatal("--builder attached no builder")
	}
	n.Step()
	head := n.Step()
	r := n.Relay().Relay()
	slot, attrs := nextSlotAttrs(r, head)

	// The external relay learns what a beacon node would tell it.
	vals, _ := devbeacon.DevValidators(devbeacon.DefaultValidators)
	byIndex := map[uint64]beacon.BLSPubkey{}
	var regs []beacon.SignedValidatorRegistration
	for _, v := range vals {
		byIndex[v.Index] = v.Pubkey
		reg, ok := r.Registration(v.Pubkey)
		if !ok {
			t.Fatalf("validator %d not registered with the in-process relay", v.Index)
		}
		regs = append(regs, *reg)
	}
	extRelay.SetKnownValidators(byIndex)
	spe := r.BeaconConfig().SlotsPerEpoch
	var duties []relay.Duty
	for s := slot / spe * spe; s < (slot/spe+2)*spe; s++ {
		v := devbeacon.ProposerOf(vals, s)
		duties = append(duties, relay.Duty{Slot: s, ValidatorIndex: v.Index, Pubkey: v.Pubkey})
	}
	extRelay.SetDuties(duties)
	extRelay.SetHeadSlot(r.HeadSlot())
	if err := extRelay.RegisterValidators(context.Background(), regs); err != nil {
		t.Fatal(err)
	}
	if err := extRelay.SetPayloadAttributes(slot, head.Hash(), relay.PayloadAttributes{
		Timestamp: attrs.Timestamp, PrevRandao: attrs.PrevRandao, Withdrawals: attrs.Withdrawals, ParentBeaconRoot: attrs.ParentBeaconRoot,
	}); err != nil {
		t.Fatal(err)
	}

	forkchoice(t, engineAPI, head.Hash(), attrs)
	waitPost(t, posted)

	proposer := devbeacon.ProposerOf(vals, slot).Pubkey
	parent := beacon.Root(head.Hash())
	// The in-process relay joins the slot's group when its proposer lookup
	// answers; on a loaded machine the external relay's answer can come
	// first, and the in-process relay then gets the same block a moment
	// later.
	local := waitBid(t, func() *relay.Bid { return r.BestBid(slot, parent, proposer) })
	external := extRelay.BestBid(slot, parent, proposer)
	if local == nil || external == nil {
		t.Fatalf("best bids: in-process %v, external %v", local != nil, external != nil)
	}
	if local.Trace.BlockHash != external.Trace.BlockHash || local.Trace.BuilderPubkey != n.Builder().Pubkey() {
		t.Fatalf("in-process bid %s by %s, external %s", local.Trace.BlockHash, local.Trace.BuilderPubkey, external.Trace.BlockHash)
	}
	var bid struct {
		Data struct {
			Message struct {
				Header struct {
					BlockHash string `json:"block_hash"`
				} `json:"header"`
				Value string `json:"value"`
			} `json:"message"`
		} `json:"data"`
	}
	url := n.MEVURL() + "/eth/v1/builder/header/" + strconv.FormatUint(slot, 10) + "/" + head.Hash().Hex() + "/" + proposer.String()
	if code := getJSON(t, url, &bid); code != http.StatusOK || bid.Data.Message.Header.BlockHash != local.Trace.BlockHash.String() {
		t.Fatalf("getHeader: %d, block %s, want %s", code, bid.Data.Message.Header.BlockHash, local.Trace.BlockHash)
	}
	first := local.Value().Clone()

	// A bundle with a tipping transaction (eth_sendBundle: not in the
	// mempool): the builder rebuilds and bids more; then a mempool
	// transaction does the same.
	to := common.Address{0xbb}
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	tipping := func(account int) *types.Transaction {
		tx, _ := types.SignNewTx(testnode.Account(account).Key, signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(1337), Nonce: 0, GasTipCap: big.NewInt(5e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		return tx
	}
	raw, _ := tipping(1).MarshalBinary()
	var bundleHash map[string]any
	if err := n.RPC().Call(&bundleHash, "eth_sendBundle", map[string]any{
		"txs": []hexutil.Bytes{raw}, "blockNumber": hexutil.Uint64(head.Number.Uint64() + 1),
	}); err != nil {
		t.Fatal(err)
	}
	waitPost(t, posted) // in-process relay first, then the external one
	local, external = r.BestBid(slot, parent, proposer), extRelay.BestBid(slot, parent, proposer)
	if local.Value().Cmp(first) <= 0 || external.Trace.BlockHash != local.Trace.BlockHash {
		t.Fatalf("after a bundle: in-process bid %s (first %s), external block %s vs %s", local.Value(), first, external.Trace.BlockHash, local.Trace.BlockHash)
	}
	second := local.Value().Clone()
	if err := n.Client().SendTransaction(context.Background(), tipping(2)); err != nil {
		t.Fatal(err)
	}
	waitPost(t, posted)
	local, external = r.BestBid(slot, parent, proposer), extRelay.BestBid(slot, parent, proposer)
	if local.Value().Cmp(second) <= 0 || external.Trace.BlockHash != local.Trace.BlockHash {
		t.Fatalf("after a mempool tx: in-process bid %s (before %s), external block %s vs %s", local.Value(), second, external.Trace.BlockHash, local.Trace.BlockHash)
	}
}

// waitPost waits for the external relay's answer to one submission and
// fails unless it accepted it.
// waitBid polls get until it returns a bid, for at most 10 s.
func waitBid(t *testing.T, get func() *relay.Bid) *relay.Bid {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b := get(); b != nil {
			return b
		}
		if time.Now().After(deadline) {
			t.Fatal("no bid in the in-process relay 10 s after the external relay's")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitPost(t *testing.T, posted <-chan int) {
	t.Helper()
	select {
	case status := <-posted:
		if status != http.StatusOK {
			t.Fatalf("external relay answered %d", status)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the builder submitted nothing to the external relay")
	}
}

// statusRecorder records a handler's status code.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

package builder_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/bundlepool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/miner"
)

// TestBuilderLeavesBetaGas: on a live chain the builder learns the slot's
// beta_gas from the relays' validators lists (in process and over HTTP) and
// leaves it unused, so the relay takes its block and has room to append the
// beta block. The slot's auction sells all but 50,000 gas of the block; a
// pooled bundle of three transfers (63,000 gas) would not leave that room
// (a build without the reserve includes it) and stays out of the block.
func TestBuilderLeavesBetaGas(t *testing.T) {
	const slot = 1
	const betaGas = relaytest.GasLimit - 50_000
	holder := &relaytest.BetaHolder{}
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = holder }})
	ctx := context.Background()
	holder.Service = e.BetaService(t, &relaytest.Settlement{Items: map[uint64]uint64{slot: betaGas}}, nil)
	holder.Service.Refresh(ctx, 0) // what the background reads do
	e.RegisterAll()

	local := builder.LocalRelay{R: e.Relay}
	for _, r := range []builder.Relay{local, builder.NewHTTPRelay(newRelayServer(t, e).URL, nil)} {
		p, ok, err := r.Proposer(ctx, slot)
		if err != nil || !ok || p.BetaGas != betaGas {
			t.Fatalf("%s: proposer of slot %d: %+v %v %v; want beta gas %d", r.Name(), slot, p, ok, err, betaGas)
		}
	}

	// Three tipping transfers as one bundle for block 1.
	bundles := bundlepool.New(bundlepool.DefaultConfig, e.Chain.ChainID(), func() uint64 { return e.Chain.Head().Number.Uint64() }, nil)
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(e.Chain.ChainID()))
	to := common.Address{0xbe}
	var raw []hexutil.Bytes
	for nonce := uint64(0); nonce < 3; nonce++ {
		tx := types.MustSignNewTx(e.Senders[0], signer, &types.DynamicFeeTx{ChainID: signer.ChainID(), Nonce: nonce,
			GasTipCap: big.NewInt(2 * gparams.GWei), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
		b, _ := tx.MarshalBinary()
		raw = append(raw, b)
	}
	if _, err := bundles.Add(bundle.SendBundleArgs{Txs: raw, BlockNumber: 1}, crypto.PubkeyToAddress(e.Senders[1].PublicKey)); err != nil {
		t.Fatal(err)
	}
	blocks := miner.New(e.Chain, bundles, miner.Config{})
	b, err := builder.New(builder.Config{Beacon: e.Beacon, SecretKey: e.BuilderKey, CoinbaseKey: e.Coinbase, Bonus: uint256.NewInt(1e9), SlotOpen: -1}, blocks)
	if err != nil {
		t.Fatal(err)
	}

	a := e.Attrs(slot)
	attrs := chain.PayloadAttributes{Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot}
	head := e.Chain.Head()
	p, _, _ := local.Proposer(ctx, slot)
	p.BetaGas = 0
	unreserved, err := b.Build(ctx, builder.Job{Slot: slot, Parent: head, Attrs: attrs}, p)
	if err != nil {
		t.Fatal(err)
	}
	if used := unreserved.Submission.BidTrace().GasUsed; used <= relaytest.GasLimit-betaGas {
		t.Fatalf("without the reserve the block uses %d gas; the test needs more than %d", used, relaytest.GasLimit-betaGas)
	}

	got := &signalRelay{LocalRelay: local, done: make(chan error, 4)}
	b.Live(e.Chain, got)
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	b.OnAttributes(slot, head.Hash(), attrs)
	if err := wait(t, got.done); err != nil {
		t.Fatalf("the in-process relay refused the live builder's block: %v", err)
	}
	bid := e.Relay.BestBid(slot, beacon.Root(head.Hash()), p.Pubkey)
	if bid == nil {
		t.Fatal("no bid in the relay")
	}
	if left := bid.Trace.GasLimit - bid.Trace.GasUsed; left < betaGas {
		t.Fatalf("the block leaves %d gas, want at least beta_gas %d", left, betaGas)
	}
}

package testnode

import (
	"context"
	"github.com/gavel-eth/gavel/eth"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"
)

func TestStepAdvancesChain(t *testing.T) {
	n := New(t, Options{})
	g := n.Chain().Genesis()
	for i := uint64(1); i <= 3; i++ {
		h := n.Step()
		if h.Number.Uint64() != i {
			t.Fatalf("step %d: head number %d", i, h.Number)
		}
		if want := g.Time + i*2; h.Time != want {
			t.Fatalf("step %d: timestamp %d, want genesis+%d*2 = %d", i, h.Time, i, want)
		}
		if h.ParentBeaconRoot == nil || *h.ParentBeaconRoot == (common.Hash{}) {
			t.Fatalf("step %d: no parent beacon root", i)
		}
		// Blocks come through the relay (the dev builder's coinbase) or,
		// without a bid, are built locally for FeeRecipient.
		if h.Coinbase != FeeRecipient && h.Coinbase != eth.DevBuilderCoinbase() {
			t.Fatalf("step %d: coinbase %s, want %s", i, h.Coinbase, FeeRecipient)
		}
	}
	if got := n.Beacon().HeadSlot(); got != 3 {
		t.Fatalf("head slot %d, want 3", got)
	}
	num, err := n.Client().BlockNumber(context.Background())
	if err != nil || num != 3 {
		t.Fatalf("eth_blockNumber = %d, %v; want 3", num, err)
	}
	for _, tag := range []string{"safe", "finalized"} {
		var hdr struct {
			Number string `json:"number"`
		}
		if err := n.RPC().Call(&hdr, "eth_getBlockByNumber", tag, false); err != nil || hdr.Number != "0x3" {
			t.Fatalf("%s block = %q, %v; want 0x3", tag, hdr.Number, err)
		}
	}
}

func TestTransferMinedNextSlot(t *testing.T) {
	n := New(t, Options{})
	ctx := context.Background()
	from, to := Account(0), common.HexToAddress("0x1234000000000000000000000000000000005678")
	head := n.Chain().Head()
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	tx := types.MustSignNewTx(from.Key, signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: 0, GasTipCap: big.NewInt(gparams.GWei),
		GasFeeCap: new(big.Int).Mul(head.BaseFee, big.NewInt(2)), Gas: 21000, To: &to, Value: big.NewInt(12345),
	})
	if err := n.Client().SendTransaction(ctx, tx); err != nil {
		t.Fatalf("eth_sendRawTransaction: %v", err)
	}
	h := n.Step()
	rcpt, err := n.Client().TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		t.Fatalf("receipt after one slot: %v", err)
	}
	if rcpt.BlockNumber.Cmp(h.Number) != 0 || rcpt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt block %v status %d; want block %v status 1", rcpt.BlockNumber, rcpt.Status, h.Number)
	}
	bal, err := n.Client().BalanceAt(ctx, to, nil)
	if err != nil || bal.Int64() != 12345 {
		t.Fatalf("recipient balance %v, %v; want 12345", bal, err)
	}
}

// TestStepOnNewTxs: with StepOnNewTxs, two transactions sent back to back
// are mined without a manual step, the second no later than one block after
// the first.
func TestStepOnNewTxs(t *testing.T) {
	heads := make(chan *types.Header, 64)
	n := New(t, Options{Register: func(n *eth.Node) error {
		n.Beacon().OnSlot(func(_ context.Context, _ uint64, h *types.Header) {
			if h != nil {
				heads <- h
			}
		})
		return nil
	}})
	n.StepOnNewTxs()
	ctx := context.Background()
	to := common.HexToAddress("0x1234000000000000000000000000000000005678")
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	var txs []*types.Transaction
	for nonce := uint64(0); nonce < 2; nonce++ {
		tx := types.MustSignNewTx(Account(1).Key, signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(1337), Nonce: nonce, GasTipCap: big.NewInt(gparams.GWei),
			GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1),
		})
		if err := n.Client().SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	var mined []uint64
	for len(mined) < len(txs) {
		select {
		case <-heads:
		case <-time.After(time.Minute): // a guard, not a measurement
			t.Fatalf("%d of %d txs mined after a minute", len(mined), len(txs))
		}
		mined = mined[:0]
		for _, tx := range txs {
			if r, err := n.Client().TransactionReceipt(ctx, tx.Hash()); err == nil {
				mined = append(mined, r.BlockNumber.Uint64())
			}
		}
	}
	if mined[1] > mined[0]+1 {
		t.Fatalf("second tx mined in block %d, first in %d", mined[1], mined[0])
	}
}

func TestRestartWithDataDirContinuesChain(t *testing.T) {
	dir := t.TempDir()
	first := New(t, Options{DataDir: dir})
	genesis := first.Chain().Genesis().Hash()
	for range 3 {
		first.Step()
	}
	head := first.Chain().Head().Hash()
	if err := first.Stack().Close(); err != nil {
		t.Fatalf("stop: %v", err)
	}

	second := New(t, Options{DataDir: dir})
	if got := second.Chain().Genesis().Hash(); got != genesis {
		t.Fatalf("genesis after restart %s, want %s", got, genesis)
	}
	if got := second.Chain().Head(); got.Hash() != head || got.Number.Uint64() != 3 {
		t.Fatalf("head after restart #%d %s, want #3 %s", got.Number, got.Hash(), head)
	}
	if h := second.Step(); h.Number.Uint64() != 4 || h.ParentHash != head {
		t.Fatalf("first block after restart #%d on %s, want #4 on %s", h.Number, h.ParentHash, head)
	}
}

func TestMEVListenerServes(t *testing.T) {
	n := New(t, Options{})
	resp, err := http.Get(n.MEVURL() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz on a dev node: %d", resp.StatusCode)
	}
	var info struct {
		MEVListener string `json:"mevListener"`
		ChainID     uint64 `json:"chainId"`
		Dev         bool   `json:"dev"`
	}
	if err := n.RPC().Call(&info, "mev_nodeInfo"); err != nil {
		t.Fatal(err)
	}
	if info.MEVListener != n.MEVURL() || info.ChainID != 1337 || !info.Dev {
		t.Fatalf("mev_nodeInfo = %+v", info)
	}
	var version string
	if err := n.RPC().Call(&version, "web3_clientVersion"); err != nil || !strings.HasPrefix(version, "gavel/") {
		t.Fatalf("web3_clientVersion = %q, %v; want gavel/...", version, err)
	}
}

package devauction_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// startDevNode starts a manual-slot dev node with the auction service that
// produces a block whenever transactions arrive, until the test ends, so
// they are mined without waiting for the wall-clock slot.
func startDevNode(t *testing.T) (*testnode.Node, *devauction.Service) {
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	n.StepOnNewTxs()
	return n, svc
}

func TestDevDeploymentAndRPC(t *testing.T) {
	n, svc := startDevNode(t)
	want := deploy.Addresses(params.DevOwnerKey().Address, 0)
	if svc.Addresses() != want {
		t.Fatalf("service addresses %+v, want %+v", svc.Addresses(), want)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dev, err := svc.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if dev.Addresses != want || len(dev.Bidders) != 2 {
		t.Fatalf("deployment %+v", dev)
	}

	var got devauction.Contracts
	if err := n.RPC().CallContext(ctx, &got, "mev_auctionContracts"); err != nil {
		t.Fatal(err)
	}
	bidders := params.DevBidderKeys()
	if got.Addresses != want || !got.Deployed || got.Owner != params.DevOwnerKey().Address || got.Operator != params.DevOperatorKey().Address ||
		len(got.Bidders) != 2 || got.Bidders[0].Address != bidders[0].Address || got.Bidders[1].Address != bidders[1].Address {
		t.Fatalf("mev_auctionContracts = %+v", got)
	}
	opc, err := svc.OperatorClient(ctx, n.Client())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opc.OpenAuction(ctx, 500, 1_000_000); err != nil {
		t.Fatalf("the operator client cannot open an auction: %v", err)
	}
	// The set-up leaves the ten test accounts untouched.
	for i, acc := range params.DevAccounts() {
		if nonce, err := n.Client().NonceAt(ctx, acc.Address, nil); err != nil || nonce != 0 {
			t.Errorf("test account %d has nonce %d (%v) after the set-up, want 0", i, nonce, err)
		}
	}
	c := auction.NewClient(n.Client(), want, nil)
	for _, b := range got.Bidders {
		if bal, err := c.WETHBalance(ctx, b.Address); err != nil || bal.Cmp(deploy.DevBidderWETH) != 0 {
			t.Errorf("bidder %s WETH %v, %v", b.Address, bal, err)
		}
		if id, _ := c.BidderID(ctx, b.Address); id != b.ID {
			t.Errorf("bidder %s id %d, reported %d", b.Address, id, b.ID)
		}
	}
}

package deploy_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/contracts/simtest"
)

var ctx = context.Background()

func TestDevDeployIsDeterministic(t *testing.T) {
	var first deploy.Dev
	for run := 0; run < 2; run++ {
		chain := simtest.New(t, 0)
		dev, err := deploy.DevDeploy(ctx, chain.Client, chain.Dev[0].Key, chain.Dev[3].Address, chain.Dev[1].Key, chain.Dev[2].Key)
		if err != nil {
			t.Fatal(err)
		}
		if want := deploy.Addresses(chain.Dev[0].Address, 0); dev.Addresses != want {
			t.Fatalf("run %d: addresses %+v, want %+v", run, dev.Addresses, want)
		}
		if run == 0 {
			first = dev
		} else if dev.Addresses != first.Addresses {
			t.Fatalf("addresses differ between fresh chains: %+v vs %+v", dev.Addresses, first.Addresses)
		}
		ab := bindings.NewAuctioneer()
		out, err := chain.Client.CallContract(ctx, ethereum.CallMsg{To: &dev.Auctioneer, Data: ab.PackOperator()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if op, err := ab.UnpackOperator(out); err != nil || op != chain.Dev[3].Address || dev.Operator != op {
			t.Errorf("operator %s (%v), reported %s, want %s", op, err, dev.Operator, chain.Dev[3].Address)
		}
		c := auction.NewClient(chain.Client, dev.Addresses, nil)
		for i, b := range dev.Bidders {
			if want := chain.Dev[1+i].Address; b.Address != want {
				t.Errorf("bidder %d is %s, want %s", i, b.Address, want)
			}
			if id, _ := c.BidderID(ctx, b.Address); id != b.ID || id == 0 {
				t.Errorf("bidder %s: registered id %d, reported %d", b.Address, id, b.ID)
			}
			if bal, _ := c.WETHBalance(ctx, b.Address); bal.Cmp(deploy.DevBidderWETH) != 0 {
				t.Errorf("bidder %s holds %v WETH, want %v", b.Address, bal, deploy.DevBidderWETH)
			}
			if allowed, _ := c.WETHAllowance(ctx, b.Address); allowed.Cmp(deploy.DevBidderWETH) < 0 {
				t.Errorf("bidder %s allows the Auctioneer %v", b.Address, allowed)
			}
		}
		if id, _ := c.BidderID(ctx, dev.OpenBidder); id != 1 {
			t.Errorf("OpenBidder has bidder id %d, want 1", id)
		}

		// A restarted node runs DevDeploy again: nothing is deployed twice.
		nonce, _ := chain.Client.PendingNonceAt(ctx, chain.Dev[0].Address)
		again, err := deploy.DevDeploy(ctx, chain.Client, chain.Dev[0].Key, chain.Dev[3].Address, chain.Dev[1].Key, chain.Dev[2].Key)
		if err != nil {
			t.Fatal(err)
		}
		if again.Addresses != dev.Addresses {
			t.Fatalf("second DevDeploy moved the contracts: %+v", again.Addresses)
		}
		if n, _ := chain.Client.PendingNonceAt(ctx, chain.Dev[0].Address); n != nonce {
			t.Errorf("second DevDeploy sent %d deployer transactions", n-nonce)
		}
		if bal, _ := c.WETHBalance(ctx, chain.Dev[1].Address); bal.Cmp(deploy.DevBidderWETH) != 0 {
			t.Errorf("second DevDeploy changed the WETH of a bidder to %v", bal)
		}
	}
}

// TestDeployGasLimitsHaveHeadroom: the fixed gas limits of the deployment stay
// well above what its transactions use.
func TestDeployGasLimitsHaveHeadroom(t *testing.T) {
	chain := simtest.New(t, 0)
	if _, err := deploy.Deploy(ctx, chain.Client, chain.Signer(chain.Dev[0].Key), deploy.Config{}); err != nil {
		t.Fatal(err)
	}
	head, err := chain.Client.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for n := uint64(1); n <= head; n++ {
		block, err := chain.Client.BlockByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range block.Transactions() {
			r, err := bind.WaitMined(ctx, chain.Client, tx.Hash())
			if err != nil {
				t.Fatal(err)
			}
			count++
			if r.GasUsed*5 > tx.Gas()*4 {
				t.Errorf("tx %d used %d of its %d gas limit (over 80%%)", count, r.GasUsed, tx.Gas())
			}
		}
	}
	if count != 7 {
		t.Errorf("deployment sent %d transactions, want 7", count)
	}
}

func TestCheckDeployedRejectsWrongCode(t *testing.T) {
	chain := simtest.New(t, 0)
	addrs, err := deploy.Deploy(ctx, chain.Client, chain.Signer(chain.Dev[0].Key), deploy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	swapped := addrs
	swapped.WETH, swapped.Accountant = addrs.Accountant, addrs.WETH
	if err := deploy.CheckDeployed(ctx, chain.Client, swapped); !errors.Is(err, deploy.ErrDeployFailed) {
		t.Errorf("swapped addresses: %v, want ErrDeployFailed", err)
	}
	empty := addrs
	empty.OpenBidder = chain.Dev[5].Address
	if err := deploy.CheckDeployed(ctx, chain.Client, empty); !errors.Is(err, deploy.ErrDeployFailed) {
		t.Errorf("address without code: %v, want ErrDeployFailed", err)
	}
	if _, err := deploy.Deploy(ctx, chain.Client, chain.Signer(chain.Dev[0].Key), deploy.Config{AdminFeeBps: big.NewInt(10_001)}); !errors.Is(err, auction.ErrBadArgument) {
		t.Errorf("fee above 100%%: %v, want ErrBadArgument", err)
	}
}

// leftBlock is a backend whose head, for the first misses reads of the
// Auctioneer's code, is a block without it, as when the block that held the
// deployment's receipts was left for another.
type leftBlock struct {
	auction.Backend
	auctioneer common.Address
	misses     int
	reads      int
}

func (b *leftBlock) CodeAt(ctx context.Context, addr common.Address, n *big.Int) ([]byte, error) {
	if addr == b.auctioneer {
		b.reads++
		if b.reads <= b.misses {
			return nil, nil
		}
	}
	return b.Backend.CodeAt(ctx, addr, n)
}

// TestDeployWaitsAgainWhenCodeIsMissing: a deployment whose receipts all
// succeeded but whose code the head lacks is waited for again, a bounded
// number of times, and then fails naming the contract.
func TestDeployWaitsAgainWhenCodeIsMissing(t *testing.T) {
	chain := simtest.New(t, 0)
	b := &leftBlock{Backend: chain.Client, auctioneer: deploy.Addresses(chain.Dev[0].Address, 0).Auctioneer, misses: 2}
	if _, err := deploy.Deploy(ctx, b, chain.Signer(chain.Dev[0].Key), deploy.Config{}); err != nil {
		t.Fatalf("deployment with the code missing twice after its receipts: %v", err)
	}
	if b.reads != 3 {
		t.Fatalf("the Auctioneer's code was read %d times, want 3 (two misses, then found)", b.reads)
	}
	chain = simtest.New(t, 0)
	b = &leftBlock{Backend: chain.Client, auctioneer: deploy.Addresses(chain.Dev[0].Address, 0).Auctioneer, misses: 1 << 30}
	_, err := deploy.Deploy(ctx, b, chain.Signer(chain.Dev[0].Key), deploy.Config{})
	if !errors.Is(err, deploy.ErrDeployFailed) || !strings.Contains(err.Error(), "Auctioneer at") {
		t.Fatalf("deployment whose code never appears: %v, want ErrDeployFailed naming the Auctioneer", err)
	}
}

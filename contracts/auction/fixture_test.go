package auction_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/bindings/testbindings"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/contracts/simtest"
)

var (
	ctx   = context.Background()
	gwei  = big.NewInt(gparams.GWei)
	ether = big.NewInt(gparams.Ether)
)

func gweis(n int64) *big.Int  { return new(big.Int).Mul(big.NewInt(n), gwei) }
func ethers(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), ether) }

// fixture is a simulated chain with the contracts deployed by dev account 0,
// which owns and operates them.
type fixture struct {
	t     testing.TB
	chain *simtest.Chain
	addrs auction.Addresses
	admin *auction.Client
}

func newFixture(t testing.TB, extra int) *fixture {
	t.Helper()
	chain := simtest.New(t, extra)
	addrs, err := deploy.Deploy(ctx, chain.Client, chain.Signer(chain.Dev[0].Key), deploy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, chain: chain, addrs: addrs, admin: auction.NewClient(chain.Client, addrs, chain.Signer(chain.Dev[0].Key))}
}

func (f *fixture) client(key *ecdsa.PrivateKey) *auction.Client {
	return auction.NewClient(f.chain.Client, f.addrs, f.chain.Signer(key))
}

// dev returns a client for dev account i.
func (f *fixture) dev(i int) *auction.Client { return f.client(f.chain.Dev[i].Key) }

// bidder registers key, wraps funds ether and approves the Auctioneer.
func (f *fixture) bidder(key *ecdsa.PrivateKey, funds int64) *auction.Client {
	f.t.Helper()
	c := f.client(key)
	if _, _, err := f.admin.AddBidder(ctx, c.From()); err != nil {
		f.t.Fatal(err)
	}
	if funds > 0 {
		if _, err := c.Wrap(ctx, ethers(funds)); err != nil {
			f.t.Fatal(err)
		}
		if _, err := c.ApproveWETH(ctx); err != nil {
			f.t.Fatal(err)
		}
	}
	return c
}

func (f *fixture) open(slot, gas uint64) {
	f.t.Helper()
	if _, err := f.admin.OpenAuction(ctx, slot, gas); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) settle(slot uint64) *types.Receipt {
	f.t.Helper()
	r, err := f.admin.Settle(ctx, slot)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func (f *fixture) bid(c *auction.Client, slot uint64, bids ...auction.Bid) {
	f.t.Helper()
	if _, err := c.PlaceBids(ctx, slot, bids); err != nil {
		f.t.Fatal(err)
	}
}

// result returns a bidder's (itemsBought, amountOwed), failing the test on error.
func (f *fixture) result(slot uint64, who common.Address) (uint64, *big.Int) {
	f.t.Helper()
	r, err := f.admin.BidderInfo(ctx, slot, who)
	if err != nil {
		f.t.Fatal(err)
	}
	return r.ItemsBought.Uint64(), r.AmountOwed
}

func (f *fixture) gasTokens(who common.Address, slot uint64) uint64 {
	f.t.Helper()
	b, err := f.admin.GasBalance(ctx, who, slot)
	if err != nil {
		f.t.Fatal(err)
	}
	return b.Uint64()
}

func (f *fixture) weth(who common.Address) *big.Int {
	f.t.Helper()
	b, err := f.admin.WETHBalance(ctx, who)
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// raw sends calldata to a contract from key and returns the decoded error.
func (f *fixture) raw(key *ecdsa.PrivateKey, to common.Address, data []byte) error {
	_, err := f.rawValue(key, to, data, nil)
	return err
}

// rawValue sends calldata with value and returns the receipt or the decoded error.
func (f *fixture) rawValue(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int) (*types.Receipt, error) {
	c := bind.NewBoundContract(to, bindings.NewAuctioneer().GetABI(), f.chain.Client, f.chain.Client, f.chain.Client)
	opts := f.chain.Signer(key)
	opts.Context = ctx
	opts.Value = value
	tx, err := c.RawTransact(opts, data)
	if err != nil {
		return nil, auction.DecodeError(err)
	}
	r, err := bind.WaitMined(ctx, f.chain.Client, tx.Hash())
	if err != nil {
		return nil, err
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, auction.ErrTxFailed
	}
	return r, nil
}

// deployScripted deploys a ScriptedBidder, registers it and funds it with ether wrapped.
func (f *fixture) deployScripted(funds int64) (common.Address, uint8) {
	f.t.Helper()
	opts := f.chain.Signer(f.chain.Dev[0].Key)
	addr, tx, err := bind.DeployContract(opts, common.FromHex(testbindings.ScriptedBidderMetaData.Bin), f.chain.Client, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := bind.WaitDeployed(ctx, f.chain.Client, tx.Hash()); err != nil {
		f.t.Fatal(err)
	}
	id, _, err := f.admin.AddBidder(ctx, addr)
	if err != nil {
		f.t.Fatal(err)
	}
	sb := testbindings.NewScriptedBidder()
	if _, err := f.rawValue(f.chain.Dev[0].Key, addr, sb.PackFund(f.addrs.WETH, f.addrs.Auctioneer), ethers(funds)); err != nil {
		f.t.Fatal(err)
	}
	return addr, id
}

// wantRevert fails unless err is a RevertError named name.
func wantRevert(t testing.TB, err error, name string) *auction.RevertError {
	t.Helper()
	var re *auction.RevertError
	if !errors.As(err, &re) {
		t.Fatalf("want revert %s, got %v", name, err)
	}
	if re.Name != name {
		t.Fatalf("want revert %s, got %v", name, re)
	}
	return re
}

// newKey returns a fresh unfunded key.
func newKey(t testing.TB) *ecdsa.PrivateKey {
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mul(a *big.Int, b uint64) *big.Int { return new(big.Int).Mul(a, new(big.Int).SetUint64(b)) }

func big64(n uint64) *big.Int { return new(big.Int).SetUint64(n) }

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

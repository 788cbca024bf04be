// Package deploy deploys gavel's auction contracts (WETH, Accountant,
// Auctioneer, SettlementHouse, OpenBidder) to an L2 chain, and does the
// deterministic deployment of `gavel --dev`: fixed deployer, fixed nonce order,
// so the addresses are the same on every fresh dev chain.
package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
)

// Gas limits of the deployment transactions: fixed, so that a whole deployment
// is sent at once with consecutive nonces without estimating against contracts
// not mined yet. Each is well above what the transaction uses (see the tests).
const (
	gasWETH       = 1_500_000
	gasAccountant = 2_000_000
	gasAuctioneer = 5_000_000
	gasHouse      = 1_500_000
	gasOpenBidder = 4_000_000
	gasCall       = 300_000
)

// DefaultAdminFeeBps is the Accountant's admin fee when Config leaves it unset: 1%.
const DefaultAdminFeeBps = 100

// ErrDeployFailed is returned when a deployment transaction failed or left no code.
var ErrDeployFailed = errors.New("deployment failed")

// Config chooses the roles of a deployment. Zero addresses mean the deployer.
type Config struct {
	Owner    common.Address // owner of the Auctioneer and the Accountant (registers bidders)
	Operator common.Address // operator of both (opens and settles auctions, sets reward addresses)
	// AdminFeeBps is the Accountant's fee in basis points; nil means DefaultAdminFeeBps.
	AdminFeeBps *big.Int
}

// Addresses returns the addresses a deployment by deployer starting at nonce
// will have: WETH, Accountant, Auctioneer, SettlementHouse, OpenBidder in that
// nonce order.
func Addresses(deployer common.Address, nonce uint64) auction.Addresses {
	return auction.Addresses{
		WETH:            crypto.CreateAddress(deployer, nonce),
		Accountant:      crypto.CreateAddress(deployer, nonce+1),
		Auctioneer:      crypto.CreateAddress(deployer, nonce+2),
		SettlementHouse: crypto.CreateAddress(deployer, nonce+3),
		OpenBidder:      crypto.CreateAddress(deployer, nonce+4),
	}
}

// Deploy deploys all contracts from signer, links them (Accountant pays out for
// the Auctioneer; the OpenBidder is registered as a bidder when signer owns the
// Auctioneer) and waits until every transaction is mined.
func Deploy(ctx context.Context, backend auction.Backend, signer *bind.TransactOpts, cfg Config) (auction.Addresses, error) {
	owner, operator := cfg.Owner, cfg.Operator
	if owner == (common.Address{}) {
		owner = signer.From
	}
	if operator == (common.Address{}) {
		operator = signer.From
	}
	fee := cfg.AdminFeeBps
	if fee == nil {
		fee = big.NewInt(DefaultAdminFeeBps)
	}
	if fee.Sign() < 0 || fee.Cmp(big.NewInt(10_000)) > 0 {
		return auction.Addresses{}, fmt.Errorf("%w: admin fee %v basis points, expected 0..10000", auction.ErrBadArgument, fee)
	}
	b := newBatch(ctx, backend)
	nonce, err := b.nonce(signer.From)
	if err != nil {
		return auction.Addresses{}, err
	}
	addrs := Addresses(signer.From, nonce)

	var (
		accountant = bindings.NewAccountant()
		auctioneer = bindings.NewAuctioneer()
		house      = bindings.NewSettlementHouse()
		openBidder = bindings.NewOpenBidder()
	)
	b.create(signer, "WETH", bindings.WETHMetaData.Bin, nil, gasWETH)
	b.create(signer, "Accountant", bindings.AccountantMetaData.Bin, accountant.PackConstructor(owner, operator, addrs.WETH, fee), gasAccountant)
	b.create(signer, "Auctioneer", bindings.AuctioneerMetaData.Bin, auctioneer.PackConstructor(owner, operator, addrs.WETH, addrs.Accountant), gasAuctioneer)
	b.create(signer, "SettlementHouse", bindings.SettlementHouseMetaData.Bin, house.PackConstructor(addrs.Auctioneer), gasHouse)
	b.create(signer, "OpenBidder", bindings.OpenBidderMetaData.Bin, openBidder.PackConstructor(addrs.Auctioneer, addrs.SettlementHouse), gasOpenBidder)
	if owner == signer.From {
		b.call(signer, "Accountant.setAuctioneer", addrs.Accountant, accountant.PackSetAuctioneer(addrs.Auctioneer), nil, gasCall)
		b.call(signer, "Auctioneer.newBidder(OpenBidder)", addrs.Auctioneer, auctioneer.PackNewBidder(addrs.OpenBidder), nil, gasCall)
	}
	// A receipt can come from a block the chain then leaves (a reorg): the
	// code is then missing at the head although every receipt said
	// success, and the transactions are mined again from the pool. The
	// batch is waited for again, a bounded number of times.
	for attempt := 1; ; attempt++ {
		if err := b.wait(); err != nil {
			return addrs, err
		}
		err := CheckDeployed(ctx, backend, addrs)
		if !errors.Is(err, errNoCode) || attempt == checkAttempts {
			return addrs, err
		}
	}
}

// checkAttempts bounds how often a deployment whose code is missing after
// its receipts is waited for again.
const checkAttempts = 3

// errNoCode is a contract address without code (wrapped in ErrDeployFailed).
var errNoCode = errors.New("no contract code")

// CheckDeployed verifies that every contract of addrs has the code this
// version of gavel deploys.
func CheckDeployed(ctx context.Context, backend auction.Backend, addrs auction.Addresses) error {
	for _, c := range []struct {
		name string
		addr common.Address
		md   *bind.MetaData
	}{
		{"WETH", addrs.WETH, &bindings.WETHMetaData},
		{"Accountant", addrs.Accountant, &bindings.AccountantMetaData},
		{"Auctioneer", addrs.Auctioneer, &bindings.AuctioneerMetaData},
		{"SettlementHouse", addrs.SettlementHouse, &bindings.SettlementHouseMetaData},
		{"OpenBidder", addrs.OpenBidder, &bindings.OpenBidderMetaData},
	} {
		code, err := backend.CodeAt(ctx, c.addr, nil)
		if err != nil {
			return fmt.Errorf("reading the code of %s at %s: %w", c.name, c.addr, err)
		}
		if len(code) == 0 {
			return fmt.Errorf("%w: %w (%s at %s)", ErrDeployFailed, errNoCode, c.name, c.addr)
		}
		// Runtime code is a suffix of the creation code, up to immutables; compare a
		// prefix that precedes any immutable reference.
		creation := common.FromHex(c.md.Bin)
		n := min(len(code), 32)
		if !bytes.Contains(creation, code[:n]) {
			return fmt.Errorf("%w: the code at %s is not gavel's %s", ErrDeployFailed, c.addr, c.name)
		}
	}
	return nil
}

// batch sends transactions with consecutive nonces per sender and fixed gas
// limits (no estimation against contracts not mined yet), then waits for all.
type batch struct {
	ctx     context.Context
	backend auction.Backend
	nonces  map[common.Address]uint64
	txs     []*types.Transaction
	names   []string
	err     error
}

func newBatch(ctx context.Context, backend auction.Backend) *batch {
	return &batch{ctx: ctx, backend: backend, nonces: map[common.Address]uint64{}}
}

// nonce returns the next nonce of from in this batch.
func (b *batch) nonce(from common.Address) (uint64, error) {
	if n, ok := b.nonces[from]; ok {
		return n, nil
	}
	n, err := b.backend.PendingNonceAt(b.ctx, from)
	if err != nil {
		return 0, fmt.Errorf("reading the nonce of %s: %w", from, err)
	}
	b.nonces[from] = n
	return n, nil
}

func (b *batch) opts(signer *bind.TransactOpts, gas uint64, value *big.Int) *bind.TransactOpts {
	n, err := b.nonce(signer.From)
	if err != nil {
		b.err = err
		return nil
	}
	o := *signer
	o.Context = b.ctx
	o.Nonce = new(big.Int).SetUint64(n)
	o.GasLimit = gas
	o.Value = value
	return &o
}

func (b *batch) create(signer *bind.TransactOpts, name, bin string, args []byte, gas uint64) {
	if b.err != nil {
		return
	}
	opts := b.opts(signer, gas, nil)
	if opts == nil {
		return
	}
	_, tx, err := bind.DeployContract(opts, common.FromHex(bin), b.backend, args)
	b.record(signer.From, name, tx, err)
}

func (b *batch) call(signer *bind.TransactOpts, name string, to common.Address, data []byte, value *big.Int, gas uint64) {
	if b.err != nil {
		return
	}
	opts := b.opts(signer, gas, value)
	if opts == nil {
		return
	}
	c := bind.NewBoundContract(to, abi.ABI{}, b.backend, b.backend, b.backend)
	tx, err := c.RawTransact(opts, data)
	b.record(signer.From, name, tx, err)
}

func (b *batch) record(from common.Address, name string, tx *types.Transaction, err error) {
	if err != nil {
		b.err = fmt.Errorf("sending %s: %w", name, auction.DecodeError(err))
		return
	}
	b.nonces[from]++
	b.txs = append(b.txs, tx)
	b.names = append(b.names, name)
}

func (b *batch) wait() error {
	if b.err != nil {
		return b.err
	}
	for i, tx := range b.txs {
		r, err := auction.WaitMined(b.ctx, b.backend, tx.Hash())
		if err != nil {
			return fmt.Errorf("waiting for %s: %w", b.names[i], err)
		}
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("%w: %s (tx %s) reverted", ErrDeployFailed, b.names[i], tx.Hash())
		}
	}
	return nil
}

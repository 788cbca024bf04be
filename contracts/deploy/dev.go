package deploy

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
)

// DevBidderWETH is the WETH each dev bidder is given: 100 ether.
var DevBidderWETH = new(big.Int).Mul(big.NewInt(100), big.NewInt(gparams.Ether))

// Dev is the dev-chain deployment.
type Dev struct {
	auction.Addresses
	// Deployer owns every contract and registers the bidders.
	Deployer common.Address
	// Operator opens, settles, pays out and refunds auctions.
	Operator common.Address
	// Bidders are the registered dev bidders, with their ids.
	Bidders []DevBidder
}

// DevBidder is a dev bidder: a test account registered with the Auctioneer,
// holding DevBidderWETH wrapped and approved for the Auctioneer.
type DevBidder struct {
	Address common.Address `json:"address"`
	ID      uint8          `json:"id"`
}

// DevDeploy deploys the contracts from deployer on a dev chain (deployer owns
// them, operator operates them; the zero address means the deployer), registers bidders and gives each DevBidderWETH in WETH
// approved for the Auctioneer. On a fresh chain, where the deployer has sent
// nothing yet, the addresses are Addresses(deployer, 0), so they are the same
// on every run; on a chain where that deployment exists already (a restarted
// node) nothing is sent again and the bidders are only topped up as needed.
func DevDeploy(ctx context.Context, backend auction.Backend, deployer *ecdsa.PrivateKey, operator common.Address, bidders ...*ecdsa.PrivateKey) (Dev, error) {
	chainID, err := backend.ChainID(ctx)
	if err != nil {
		return Dev{}, fmt.Errorf("reading the chain id: %w", err)
	}
	from := crypto.PubkeyToAddress(deployer.PublicKey)
	owner := bind.NewKeyedTransactor(deployer, chainID)
	if operator == (common.Address{}) {
		operator = from
	}
	dev := Dev{Addresses: Addresses(from, 0), Deployer: from, Operator: operator}

	if CheckDeployed(ctx, backend, dev.Addresses) != nil {
		if dev.Addresses, err = Deploy(ctx, backend, owner, Config{Operator: operator}); err != nil {
			return dev, err
		}
	}
	admin := auction.NewClient(backend, dev.Addresses, owner)

	// One batch: the owner registers every bidder while each bidder wraps and
	// approves, so a dev chain needs one block for all of it.
	var (
		b          = newBatch(ctx, backend)
		auctioneer = bindings.NewAuctioneer()
		weth       = bindings.NewWETH()
		max        = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	)
	for _, key := range bidders {
		addr := crypto.PubkeyToAddress(key.PublicKey)
		id, err := admin.BidderID(ctx, addr)
		if err != nil {
			return dev, err
		}
		if id == 0 {
			b.call(owner, "Auctioneer.newBidder("+addr.Hex()+")", dev.Auctioneer, auctioneer.PackNewBidder(addr), nil, gasCall)
		}
		signer := bind.NewKeyedTransactor(key, chainID)
		have, err := admin.WETHBalance(ctx, addr)
		if err != nil {
			return dev, err
		}
		if have.Cmp(DevBidderWETH) < 0 {
			b.call(signer, "WETH.deposit by "+addr.Hex(), dev.WETH, weth.PackDeposit(), new(big.Int).Sub(DevBidderWETH, have), gasCall)
		}
		allowed, err := admin.WETHAllowance(ctx, addr)
		if err != nil {
			return dev, err
		}
		if allowed.Cmp(DevBidderWETH) < 0 {
			b.call(signer, "WETH.approve by "+addr.Hex(), dev.WETH, weth.PackApprove(dev.Auctioneer, max), nil, gasCall)
		}
	}
	if err := b.wait(); err != nil {
		return dev, fmt.Errorf("setting up the dev bidders: %w", err)
	}
	for _, key := range bidders {
		addr := crypto.PubkeyToAddress(key.PublicKey)
		id, err := admin.BidderID(ctx, addr)
		if err != nil {
			return dev, err
		}
		dev.Bidders = append(dev.Bidders, DevBidder{Address: addr, ID: id})
	}
	return dev, nil
}

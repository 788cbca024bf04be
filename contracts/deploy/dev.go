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
)

// DevBidderWETH is the WETH each dev bidder is given: 100 ether.
var DevBidderWETH = new(big.Int).Mul(big.NewInt(100), big.NewInt(gparams.Ether))

// Dev is the dev-chain deployment.
type Dev struct {
	auction.Addresses
	// Deployer owns and operates every contract.
	Deployer common.Address
	// Bidders are the registered dev bidders, with their ids.
	Bidders []DevBidder
}

// DevBidder is a dev bidder: a test account registered with the Auctioneer,
// holding DevBidderWETH wrapped and approved for the Auctioneer.
type DevBidder struct {
	Address common.Address
	ID      uint8
}

// DevDeploy deploys the contracts from deployer on a dev chain (deployer owns
// and operates them), registers bidders and gives each DevBidderWETH in WETH
// approved for the Auctioneer. On a fresh chain, where the deployer has sent
// nothing yet, the addresses are Addresses(deployer, 0), so they are the same
// on every run; on a chain where that deployment exists already (a restarted
// node) nothing is sent again and the bidders are only topped up as needed.
func DevDeploy(ctx context.Context, backend auction.Backend, deployer *ecdsa.PrivateKey, bidders ...*ecdsa.PrivateKey) (Dev, error) {
	chainID, err := backend.ChainID(ctx)
	if err != nil {
		return Dev{}, fmt.Errorf("reading the chain id: %w", err)
	}
	from := crypto.PubkeyToAddress(deployer.PublicKey)
	owner := bind.NewKeyedTransactor(deployer, chainID)
	dev := Dev{Addresses: Addresses(from, 0), Deployer: from}

	if CheckDeployed(ctx, backend, dev.Addresses) != nil {
		if dev.Addresses, err = Deploy(ctx, backend, owner, Config{}); err != nil {
			return dev, err
		}
	}
	admin := auction.NewClient(backend, dev.Addresses, owner)

	// Register every bidder first (one sender, one nonce sequence), then fund
	// them: their WETH transactions need the contracts mined.
	for _, key := range bidders {
		addr := crypto.PubkeyToAddress(key.PublicKey)
		id, err := admin.BidderID(ctx, addr)
		if err != nil {
			return dev, err
		}
		if id == 0 {
			if id, _, err = admin.AddBidder(ctx, addr); err != nil {
				return dev, fmt.Errorf("registering dev bidder %s: %w", addr, err)
			}
		}
		dev.Bidders = append(dev.Bidders, DevBidder{Address: addr, ID: id})
	}
	for _, key := range bidders {
		bidder := auction.NewClient(backend, dev.Addresses, bind.NewKeyedTransactor(key, chainID))
		have, err := bidder.WETHBalance(ctx, bidder.From())
		if err != nil {
			return dev, err
		}
		if have.Cmp(DevBidderWETH) < 0 {
			if _, err := bidder.Wrap(ctx, new(big.Int).Sub(DevBidderWETH, have)); err != nil {
				return dev, fmt.Errorf("wrapping ether for dev bidder %s: %w", bidder.From(), err)
			}
		}
		allowed, err := bidder.WETHAllowance(ctx, bidder.From())
		if err != nil {
			return dev, err
		}
		if allowed.Cmp(DevBidderWETH) < 0 {
			if _, err := bidder.ApproveWETH(ctx); err != nil {
				return dev, fmt.Errorf("approving WETH for dev bidder %s: %w", bidder.From(), err)
			}
		}
	}
	return dev, nil
}

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/operator"
)

// Flags of the dev chain's id and of its auction (eth.DevAuctionConfig).
var (
	devChainIDFlag = &cli.Uint64Flag{
		Name:     "dev.chainid",
		Usage:    "Chain id of a new dev chain (default 1337); give a second `gavel --dev` another one to run it as a separate L2",
		Category: "DEVELOPER CHAIN",
	}
	devAuctionFlag = &cli.BoolFlag{
		Name:     "dev.auction",
		Usage:    "Deploy the auction contracts on the dev chain at start-up (false: none; deploy with `gavel auction deploy`)",
		Value:    true,
		Category: "DEVELOPER CHAIN",
	}
	devAuctionOperateFlag = &cli.BoolFlag{
		Name:     "dev.auction.operate",
		Usage:    "Run the auction operator loop in-process: open, settle, pay out and refund an auction for every dev slot (false: by hand or with `gavel auction operate`)",
		Value:    true,
		Category: "DEVELOPER CHAIN",
	}
	devAuctionGasFlag = &cli.Uint64Flag{
		Name:     "dev.auction.gas",
		Usage:    "Beta gas the dev operator sells per slot",
		Value:    operator.DefaultGas,
		Category: "DEVELOPER CHAIN",
	}
	devAuctionLeadFlag = &cli.Uint64Flag{
		Name:     "dev.auction.lead",
		Usage:    "The dev operator opens slot S's auction when slot S-lead is over",
		Value:    operator.DefaultLead,
		Category: "DEVELOPER CHAIN",
	}
	devAuctionSettleLeadFlag = &cli.Uint64Flag{
		Name:     "dev.auction.settlelead",
		Usage:    "The dev operator settles slot S's auction when slot S-settlelead is over (below --dev.auction.lead; winners pay their bundle hashes in the slots between)",
		Value:    operator.DefaultSettleLead,
		Category: "DEVELOPER CHAIN",
	}
)

var devAuctionFlags = []cli.Flag{devChainIDFlag, devAuctionFlag, devAuctionOperateFlag, devAuctionGasFlag, devAuctionLeadFlag, devAuctionSettleLeadFlag}

// applyDevAuctionFlags applies the dev chain id and dev auction flags over
// the file's [Mev.Dev] section.
func applyDevAuctionFlags(ctx *cli.Context, cfg *gavelConfig) error {
	d := &cfg.Mev.Dev
	if setIfGiven(ctx, devChainIDFlag.Name, ctx.Uint64, &d.ChainID) && d.ChainID == 0 {
		return fmt.Errorf("%w: --dev.chainid must be above 0", errUsage)
	}
	if ctx.IsSet(devAuctionFlag.Name) {
		d.Auction.Disabled = !ctx.Bool(devAuctionFlag.Name)
	}
	if ctx.IsSet(devAuctionOperateFlag.Name) {
		d.Auction.NoOperator = !ctx.Bool(devAuctionOperateFlag.Name)
	}
	fillFromFlag(ctx, devAuctionGasFlag.Name, &d.Auction.Gas)
	fillFromFlag(ctx, devAuctionLeadFlag.Name, &d.Auction.Lead)
	fillFromFlag(ctx, devAuctionSettleLeadFlag.Name, &d.Auction.SettleLead)
	if d.Enabled && !d.Auction.Disabled && !d.Auction.NoOperator && d.Auction.SettleLead >= d.Auction.Lead {
		return fmt.Errorf("%w: --dev.auction.settlelead (%d) must be below --dev.auction.lead (%d): an auction needs slots to take bids", errUsage, d.Auction.SettleLead, d.Auction.Lead)
	}
	return nil
}

package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/params"
)

// Flags of the beta block's L2 ([Mev.Beta]).
var (
	betaL2RPCFlag = &cli.StringFlag{
		Name:     "beta.l2rpc",
		Usage:    "JSON-RPC URL (http://, https://, ws://, wss://) of the L2 chain where beta gas is auctioned and bundle hashes are paid. Unset: in --dev the dev chain is its own L2; elsewhere the beta block is off",
		Category: "BETA BUNDLES",
	}
	betaNetworkFlag = &cli.StringFlag{
		Name:     "beta.network",
		Usage:    "Auction contract addresses of a known L2 deployment: \"main\" (L2 chain 7890785, beta bundles for chain 1) or \"test\" (L2 chain 42169, for chain 17000)",
		Category: "BETA BUNDLES",
	}
	betaAuctioneerFlag = &cli.StringFlag{
		Name:     "beta.auctioneer",
		Usage:    "Address of the Auctioneer contract on the L2 (overrides --beta.network)",
		Category: "BETA BUNDLES",
	}
	betaSettlementFlag = &cli.StringFlag{
		Name:     "beta.settlementhouse",
		Usage:    "Address of the SettlementHouse contract on the L2, where bundle hashes are paid (overrides --beta.network)",
		Category: "BETA BUNDLES",
	}
	betaDisableFlag = &cli.BoolFlag{
		Name:     "beta.disable",
		Usage:    "Serve builders' blocks as they are: no paid beta bundles appended, beta_gas 0",
		Category: "BETA BUNDLES",
	}
)

var betaFlags = []cli.Flag{betaL2RPCFlag, betaNetworkFlag, betaAuctioneerFlag, betaSettlementFlag, betaDisableFlag}

// applyBetaFlags applies the beta flags over [Mev.Beta].
func applyBetaFlags(ctx *cli.Context, cfg *gavelConfig) error {
	b := &cfg.Mev.Beta
	if ctx.IsSet(betaL2RPCFlag.Name) {
		u := ctx.String(betaL2RPCFlag.Name)
		ok := false
		for _, p := range []string{"http://", "https://", "ws://", "wss://"} {
			ok = ok || strings.HasPrefix(u, p)
		}
		if !ok {
			return fmt.Errorf("%w: --beta.l2rpc %q: expected an http://, https://, ws:// or wss:// URL", errUsage, u)
		}
		b.L2RPC = u
	}
	if ctx.IsSet(betaNetworkFlag.Name) {
		n := ctx.String(betaNetworkFlag.Name)
		if _, err := params.BetaNetworkByName(n); err != nil {
			return fmt.Errorf("%w: --beta.network: %v", errUsage, err)
		}
		b.Network = n
	}
	setIfGiven(ctx, betaAuctioneerFlag.Name, ctx.String, &b.Auctioneer)
	setIfGiven(ctx, betaSettlementFlag.Name, ctx.String, &b.SettlementHouse)
	setIfGiven(ctx, betaDisableFlag.Name, ctx.Bool, &b.Disabled)
	return nil
}

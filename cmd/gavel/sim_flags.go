package main

import (
	"cmp"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/core/bundle"
)

// Flags of bundle simulation ([Mev.Bundles]).
var (
	simMaxTxsFlag = &cli.IntFlag{
		Name:     "mev.sim.maxtxs",
		Usage:    "Most transactions an eth_callBundle / eth_estimateGasBundle request may carry",
		Value:    bundle.DefaultMaxTxs,
		Category: "BUNDLE SIMULATION",
	}
	simMaxBytesFlag = &cli.IntFlag{
		Name:     "mev.sim.maxbytes",
		Usage:    "Largest summed size of a simulated bundle's raw transactions, in bytes",
		Value:    bundle.DefaultMaxBytes,
		Category: "BUNDLE SIMULATION",
	}
	simTimeoutFlag = &cli.DurationFlag{
		Name:     "mev.sim.timeout",
		Usage:    "Simulation time limit when a request gives no \"timeout\"; a bundle that runs longer fails with an error",
		Value:    bundle.DefaultTimeout,
		Category: "BUNDLE SIMULATION",
	}
	simMaxTimeoutFlag = &cli.DurationFlag{
		Name:     "mev.sim.maxtimeout",
		Usage:    "Largest \"timeout\" a simulation request may ask for; larger ones are refused",
		Value:    bundle.DefaultMaxTimeout,
		Category: "BUNDLE SIMULATION",
	}
	simSenderCacheFlag = &cli.IntFlag{
		Name:     "mev.sim.sendercache",
		Usage:    "Transaction senders remembered between simulation requests, saving signature recovery (negative = off)",
		Value:    bundle.DefaultSenderCache,
		Category: "BUNDLE SIMULATION",
	}
)

var simFlags = []cli.Flag{simMaxTxsFlag, simMaxBytesFlag, simTimeoutFlag, simMaxTimeoutFlag, simSenderCacheFlag}

// applySimFlags applies the simulation flags over [Mev.Bundles].
func applySimFlags(ctx *cli.Context, cfg *gavelConfig) error {
	b := &cfg.Mev.Bundles
	if err := cmp.Or( // the first refusal, in flag order
		setPositiveIfGiven(ctx, simMaxTxsFlag.Name, ctx.Int, &b.MaxTxs),
		setPositiveIfGiven(ctx, simMaxBytesFlag.Name, ctx.Int, &b.MaxBytes),
		setPositiveIfGiven(ctx, simTimeoutFlag.Name, ctx.Duration, &b.DefaultTimeout),
		setPositiveIfGiven(ctx, simMaxTimeoutFlag.Name, ctx.Duration, &b.MaxTimeout),
	); err != nil {
		return err
	}
	setIfGiven(ctx, simSenderCacheFlag.Name, ctx.Int, &b.SenderCache)
	if b.DefaultTimeout > 0 && b.MaxTimeout > 0 && b.DefaultTimeout > b.MaxTimeout {
		return fmt.Errorf("%w: --mev.sim.timeout (%v) must not exceed --mev.sim.maxtimeout (%v)", errUsage, b.DefaultTimeout, b.MaxTimeout)
	}
	return nil
}

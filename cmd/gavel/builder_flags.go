package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth/builder"
)

// Builder mode's flags ([Mev.Builder]).
var (
	builderFlag = &cli.BoolFlag{
		Name:     "builder",
		Usage:    "Builder mode: for every slot whose payload attributes arrive (engine_forkchoiceUpdated from the consensus client, or the beacon node's payload_attributes events), build a block on the head from eth_sendBundle bundles and the mempool, sign it with --builder.secretkey and submit it to the in-process relay and to --builder.relays; rebuild while the slot is open when better bundles or transactions arrive",
		Category: "BUILDER",
	}
	builderSecretKeyFlag = &cli.StringFlag{
		Name:     "builder.secretkey",
		Usage:    "BLS secret key of the builder, 32 bytes hex: it signs every block submission. Required with --builder (--dev uses the dev builder key when unset)",
		Category: "BUILDER",
	}
	builderCoinbaseKeyFlag = &cli.StringFlag{
		Name:     "builder.coinbasekey",
		Usage:    "secp256k1 key, 32 bytes hex, of a funded account the builder builds with: it receives the block's fees and pays the proposer with the block's final transaction. Unset: the proposer's fee recipient is the block's fee recipient (--dev uses the dev builder account)",
		Category: "BUILDER",
	}
	builderRelaysFlag = &cli.StringSliceFlag{
		Name:     "builder.relays",
		Usage:    "External relay base URLs, comma-separated, to submit blocks to (builder-specs: SSZ+gzip, JSON when the relay refuses SSZ); only slots whose proposer is in a relay's /relay/v1/builder/validators are submitted to it",
		Category: "BUILDER",
	}
	builderDebounceFlag = &cli.DurationFlag{
		Name:     "builder.debounce",
		Usage:    "How long a rebuild waits for more bundles or transactions after one arrives, and so the least time between two builds of a slot",
		Value:    builder.DefaultDebounce,
		Category: "BUILDER",
	}
	builderMaxBuildsFlag = &cli.IntFlag{
		Name:     "builder.maxbuilds",
		Usage:    "Most builds of one slot (the first and the rebuilds)",
		Value:    builder.DefaultMaxBuilds,
		Category: "BUILDER",
	}
)

// builderFlags are builder mode's flags.
var builderFlags = []cli.Flag{builderFlag, builderSecretKeyFlag, builderCoinbaseKeyFlag, builderRelaysFlag, builderDebounceFlag, builderMaxBuildsFlag}

// applyBuilderFlags applies builder mode's flags over the file's settings.
func applyBuilderFlags(ctx *cli.Context, cfg *gavelConfig) error {
	b := &cfg.Mev.Builder
	setIfGiven(ctx, builderFlag.Name, ctx.Bool, &b.Enabled)
	setIfGiven(ctx, builderSecretKeyFlag.Name, ctx.String, &b.SecretKey)
	setIfGiven(ctx, builderCoinbaseKeyFlag.Name, ctx.String, &b.CoinbaseKey)
	setIfGiven(ctx, builderRelaysFlag.Name, ctx.StringSlice, &b.Relays)
	fillFromFlag(ctx, builderDebounceFlag.Name, &b.Debounce)
	if err := checkPositive(builderDebounceFlag.Name, b.Debounce); err != nil {
		return err
	}
	fillFromFlag(ctx, builderMaxBuildsFlag.Name, &b.MaxBuilds)
	if b.MaxBuilds < 1 {
		return fmt.Errorf("%w: --builder.maxbuilds must be at least 1: got %d", errUsage, b.MaxBuilds)
	}
	if b.Enabled && b.SecretKey == "" && !cfg.Mev.Dev.Enabled {
		return fmt.Errorf("%w: --builder needs --builder.secretkey (the builder's BLS secret key, 32 bytes hex)", errUsage)
	}
	return nil
}

package main

import (
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/core/chain"
)

// overrideFlags are geth's fork-time overrides, for `gavel init` and for
// running the node, as in geth.
var overrideFlags = []cli.Flag{utils.OverrideOsaka, utils.OverrideAmsterdam, utils.OverrideBPO1, utils.OverrideBPO2, utils.OverrideUBT}

// initCommand is geth's `init`: it writes a custom network's genesis into
// the data directory, where the node then finds it.
var initCommand = &cli.Command{
	Name:      "init",
	Usage:     "Bootstrap and initialize a new genesis block (a custom network), as `geth init` does",
	ArgsUsage: "<genesis.json>",
	Flags:     concat([]cli.Flag{configFileFlag, verbosityFlag, utils.CachePreimagesFlag}, overrideFlags, utils.DatabaseFlags),
	Description: `The init command writes the genesis block, state and chain config of the genesis
file (geth's format) into the data directory's chain database. Start gavel with
the same --datadir afterwards: it runs the chain of that genesis. A datadir that
already holds another chain is refused.`,
	Action: runInit,
}

func runInit(ctx *cli.Context) error {
	if ctx.Args().Len() != 1 || ctx.Args().First() == "" {
		return fmt.Errorf("%w: need the genesis.json file as the only argument: gavel init [--datadir DIR] genesis.json", errUsage)
	}
	if err := setupLogging(ctx); err != nil {
		return err
	}
	genesis, err := chain.ReadGenesisFile(ctx.Args().First())
	if err != nil {
		return err
	}
	cfg := defaultConfig()
	if file := ctx.String(configFileFlag.Name); file != "" {
		if err := loadConfigFile(file, &cfg); err != nil {
			return err
		}
	}
	utils.SetNodeConfig(ctx, &cfg.Node)
	if cfg.Node.DataDir == "" {
		return fmt.Errorf("%w: gavel init needs a data directory (--datadir)", errUsage)
	}
	stack, err := node.New(&cfg.Node)
	if err != nil {
		return fmt.Errorf("create node: %w", err)
	}
	defer stack.Close()
	hash, err := chain.InitGenesis(stack, genesis, genesisOverrides(ctx), ctx.String(utils.StateSchemeFlag.Name), ctx.Bool(utils.CachePreimagesFlag.Name))
	if err != nil {
		return err
	}
	log.Info("Successfully wrote genesis state", "database", "chaindata", "hash", hash)
	fmt.Fprintf(os.Stdout, "genesis %s written to %s (chain id %v)\n", hash.Hex(), stack.ResolvePath("chaindata"), genesis.Config.ChainID)
	return nil
}

// genesisOverrides reads the --override.* flags that are set.
func genesisOverrides(ctx *cli.Context) chain.GenesisOverrides {
	get := func(f *cli.Uint64Flag) *uint64 {
		if !ctx.IsSet(f.Name) {
			return nil
		}
		v := ctx.Uint64(f.Name)
		return &v
	}
	return chain.GenesisOverrides{
		Osaka: get(utils.OverrideOsaka), Amsterdam: get(utils.OverrideAmsterdam),
		BPO1: get(utils.OverrideBPO1), BPO2: get(utils.OverrideBPO2), UBT: get(utils.OverrideUBT),
	}
}

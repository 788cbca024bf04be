// Command gavel is an Ethereum execution client with a block auction built
// in: bundle simulation and submission, an MEV relay with in-process block
// verification and a beta-block builder. `gavel --dev` runs the whole market
// on one machine.
package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/log"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/auctioncli"
	"github.com/gavel-eth/gavel/params"
)

func main() {
	if err := newApp().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "Fatal:", err)
		os.Exit(1)
	}
}

func newApp() *cli.App {
	app := &cli.App{
		Name:    "gavel",
		Usage:   "an Ethereum execution client with a built-in block auction",
		Version: params.Version,
		Description: "gavel runs go-ethereum's execution client together with bundle simulation, bundle and\n" +
			"beta-bundle submission and an MEV relay. Try `gavel --dev` for a local chain with the\n" +
			"whole market in one process.",
		Flags:                append(append([]cli.Flag{}, gavelFlags...), gethFlags...),
		Action:               runNode,
		EnableBashCompletion: true,
		Commands: []*cli.Command{
			auctioncli.Command(),
			{
				Name:      "dumpconfig",
				Usage:     "Print the effective configuration (defaults, --config file and flags) as TOML",
				ArgsUsage: "[file]",
				Flags:     append(append([]cli.Flag{}, gavelFlags...), gethFlags...),
				Action:    runDumpConfig,
			},
		},
		OnUsageError: func(ctx *cli.Context, err error, isSubcommand bool) error {
			return fmt.Errorf("%v (see gavel --help)", err)
		},
	}
	return app
}

func setupLogging(ctx *cli.Context) error {
	v := ctx.Int(verbosityFlag.Name)
	if v < 0 || v > 5 {
		return fmt.Errorf("%w: --verbosity must be 0 to 5: got %d", errUsage, v)
	}
	levels := []slog.Level{log.LevelCrit + 1, log.LevelError, log.LevelWarn, log.LevelInfo, log.LevelDebug, log.LevelTrace}
	useColor := isatty.IsTerminal(os.Stderr.Fd())
	log.SetDefault(log.NewLogger(log.NewTerminalHandlerWithLevel(os.Stderr, levels[v], useColor)))
	return nil
}

func runNode(ctx *cli.Context) error {
	if args := ctx.Args().Slice(); len(args) > 0 {
		return fmt.Errorf("%w: unknown command %q (see gavel --help)", errUsage, args[0])
	}
	if err := setupLogging(ctx); err != nil {
		return err
	}
	stack, cfg, err := loadConfig(ctx)
	if err != nil {
		return err
	}
	defer stack.Close()
	utils.SetupMetrics(&cfg.Metrics)
	n, err := eth.New(stack, &cfg.Eth, cfg.Mev)
	if err != nil {
		return err
	}
	utils.StartNode(ctx, stack, false)
	printBanner(os.Stdout, n)
	stack.Wait()
	return nil
}

func runDumpConfig(ctx *cli.Context) error {
	if err := setupLogging(ctx); err != nil {
		return err
	}
	stack, cfg, err := loadConfig(ctx)
	if err != nil {
		return err
	}
	stack.Close()
	w := io.Writer(os.Stdout)
	if file := ctx.Args().First(); file != "" {
		f, err := os.Create(file)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	return dumpConfig(w, cfg)
}

// printBanner tells a newcomer where everything listens and, in dev mode,
// which accounts are funded.
func printBanner(w io.Writer, n *eth.Node) {
	var b strings.Builder
	fmt.Fprintf(&b, "\ngavel %s, chain id %d\n", params.Version, n.Chain().ChainID())
	if url := n.Stack().HTTPEndpoint(); n.Stack().Config().HTTPHost != "" {
		fmt.Fprintf(&b, "  JSON-RPC (HTTP)  %s\n", url)
	}
	if n.Stack().Config().WSHost != "" {
		fmt.Fprintf(&b, "  JSON-RPC (WS)    %s\n", n.Stack().WSEndpoint())
	}
	if ipc := n.Stack().IPCEndpoint(); ipc != "" {
		fmt.Fprintf(&b, "  JSON-RPC (IPC)   %s\n", ipc)
	}
	fmt.Fprintf(&b, "  MEV listener     %s\n", n.MEV().URL())
	if n.Beacon() != nil {
		fmt.Fprintf(&b, "  dev chain        one block every %v (slot 0 at unix time %d)\n", n.Beacon().Period(), n.Beacon().GenesisTime())
		fmt.Fprintf(&b, "\nFunded test accounts (%d ETH each, mnemonic %q):\n", params.DevAccountEther, params.DevMnemonic)
		for i, acc := range params.DevAccounts() {
			fmt.Fprintf(&b, "  (%d) %s  key %s\n", i, acc.Address.Hex(), hexutil.Encode(crypto.FromECDSA(acc.Key)))
		}
		b.WriteString("These keys are public: never use them on a real network.\n")
		if a := n.Auction(); a != nil {
			addrs := a.Addresses()
			fmt.Fprintf(&b, "\nAuction contracts (owner and operator: account (0); bidders: accounts (1) and (2); `gavel auction --help`):\n")
			fmt.Fprintf(&b, "  WETH             %s\n  Auctioneer       %s\n  SettlementHouse  %s\n  Accountant       %s\n  OpenBidder       %s\n",
				addrs.WETH, addrs.Auctioneer, addrs.SettlementHouse, addrs.Accountant, addrs.OpenBidder)
		}
	}
	fmt.Fprintln(w, b.String())
}

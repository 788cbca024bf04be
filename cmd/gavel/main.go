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
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/log"
	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/auctioncli"
	"github.com/gavel-eth/gavel/internal/bundlecli"
	"github.com/gavel-eth/gavel/internal/flight"
	"github.com/gavel-eth/gavel/params"
)

func main() {
	if err := newApp().Run(commandFirst(os.Args)); err != nil {
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
			versionCommand,
			attachCommand,
			bundlecli.Command(),
			relayCommand,
			auctioncli.Command(),
			initCommand,
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

// commandFirst moves the flags given before `dumpconfig` after it, so
// `gavel --dev dumpconfig` dumps what `gavel --dev` would run with (the
// command's own flag set would otherwise shadow them with defaults).
func commandFirst(args []string) []string {
	for i := 1; i < len(args); i++ {
		if args[i] == "dumpconfig" {
			if i > 1 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && !isBoolFlag(args[i-1]) {
				continue // the value of a flag, not the command
			}
			out := append([]string{args[0], args[i]}, args[1:i]...)
			return append(out, args[i+1:]...)
		}
	}
	return args
}

// isBoolFlag reports whether arg (-name or --name) is one of gavel's boolean
// flags, which take no value.
func isBoolFlag(arg string) bool {
	name := strings.TrimLeft(arg, "-")
	for _, f := range append(append([]cli.Flag{}, gavelFlags...), gethFlags...) {
		if _, ok := f.(*cli.BoolFlag); !ok {
			continue
		}
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}

func setupLogging(ctx *cli.Context) error {
	v := ctx.Int(verbosityFlag.Name)
	if v < 0 || v > 5 {
		return fmt.Errorf("%w: --verbosity must be 0 to 5: got %d", errUsage, v)
	}
	levels := []slog.Level{log.LevelCrit + 1, log.LevelError, log.LevelWarn, log.LevelInfo, log.LevelDebug, log.LevelTrace}
	useColor := isatty.IsTerminal(os.Stderr.Fd())
	log.SetDefault(log.NewLogger(truthfulHandler{log.NewTerminalHandlerWithLevel(os.Stderr, levels[v], useColor)}))
	return nil
}

func runNode(ctx *cli.Context) error {
	if args := ctx.Args().Slice(); len(args) > 0 {
		return fmt.Errorf("%w: unknown command %q (see gavel --help)", errUsage, args[0])
	}
	if err := setupLogging(ctx); err != nil {
		return err
	}
	defer flight.Start()()
	stack, cfg, err := loadConfig(ctx, true)
	if err != nil {
		return err
	}
	if dir := filepath.Dir(cfg.Node.IPCPath); strings.HasPrefix(filepath.Base(dir), strings.TrimSuffix(devIPCPattern, "*")) && filepath.IsAbs(dir) {
		defer os.RemoveAll(dir) // after the node has stopped and closed the socket
	}
	if cfg.Mev.Dev.Enabled && cfg.Node.DataDir != "" && stack.IPCEndpoint() != "" {
		if dir, err := linkDevIPC(stack.IPCEndpoint()); err != nil {
			log.Debug("gavel attach will not find this node without --datadir", "err", err)
		} else {
			defer os.RemoveAll(dir)
		}
	}
	defer stack.Close()
	utils.SetupMetrics(&cfg.Metrics)
	var ws *wsServer
	if cfg.Node.WSHost != "" {
		wcfg, err := wsConfig(ctx, &cfg.Node)
		if err != nil {
			return err
		}
		if ws, err = newWSServer(stack, &cfg.Node, wcfg); err != nil {
			return err
		}
		stack.RegisterLifecycle(ws)
	}
	n, err := eth.New(stack, &cfg.Eth, cfg.Mev)
	if err != nil {
		return err
	}
	// geth's StartNode installs its SIGINT/SIGTERM handler on a goroutine of
	// its own: a signal before that goroutine runs would kill the process
	// without stopping the node (or removing its IPC directory). Catch them
	// from here on.
	early := make(chan os.Signal, 1)
	signal.Notify(early, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(early)
	utils.StartNode(ctx, stack, false)
	go func() {
		<-early
		stack.Close()
	}()
	printBanner(os.Stdout, n, ws)
	stack.Wait()
	return nil
}

func runDumpConfig(ctx *cli.Context) error {
	if err := setupLogging(ctx); err != nil {
		return err
	}
	if !ctx.IsSet(verbosityFlag.Name) {
		// Printing the configuration runs no node: the INFO lines of making
		// one (databases opened, ...) would only clutter a dump on stderr.
		log.SetDefault(log.NewLogger(truthfulHandler{log.NewTerminalHandlerWithLevel(os.Stderr, log.LevelWarn, isatty.IsTerminal(os.Stderr.Fd()))}))
	}
	stack, cfg, err := loadConfig(ctx, false)
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
	// A genesis the user gave ([Eth.Genesis] in the file, --override.genesis)
	// is kept; one a network flag (--sepolia) implies is not configuration.
	keep := ctx.IsSet(utils.OverrideGenesisFlag.Name)
	if file := ctx.String(configFileFlag.Name); file != "" && !keep {
		fileCfg := defaultConfig()
		keep = loadConfigFile(file, &fileCfg) == nil && fileCfg.Eth.Genesis != nil
	}
	if !keep {
		cfg.Eth.Genesis = nil
	}
	return dumpConfig(w, cfg)
}

// printBanner tells a newcomer where everything listens (ws: --ws, or
// nil) and, in dev mode, which accounts are funded.
func printBanner(w io.Writer, n *eth.Node, ws *wsServer) {
	var b strings.Builder
	fmt.Fprintf(&b, "\ngavel %s, chain id %d\n", params.Version, n.Chain().ChainID())
	if url := n.Stack().HTTPEndpoint(); n.Stack().Config().HTTPHost != "" {
		fmt.Fprintf(&b, "  JSON-RPC (HTTP)  %s\n", url)
	}
	if ws != nil {
		fmt.Fprintf(&b, "  JSON-RPC (WS)    %s\n", ws.Endpoint())
	}
	if ipc := n.Stack().IPCEndpoint(); ipc != "" {
		fmt.Fprintf(&b, "  JSON-RPC (IPC)   %s\n", ipc)
	}
	if auth := n.Stack().HTTPAuthEndpoint(); auth != "http://" {
		fmt.Fprintf(&b, "  engine API (JWT) %s\n", auth)
	}
	fmt.Fprintf(&b, "  MEV listener     %s\n", n.MEV().URL())
	if n.Beacon() != nil {
		fmt.Fprintf(&b, "  dev chain        one block every %v (slot 0 at unix time %d)\n", n.Beacon().Period(), n.Beacon().GenesisTime())
		fmt.Fprintf(&b, "\nFunded test accounts (%d ETH each, mnemonic %q):\n", params.DevAccountEther, params.DevMnemonic)
		for i, acc := range params.DevAccounts() {
			fmt.Fprintf(&b, "  (%d) %s  key %s\n", i, acc.Address.Hex(), hexutil.Encode(crypto.FromECDSA(acc.Key)))
		}
		if a := n.Auction(); a != nil {
			addrs := a.Addresses()
			fmt.Fprintf(&b, "\nAuction contracts (`gavel auction --help`):\n")
			fmt.Fprintf(&b, "  WETH             %s\n  Auctioneer       %s\n  SettlementHouse  %s\n  Accountant       %s\n  OpenBidder       %s\n",
				addrs.WETH, addrs.Auctioneer, addrs.SettlementHouse, addrs.Accountant, addrs.OpenBidder)
			b.WriteString("Auction accounts (funded; each key is keccak256 of the quoted string; the ten test accounts stay at nonce 0):\n")
			devKey := func(role string, acc params.DevAccount, seed string) {
				fmt.Fprintf(&b, "  %-9s %s  key %s  (%q)\n", role, acc.Address.Hex(), hexutil.Encode(crypto.FromECDSA(acc.Key)), seed)
			}
			devKey("owner", params.DevOwnerKey(), params.DevOwnerSeed)
			devKey("operator", params.DevOperatorKey(), params.DevOperatorSeed)
			for i, acc := range params.DevBidderKeys() {
				devKey(fmt.Sprintf("bidder %d", i+1), acc, fmt.Sprintf("%s%d", params.DevBidderSeedPrefix, i+1))
			}
		}
		b.WriteString("These keys are public: never use them on a real network.\n")
	}
	fmt.Fprintln(w, b.String())
}

package main

import (
	"bufio"
	"cmp"
	"encoding"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"unicode"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/ethereum/go-ethereum/node"
	"github.com/naoina/toml"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/params"
)

// gavelConfig is the TOML file: geth's sections, unchanged, plus [Mev].
type gavelConfig struct {
	Eth     ethconfig.Config
	Node    node.Config
	Metrics metrics.Config
	Mev     eth.Config
}

// tomlSettings match geth's: keys are the Go field names, and an unknown key
// is an error that names the section it was found in.
var tomlSettings = toml.Config{
	NormFieldName: func(rt reflect.Type, key string) string { return key },
	FieldToKey:    func(rt reflect.Type, field string) string { return field },
	MissingField: func(rt reflect.Type, field string) error {
		var link string
		if unicode.IsUpper(rune(rt.Name()[0])) && rt.PkgPath() != "main" {
			link = fmt.Sprintf(", see https://pkg.go.dev/%s#%s for the available fields", rt.PkgPath(), rt.Name())
		}
		return fmt.Errorf("field '%s' is not defined in %s%s", field, rt.String(), link)
	},
}

func defaultNodeConfig() node.Config {
	cfg := node.DefaultConfig
	cfg.Name = params.ClientName
	cfg.Version = params.Version
	cfg.HTTPModules = append(cfg.HTTPModules, "eth")
	cfg.WSModules = append(cfg.WSModules, "eth")
	cfg.IPCPath = params.ClientName + ".ipc"
	// geth keeps a half-sent request header for 30 s; gavel gives its HTTP
	// JSON-RPC and the engine API the MEV listener's 2 s (geth's node
	// raises anything under 1 s to 30 s). --ws is gavel's own server
	// (ws.go), with the same 2 s.
	cfg.HTTPTimeouts.ReadHeaderTimeout = mevapi.DefaultReadHeaderTimeout
	return cfg
}

func defaultConfig() gavelConfig {
	return gavelConfig{
		Eth:     ethconfig.Defaults,
		Node:    defaultNodeConfig(),
		Metrics: metrics.DefaultConfig,
		Mev:     eth.DefaultConfig(),
	}
}

// loadConfigFile decodes a TOML file over cfg. Errors name the file and,
// where the decoder knows it, the line.
func loadConfigFile(file string, cfg *gavelConfig) error {
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	defer f.Close()
	err = tomlSettings.NewDecoder(bufio.NewReader(f)).Decode(cfg)
	var lineErr *toml.LineError
	if errors.As(err, &lineErr) {
		return fmt.Errorf("config file %s, %v", file, err)
	}
	if err != nil {
		return fmt.Errorf("config file %s: %v", file, err)
	}
	return nil
}

// errUsage marks errors in what the user asked for: they exit with status 2
// after the message, never with a stack trace.
var errUsage = errors.New("invalid usage")

// loadConfig builds the configuration from defaults, the --config file and
// the flags, in that order, and creates the node. It validates gavel's own
// flags before touching geth's helpers, which exit on bad input. forRun is
// set when the node will run: a --dev node without --datadir then gets its
// IPC socket in a temporary directory of its own (devIPCPattern), which the
// caller removes after the node stops, so two dev nodes never share one.
// Otherwise (dumpconfig) a node that is not --dev is made without its
// datadir, which it would lock.
func loadConfig(ctx *cli.Context, forRun bool) (*node.Node, gavelConfig, error) {
	cfg := defaultConfig()
	if file := ctx.String(configFileFlag.Name); file != "" {
		if err := loadConfigFile(file, &cfg); err != nil {
			return nil, cfg, err
		}
	}
	if err := applyGavelFlags(ctx, &cfg); err != nil {
		return nil, cfg, err
	}
	utils.SetNodeConfig(ctx, &cfg.Node)
	if cfg.Mev.Dev.Enabled {
		eth.ConfigureDevNode(&cfg.Node, ctx.IsSet(utils.HTTPEnabledFlag.Name) || ctx.IsSet(utils.HTTPListenAddrFlag.Name), ctx.IsSet(utils.HTTPApiFlag.Name))
		if forRun && cfg.Node.DataDir == "" && cfg.Node.IPCPath != "" && !filepath.IsAbs(cfg.Node.IPCPath) {
			dir, err := os.MkdirTemp("", devIPCPattern)
			if err != nil {
				return nil, cfg, fmt.Errorf("temporary directory for the IPC socket: %w", err)
			}
			cfg.Node.IPCPath = filepath.Join(dir, cfg.Node.IPCPath)
		}
	}
	nodeCfg := cfg.Node
	if cfg.Node.WSHost != "" {
		if _, err := wsConfig(ctx, &cfg.Node); err != nil {
			return nil, cfg, err
		}
		// gavel serves --ws itself, within --ws.maxconns and --ws.maxsubs
		// (runGavel); geth's own WebSocket server stays off.
		nodeCfg.WSHost = ""
	}
	if !forRun && !cfg.Mev.Dev.Enabled {
		// Printing the configuration reads nothing from the datadir: the
		// node is made without one, so dumpconfig never takes (or waits
		// for) the lock of a datadir another gavel runs in. A dev node
		// reads its datadir's chain (genesis, state scheme) and keeps it.
		nodeCfg.DataDir = ""
	}
	stack, err := node.New(&nodeCfg)
	if err != nil {
		return nil, cfg, fmt.Errorf("create node: %w", err)
	}
	// A keystore, as geth's own main adds one (for --keystore accounts).
	scryptN, scryptP := keystore.StandardScryptN, keystore.StandardScryptP
	if cfg.Node.UseLightweightKDF {
		scryptN, scryptP = keystore.LightScryptN, keystore.LightScryptP
	}
	stack.AccountManager().AddBackend(keystore.NewKeyStore(stack.KeyStoreDir(), scryptN, scryptP))

	// geth's own --dev handling in SetEthConfig would make up a developer
	// account (none of the ten test accounts) and its own genesis; gavel's
	// dev mode is ConfigureDevEth below, so geth's is kept out of it.
	devSet := ctx.Bool(devFlagName)
	if devSet {
		ctx.Set(devFlagName, "false")
	}
	utils.SetEthConfig(ctx, stack, &cfg.Eth)
	if devSet {
		ctx.Set(devFlagName, "true")
	}
	if cfg.Mev.Dev.Enabled && !ctx.IsSet(utils.MinerGasPriceFlag.Name) {
		cfg.Eth.Miner.GasPrice = big.NewInt(1) // as geth's --dev: any tip is enough
	}
	o := genesisOverrides(ctx)
	for _, ov := range []struct {
		dst **uint64
		v   *uint64
	}{
		{&cfg.Eth.OverrideOsaka, o.Osaka}, {&cfg.Eth.OverrideAmsterdam, o.Amsterdam}, {&cfg.Eth.OverrideBPO1, o.BPO1},
		{&cfg.Eth.OverrideBPO2, o.BPO2}, {&cfg.Eth.OverrideUBT, o.UBT},
	} {
		if ov.v != nil {
			*ov.dst = ov.v
		}
	}
	utils.SetMetricsConfig(ctx, &cfg.Metrics)
	if cfg.Mev.Dev.Enabled {
		if err := eth.ConfigureDevEth(stack, &cfg.Eth, cfg.Mev.Dev); err != nil {
			stack.Close()
			return nil, cfg, err
		}
	}
	return stack, cfg, nil
}

// applyGavelFlags applies gavel's own flags over the file's [Mev] section.
func applyGavelFlags(ctx *cli.Context, cfg *gavelConfig) error {
	if ctx.Bool(holeskyFlag.Name) {
		return fmt.Errorf("%w: --holesky: the Holesky network was retired and go-ethereum v1.17 no longer ships it; use --hoodi", errUsage)
	}
	// A config file written by `gavel --dev dumpconfig` has [Mev.Dev]
	// Enabled = true: it starts a dev node as --dev does.
	cfg.Mev.Dev.Enabled = cfg.Mev.Dev.Enabled || ctx.Bool(devFlag.Name)
	if cfg.Mev.Dev.Enabled {
		for _, name := range []string{utils.MainnetFlag.Name, utils.SepoliaFlag.Name, utils.HoodiFlag.Name} {
			if ctx.Bool(name) {
				return fmt.Errorf("%w: --%s and dev mode (--dev, or [Mev.Dev] Enabled = true in the config file) can't be used at the same time", errUsage, name)
			}
		}
	}
	if ctx.IsSet(devPeriodFlag.Name) || cfg.Mev.Dev.Period == 0 {
		d, err := parsePeriod(ctx.String(devPeriodFlag.Name))
		if err != nil {
			return err
		}
		cfg.Mev.Dev.Period = d
	}
	if !wholeSeconds(cfg.Mev.Dev.Period) {
		return fmt.Errorf("%w: --dev.period must be a whole number of seconds, at least 1s: got %v", errUsage, cfg.Mev.Dev.Period)
	}
	fillFromFlag(ctx, devGasLimitFlag.Name, &cfg.Mev.Dev.GasLimit)
	if cfg.Mev.Dev.GasLimit < 5000 {
		return fmt.Errorf("%w: --dev.gaslimit must be at least 5000: got %d", errUsage, cfg.Mev.Dev.GasLimit)
	}
	if err := applyDevAuctionFlags(ctx, cfg); err != nil {
		return err
	}
	l := &cfg.Mev.Listener
	fillFromFlag(ctx, mevAddrFlag.Name, &l.Addr)
	setIfGiven(ctx, mevMaxBodyFlag.Name, ctx.Int64, &l.MaxBodyBytes)
	if l.MaxBodyBytes < 0 {
		return fmt.Errorf("%w: --mev.maxbody must be positive: got %d", errUsage, l.MaxBodyBytes)
	}
	setIfGiven(ctx, mevReadTimeoutFlag.Name, ctx.Duration, &l.ReadTimeout)
	setIfGiven(ctx, mevWriteTimeoutFlag.Name, ctx.Duration, &l.WriteTimeout)
	if err := cmp.Or( // the first refusal, in flag order
		setPositiveIfGiven(ctx, mevBodyBudgetFlag.Name, ctx.Int64, &l.BodyBudget),
		setPositiveIfGiven(ctx, mevBodyBudgetIPFlag.Name, ctx.Int64, &l.BodyBudgetPerIP),
		setPositiveIfGiven(ctx, mevMinRateFlag.Name, ctx.Int64, &l.MinBodyRate),
		setPositiveIfGiven(ctx, mevMaxConnsFlag.Name, ctx.Int, &l.MaxConns),
		setPositiveIfGiven(ctx, mevMaxConnsIPFlag.Name, ctx.Int, &l.MaxConnsPerIP),
	); err != nil {
		return err
	}
	if err := applySimFlags(ctx, cfg); err != nil {
		return err
	}
	if err := applySchedFlags(ctx, cfg); err != nil {
		return err
	}
	if err := applyBetaFlags(ctx, cfg); err != nil {
		return err
	}
	if err := applySubmissionFlags(ctx, cfg); err != nil {
		return err
	}
	if err := applyStoreFlags(ctx, cfg); err != nil {
		return err
	}
	if err := applyRelayFlags(ctx, cfg); err != nil {
		return err
	}
	return applyBuilderFlags(ctx, cfg)
}

// dumpConfig writes cfg as TOML, as `gavel dumpconfig` does. A genesis
// (cfg.Eth.Genesis) is written as an [Eth.Genesis] section that reads back
// into the same genesis: the TOML encoder cannot write geth's genesis type
// itself (its unset fork times are nil pointers), so it is written from a
// plain copy (genesisTOML).
func dumpConfig(w io.Writer, cfg gavelConfig) error {
	genesis := cfg.Eth.Genesis
	cfg.Eth.Genesis = nil
	out, err := tomlSettings.Marshal(&cfg)
	if err != nil {
		return err
	}
	if genesis != nil {
		var section struct{ Eth struct{ Genesis any } }
		section.Eth.Genesis = genesisTOML(reflect.ValueOf(genesis))
		g, err := tomlSettings.Marshal(&section)
		if err != nil {
			return fmt.Errorf("encoding the genesis: %w", err)
		}
		out = append(append(out, '\n'), g...)
	}
	_, err = w.Write(out)
	return err
}

// genesisTOML copies v into maps, lists and scalars the TOML decoder reads
// back into the same Go value: structs become maps keyed by field name, nil
// pointers and empty byte strings are left out, values with a text form
// (numbers as *big.Int, addresses, hashes) are written as text and byte
// strings as lists of numbers.
func genesisTOML(v reflect.Value) any {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return nil
	}
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		if err == nil {
			return string(b)
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return genesisTOML(v.Elem())
	case reflect.Struct:
		out := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				if x := genesisTOML(v.Field(i)); x != nil {
					out[f.Name] = x
				}
			}
		}
		return out
	case reflect.Map:
		out := map[string]any{}
		for _, k := range v.MapKeys() {
			if x := genesisTOML(v.MapIndex(k)); x != nil {
				out[fmt.Sprint(genesisTOML(k))] = x
			}
		}
		return out
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			if v.Len() == 0 {
				return nil
			}
			out := make([]any, v.Len())
			for i, b := range v.Bytes() {
				out[i] = int64(b)
			}
			return out
		}
		out := make([]any, 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			out = append(out, genesisTOML(v.Index(i)))
		}
		return out
	}
	return v.Interface()
}

package main

import (
	"fmt"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/cmd/utils"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/params"
)

// devFlagName is --dev: geth's name for its dev mode, gavel's for its own.
const devFlagName = "dev"

// gavel's own flags. geth's flags keep geth's names and help text.
var (
	configFileFlag = &cli.StringFlag{
		Name:     "config",
		Usage:    "TOML configuration file: geth's [Eth], [Node] and [Metrics] sections plus gavel's [Mev] section (see `gavel dumpconfig`)",
		Category: "GAVEL",
	}
	verbosityFlag = &cli.IntFlag{
		Name:     "verbosity",
		Usage:    "Logging verbosity: 0=silent, 1=error, 2=warn, 3=info, 4=debug, 5=trace",
		Value:    3,
		Category: "LOGGING AND DEBUGGING",
	}
	devFlag = &cli.BoolFlag{
		Name:     devFlagName,
		Usage:    "Run a local development chain with the whole market in one process: chain id 1337, ten funded test accounts, one block per --dev.period, HTTP JSON-RPC on 127.0.0.1:8545. The chain lives in memory unless --datadir is given",
		Category: "DEVELOPER CHAIN",
	}
	devPeriodFlag = &cli.StringFlag{
		Name:     "dev.period",
		Usage:    "Slot time of the dev chain: one block is produced at the start of every slot. Seconds as geth takes them (2) or a duration (2s); whole seconds, at least 1",
		Value:    params.DevPeriod.String(),
		Category: "DEVELOPER CHAIN",
	}
	devGasLimitFlag = &cli.Uint64Flag{
		Name:     "dev.gaslimit",
		Usage:    "Block gas limit of a new dev chain's genesis",
		Value:    params.DevGasLimit,
		Category: "DEVELOPER CHAIN",
	}
	holeskyFlag = &cli.BoolFlag{
		Name:     "holesky",
		Usage:    "Holesky network: retired (go-ethereum v1.17 no longer ships it); use --hoodi",
		Category: "ETHEREUM",
	}
	mevAddrFlag = &cli.StringFlag{
		Name:     "mev.addr",
		Usage:    "Listen address (host:port) of the MEV listener: relay, bundle and beta-bundle APIs and /livez, /readyz",
		Value:    mevapi.DefaultAddr,
		Category: "MEV LISTENER",
	}
	mevMaxBodyFlag = &cli.Int64Flag{
		Name:     "mev.maxbody",
		Usage:    "Largest request body the MEV listener accepts, in bytes, before any gzip decoding (larger bodies get 413)",
		Value:    mevapi.DefaultMaxBodyBytes,
		Category: "MEV LISTENER",
	}
	mevReadTimeoutFlag = &cli.DurationFlag{
		Name:     "mev.readtimeout",
		Usage:    "Time the MEV listener allows a client to send a whole request",
		Value:    mevapi.DefaultReadTimeout,
		Category: "MEV LISTENER",
	}
	mevBodyBudgetFlag = &cli.Int64Flag{
		Name:     "mev.bodybudget",
		Usage:    "Memory the MEV listener holds for requests at once, all clients together: request bodies, gzip state, and 64 KiB for each connection --mev.maxconns lets in (more wait briefly, then get 503)",
		Value:    mevapi.DefaultBodyBudget,
		Category: "MEV LISTENER",
	}
	mevBodyBudgetIPFlag = &cli.Int64Flag{
		Name:     "mev.bodybudget.perip",
		Usage:    "Request body bytes the MEV listener holds in memory at once for one client IP (more wait briefly, then get 429)",
		Value:    mevapi.DefaultBodyBudgetPerIP,
		Category: "MEV LISTENER",
	}
	mevMaxConnsFlag = &cli.IntFlag{
		Name:     "mev.maxconns",
		Usage:    "Connections the MEV listener keeps open at once (more are answered 503 and closed)",
		Value:    mevapi.DefaultMaxConns,
		Category: "MEV LISTENER",
	}
	mevMaxConnsIPFlag = &cli.IntFlag{
		Name:     "mev.maxconns.perip",
		Usage:    "Connections the MEV listener keeps open at once from one client IP",
		Value:    mevapi.DefaultMaxConnsPerIP,
		Category: "MEV LISTENER",
	}
	mevMinRateFlag = &cli.Int64Flag{
		Name:     "mev.minrate",
		Usage:    "Minimum rate, in bytes per second, at which a request body must arrive after the first second (slower bodies are cut with 408)",
		Value:    mevapi.DefaultMinBodyRate,
		Category: "MEV LISTENER",
	}
	mevWriteTimeoutFlag = &cli.DurationFlag{
		Name:     "mev.writetimeout",
		Usage:    "Time the MEV listener allows for answering one request",
		Value:    mevapi.DefaultWriteTimeout,
		Category: "MEV LISTENER",
	}
)

// gavelFlags are gavel's own flags.
var gavelFlags = concat([]cli.Flag{
	configFileFlag, verbosityFlag,
	devFlag, devPeriodFlag, devGasLimitFlag,
	mevAddrFlag, mevMaxBodyFlag, mevReadTimeoutFlag, mevWriteTimeoutFlag,
	mevBodyBudgetFlag, mevBodyBudgetIPFlag, mevMaxConnsFlag, mevMaxConnsIPFlag, mevMinRateFlag,
}, devAuctionFlags, submissionFlags, betaFlags, simFlags, schedFlags, relayFlags, storeFlags, builderFlags, wsFlags)

// gethFlags are the geth flags gavel understands, with geth's names, so a
// geth operator's command line keeps working.
var gethFlags = concat(
	[]cli.Flag{utils.MainnetFlag, utils.SepoliaFlag, holeskyFlag, utils.HoodiFlag, utils.NetworkIdFlag, utils.IdentityFlag, utils.OverrideGenesisFlag},
	overrideFlags,
	utils.DatabaseFlags,
	[]cli.Flag{
		utils.KeyStoreDirFlag, utils.LightKDFFlag, utils.PasswordFileFlag,
		utils.SyncModeFlag, utils.GCModeFlag, utils.SnapshotFlag,
		utils.CacheFlag, utils.CacheDatabaseFlag, utils.CacheTrieFlag, utils.CacheGCFlag, utils.CacheSnapshotFlag,
		utils.CacheNoPrefetchFlag, utils.CachePreimagesFlag, utils.FDLimitFlag, utils.GOGCFlag, utils.MemoryLimitFlag,
		utils.CryptoKZGFlag, utils.StateHistoryFlag, utils.TransactionHistoryFlag, utils.ChainHistoryFlag, utils.LogHistoryFlag, utils.LogNoHistoryFlag,
		utils.TxPoolLocalsFlag, utils.TxPoolNoLocalsFlag, utils.TxPoolJournalFlag, utils.TxPoolRejournalFlag,
		utils.TxPoolPriceLimitFlag, utils.TxPoolPriceBumpFlag, utils.TxPoolAccountSlotsFlag, utils.TxPoolGlobalSlotsFlag,
		utils.TxPoolAccountQueueFlag, utils.TxPoolGlobalQueueFlag, utils.TxPoolLifetimeFlag,
		utils.MinerGasLimitFlag, utils.MinerGasPriceFlag, utils.MinerExtraDataFlag, utils.MinerPendingFeeRecipientFlag,
		utils.IPCDisabledFlag, utils.IPCPathFlag,
		utils.HTTPEnabledFlag, utils.HTTPListenAddrFlag, utils.HTTPPortFlag, utils.HTTPCORSDomainFlag,
		utils.HTTPVirtualHostsFlag, utils.HTTPApiFlag, utils.HTTPPathPrefixFlag, utils.HTTPBodyLimitFlag,
		utils.WSEnabledFlag, utils.WSListenAddrFlag, utils.WSPortFlag, utils.WSApiFlag, utils.WSAllowedOriginsFlag, utils.WSPathPrefixFlag,
		utils.AuthListenFlag, utils.AuthPortFlag, utils.AuthVirtualHostsFlag, utils.JWTSecretFlag,
		utils.RPCGlobalGasCapFlag, utils.RPCGlobalEVMTimeoutFlag, utils.RPCGlobalTxFeeCapFlag,
		utils.MaxPeersFlag, utils.MaxPendingPeersFlag, utils.ListenPortFlag, utils.DiscoveryPortFlag,
		utils.BootnodesFlag, utils.NodeKeyFileFlag, utils.NodeKeyHexFlag, utils.NATFlag, utils.NoDiscoverFlag,
		utils.DiscoveryV4Flag, utils.DiscoveryV5Flag, utils.NetrestrictFlag,
		utils.GpoBlocksFlag, utils.GpoPercentileFlag, utils.GpoMaxGasPriceFlag, utils.GpoIgnoreGasPriceFlag,
	},
	utils.MetricsFlags,
)

func concat(groups ...[]cli.Flag) []cli.Flag {
	var out []cli.Flag
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// parsePeriod reads --dev.period: an integer number of seconds (geth's form)
// or a Go duration.
func parsePeriod(s string) (time.Duration, error) {
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%w: --dev.period %q: expected seconds (2) or a duration (2s)", errUsage, s)
	}
	return d, nil
}

// wholeSeconds reports whether the slot clock can use d.
func wholeSeconds(d time.Duration) bool { return d >= time.Second && d%time.Second == 0 }

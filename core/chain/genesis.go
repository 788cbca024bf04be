package chain

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/ethereum/go-ethereum/triedb/hashdb"
	"github.com/ethereum/go-ethereum/triedb/pathdb"

	"github.com/gavel-eth/gavel/params"
)

func init() {
	// geth's chain-config banner names the network by chain id: "unknown"
	// would be the dev chain's name otherwise.
	gparams.NetworkNames[big.NewInt(params.DevChainID).String()] = "gavel dev"
}

// DevGenesis returns the genesis of `gavel --dev`: chain id 1337, every fork
// through Osaka active at genesis, the system contracts pre-deployed and the
// ten dev accounts, the dev auction's accounts (params.DevAuctionAccounts)
// and the dev relay builder's account (DevBuilderKey) funded. geth's own dev
// genesis also switches on Bogota,
// which the public engine API rejects; gavel drives its chain through the
// public engine API, so that fork stays off.
func DevGenesis(gasLimit, timestamp uint64) *core.Genesis {
	g := core.DeveloperGenesisBlock(gasLimit, nil)
	cfg := *g.Config
	cfg.BogotaTime = nil
	cfg.AmsterdamTime = nil
	g.Config = &cfg
	g.Timestamp = timestamp
	balance := new(big.Int).Mul(big.NewInt(params.DevAccountEther), big.NewInt(gparams.Ether))
	for _, acc := range params.DevAccounts() {
		g.Alloc[acc.Address] = types.Account{Balance: balance}
	}
	for _, acc := range params.DevAuctionAccounts() {
		g.Alloc[acc.Address] = types.Account{Balance: balance}
	}
	g.Alloc[DevBuilderAddress()] = types.Account{Balance: balance}
	return g
}

// IsDevGenesis reports whether a stored genesis is one `gavel --dev` made
// (DevGenesis, any chain id): post-merge from block zero, so the
// in-process beacon can drive it, and with the dev relay builder's account
// funded. Merged at genesis is not enough: a devnet's genesis written by
// `gavel init` is too, but it lacks the forks and system contracts the dev
// driver builds with and the account the dev builder pays proposers from,
// so dev mode on it fails every slot. No other network funds that account.
func IsDevGenesis(g *core.Genesis) bool {
	if g == nil || g.Config == nil || g.Config.TerminalTotalDifficulty == nil ||
		g.Config.TerminalTotalDifficulty.Sign() != 0 || (g.Difficulty != nil && g.Difficulty.Sign() != 0) {
		return false
	}
	_, funded := g.Alloc[DevBuilderAddress()]
	return funded
}

// GenesisOverrides are geth's --override.* fork timestamps: each one, when
// set, replaces the genesis file's time for that fork.
type GenesisOverrides struct {
	Osaka, Amsterdam, BPO1, BPO2, UBT *uint64
}

// ErrGenesis: a genesis file that cannot be read or written.
var ErrGenesis = errors.New("genesis")

// ReadGenesisFile decodes a genesis JSON file (geth's format, as `geth
// init` reads it).
func ReadGenesisFile(path string) (*core.Genesis, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: failed to read genesis file: %v", ErrGenesis, err)
	}
	defer f.Close()
	g := new(core.Genesis)
	if err := json.NewDecoder(f).Decode(g); err != nil {
		return nil, fmt.Errorf("%w: invalid genesis file %s: %v", ErrGenesis, path, err)
	}
	if g.Config == nil {
		return nil, fmt.Errorf("%w: invalid genesis file %s: no \"config\" section (chain id and forks)", ErrGenesis, path)
	}
	return g, nil
}

// InitGenesis writes genesis, with the overrides applied, into the chain
// database ("chaindata") of stack's data directory, as `geth init` does:
// the genesis block, its state (hash or path scheme; empty means the
// database's own, path for a new one) and the chain config. A database
// that already holds another chain's genesis is refused. It returns the
// genesis block's hash.
func InitGenesis(stack *node.Node, genesis *core.Genesis, o GenesisOverrides, stateScheme string, preimages bool) (common.Hash, error) {
	db, err := stack.OpenDatabaseWithOptions("chaindata", node.DatabaseOptions{MetricsNamespace: "eth/db/chaindata/"})
	if err != nil {
		return common.Hash{}, fmt.Errorf("%w: open chain database: %v", ErrGenesis, err)
	}
	defer db.Close()
	scheme, err := rawdb.ParseStateScheme(stateScheme, db)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%w: %v", ErrGenesis, err)
	}
	tcfg := &triedb.Config{Preimages: preimages, IsUBT: genesis.IsUBT()}
	if scheme == rawdb.HashScheme {
		tcfg.HashDB = hashdb.Defaults
	} else {
		pcfg := *pathdb.Defaults
		pcfg.JournalDirectory = stack.ResolvePath("triedb")
		tcfg.PathDB = &pcfg
	}
	tdb := triedb.NewDatabase(db, tcfg)
	defer tdb.Close()
	overrides := &core.ChainOverrides{OverrideOsaka: o.Osaka, OverrideAmsterdam: o.Amsterdam, OverrideBPO1: o.BPO1, OverrideBPO2: o.BPO2, OverrideUBT: o.UBT}
	_, hash, compatErr, err := core.SetupGenesisBlockWithOverride(db, tdb, genesis, overrides, nil)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%w: failed to write genesis block: %v", ErrGenesis, err)
	}
	if compatErr != nil {
		return common.Hash{}, fmt.Errorf("%w: failed to write chain config: %v", ErrGenesis, compatErr)
	}
	return hash, nil
}

// devBuilderKey is the key of the account the dev relay builder builds
// with and pays proposers from. It is not one of the ten test accounts, so
// its payment in every dev block never disturbs their nonces. Derived from a
// fixed string: a dev key, never for real value.
var devBuilderKey, _ = crypto.ToECDSA(crypto.Keccak256([]byte("gavel dev builder coinbase")))

// DevBuilderKey returns the dev relay builder's account key (funded in the
// dev genesis).
func DevBuilderKey() *ecdsa.PrivateKey { return devBuilderKey }

// DevBuilderAddress is the dev relay builder's account.
func DevBuilderAddress() common.Address { return crypto.PubkeyToAddress(devBuilderKey.PublicKey) }

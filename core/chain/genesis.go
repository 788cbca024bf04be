package chain

import (
	"crypto/ecdsa"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"

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

// IsDevGenesis reports whether a stored genesis is compatible with dev mode:
// post-merge from block zero, so the in-process beacon can drive it.
func IsDevGenesis(g *core.Genesis) bool {
	return g != nil && g.Config != nil && g.Config.TerminalTotalDifficulty != nil &&
		g.Config.TerminalTotalDifficulty.Sign() == 0 && (g.Difficulty == nil || g.Difficulty.Sign() == 0)
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

package params

import (
	"crypto/ecdsa"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// DevChainID is the chain id of `gavel --dev` (0x539).
const DevChainID = 1337

// DevPeriod is the default slot time of the dev chain (--dev.period).
const DevPeriod = 2 * time.Second

// DevGasLimit is the default block gas limit of the dev chain (--dev.gaslimit).
const DevGasLimit = 30_000_000

// DevMnemonic is the standard test mnemonic whose first ten accounts
// (m/44'/60'/0'/0/i) are funded in the dev genesis.
const DevMnemonic = "test test test test test test test test test test test junk"

// DevAccountEther is what each dev account holds at genesis, in ether.
const DevAccountEther = 10_000

// devKeyHex are the private keys of DevMnemonic's first ten accounts. A test
// derives them from the mnemonic, so they cannot drift.
var devKeyHex = [10]string{
	"ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
	"59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
	"5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
	"7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
	"47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
	"8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
	"92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
	"4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356",
	"dbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97",
	"2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
}

// DevAccount is one funded account of the dev chain.
type DevAccount struct {
	Key     *ecdsa.PrivateKey
	Address common.Address
}

// DevAccounts returns the ten funded dev accounts, in mnemonic order.
func DevAccounts() []DevAccount {
	accs := make([]DevAccount, len(devKeyHex))
	for i, h := range devKeyHex {
		key, err := crypto.HexToECDSA(h)
		if err != nil {
			panic("params: bad built-in dev key: " + err.Error()) // constant input
		}
		accs[i] = DevAccount{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
	}
	return accs
}

// The dev auction's own accounts. `gavel --dev` deploys, operates and bids in
// the L2 auction with these, never with the ten test accounts, so those start
// at nonce 0 as on other dev chains. Each key is keccak256 of a fixed string
// (DevAuctionSeeds); all are funded in the dev genesis. Dev keys, public:
// never for real value.
const (
	// DevOwnerSeed derives the key that deploys and owns the auction contracts
	// (and registers bidders).
	DevOwnerSeed = "gavel dev auction owner"
	// DevOperatorSeed derives the key that operates the auction contracts
	// (opens, settles, pays out, refunds).
	DevOperatorSeed = "gavel dev auction operator"
	// DevBidderSeedPrefix followed by 1 or 2 derives the keys of the two
	// registered dev bidders.
	DevBidderSeedPrefix = "gavel dev auction bidder "
)

// DevAuctionBidders is how many bidders the dev auction registers.
const DevAuctionBidders = 2

func seedKey(seed string) DevAccount {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		panic("params: bad built-in dev seed: " + err.Error()) // constant input
	}
	return DevAccount{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
}

// DevOwnerKey is the dev auction's deployer and owner: keccak256(DevOwnerSeed).
func DevOwnerKey() DevAccount { return seedKey(DevOwnerSeed) }

// DevOperatorKey is the dev auction's operator: keccak256(DevOperatorSeed).
func DevOperatorKey() DevAccount { return seedKey(DevOperatorSeed) }

// DevBidderKeys are the dev auction's registered bidders:
// keccak256(DevBidderSeedPrefix + "1") and keccak256(DevBidderSeedPrefix + "2").
func DevBidderKeys() []DevAccount {
	out := make([]DevAccount, DevAuctionBidders)
	for i := range out {
		out[i] = seedKey(fmt.Sprintf("%s%d", DevBidderSeedPrefix, i+1))
	}
	return out
}

// DevAuctionAccounts are the owner, the operator and the bidders, in that
// order: every account the dev auction set-up sends from.
func DevAuctionAccounts() []DevAccount {
	return append([]DevAccount{DevOwnerKey(), DevOperatorKey()}, DevBidderKeys()...)
}

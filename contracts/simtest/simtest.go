// Package simtest runs go-ethereum's in-process simulated backend for the
// auction contracts' tests: every transaction sent is mined at once in its own
// block, so tests never wait for a clock.
package simtest

import (
	"context"
	"crypto/ecdsa"
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/params"
)

// BlockGasLimit of the simulated chain: above 30M so that tests can measure
// whether a transaction would fit a 30M-gas block.
const BlockGasLimit = 60_000_000

// Chain is a simulated chain whose client mines every transaction it sends.
type Chain struct {
	Backend *simulated.Backend
	Client  *AutoCommit
	// Dev are the ten dev-chain accounts (params.DevAccounts), 10000 ether each.
	Dev []params.DevAccount
	// Extra are further funded accounts, as many as New was asked for.
	Extra   []params.DevAccount
	ChainID *big.Int
}

// AutoCommit is the simulated backend's client with SendTransaction mining the
// transaction at once.
type AutoCommit struct {
	simulated.Client
	backend *simulated.Backend
}

// SendTransaction sends tx and mines a block with it.
func (a *AutoCommit) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := a.Client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	a.backend.Commit()
	return nil
}

// New starts a simulated chain with the dev accounts and extra more funded
// accounts, closed when the test ends.
func New(t testing.TB, extra int) *Chain {
	t.Helper()
	balance := new(big.Int).Mul(big.NewInt(params.DevAccountEther), big.NewInt(gparams.Ether))
	alloc := types.GenesisAlloc{}
	c := &Chain{Dev: params.DevAccounts()}
	for _, acc := range c.Dev {
		alloc[acc.Address] = types.Account{Balance: balance}
	}
	for i := 0; i < extra; i++ {
		var seed [32]byte
		binary.BigEndian.PutUint64(seed[24:], uint64(i)+1)
		key, err := crypto.ToECDSA(crypto.Keccak256(seed[:]))
		if err != nil {
			t.Fatal(err)
		}
		acc := params.DevAccount{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
		c.Extra = append(c.Extra, acc)
		alloc[acc.Address] = types.Account{Balance: balance}
	}
	c.Backend = simulated.NewBackend(alloc, simulated.WithBlockGasLimit(BlockGasLimit), devRules)
	t.Cleanup(func() { c.Backend.Close() })
	c.Client = &AutoCommit{Client: c.Backend.Client(), backend: c.Backend}
	id, err := c.Client.ChainID(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c.ChainID = id
	return c
}

// devRules gives the simulated chain the rules of the dev chain (every fork
// through Osaka, as core/chain.DevGenesis): geth's stock simulated chain also
// turns on Amsterdam and Bogota, whose state-growth gas costs are not those of
// any L2 the contracts run on.
func devRules(_ *node.Config, ec *ethconfig.Config) {
	cfg := *ec.Genesis.Config
	cfg.AmsterdamTime = nil
	cfg.BogotaTime = nil
	ec.Genesis.Config = &cfg
}

// Signer returns transact options signing with key on this chain.
func (c *Chain) Signer(key *ecdsa.PrivateKey) *bind.TransactOpts {
	return bind.NewKeyedTransactor(key, c.ChainID)
}

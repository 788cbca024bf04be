// Package workload is a realistic state and block mix for benchmarks and
// tests of block verification: a genesis with many accounts and a large
// token storage on geth's on-disk database (pebble, path scheme, default
// caches), ERC-20 style tokens and constant-product pools, and
// "mainnet-like" blocks of plain transfers, token transfers and swaps.
//
// The database is generated once per size into a cache directory under the
// module's build/workload (not committed) and opened as a private copy, so
// any number of test processes can use it. Size "ci" (the default) builds
// in a few seconds; size "full" (GAVEL_WORKLOAD=full) has a million accounts
// and about 350,000 storage slots and takes minutes the first time.
package workload

import (
	"crypto/ecdsa"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/chain"
)

// EnvSize names the environment variable that selects the size ("ci" or
// "full").
const EnvSize = "GAVEL_WORKLOAD"

// GasLimit is the genesis gas limit: blocks of the workload fill up to it.
const GasLimit = 30_000_000

// genesisTime is the genesis timestamp (the relay test harness's).
const genesisTime = 1_700_000_000

// Size is the shape of a workload's state.
type Size struct {
	Name string
	// Accounts are funded accounts without keys: recipients and holders.
	Accounts int
	// Senders are funded accounts with keys; every sender holds every token.
	Senders int
	// Tokens and Pools are the contracts; each pool trades two tokens.
	Tokens, Pools int
	// Holders is how many of Accounts hold each token (a storage slot each).
	Holders int
}

// The two sizes.
var (
	CI   = Size{Name: "ci", Accounts: 20_000, Senders: 1_200, Tokens: 4, Pools: 4, Holders: 2_000}
	Full = Size{Name: "full", Accounts: 1_000_000, Senders: 5_000, Tokens: 8, Pools: 16, Holders: 40_000}
)

// SizeFromEnv is the size GAVEL_WORKLOAD names (CI when unset).
func SizeFromEnv() (Size, error) {
	switch v := os.Getenv(EnvSize); v {
	case "", CI.Name:
		return CI, nil
	case Full.Name:
		return Full, nil
	default:
		return Size{}, fmt.Errorf("%s=%q: expected %q or %q", EnvSize, v, CI.Name, Full.Name)
	}
}

// version tags the generator: bump it when Genesis changes in a way the
// fingerprint does not see.
const version = "v1"

// fingerprint names a size's cache: the generator's version, the size and
// the contracts' code, so that a changed genesis gets a new database.
func fingerprint(s Size) string {
	h := crypto.Keccak256([]byte(fmt.Sprintf("%s %+v", version, s)), TokenCode(), PoolCode())
	return fmt.Sprintf("%x", h[:6])
}

// Workload is a generated state: its genesis, the keys and addresses the
// blocks use.
type Workload struct {
	Size    Size
	Senders []*ecdsa.PrivateKey
	// From holds the senders' addresses, by index.
	From   []common.Address
	Tokens []common.Address
	Pools  []Pool
	// reserve0/1 are every pool's initial reserves.
	reserve *big.Int
}

// Pool is a pool's address and its two tokens.
type Pool struct {
	Address        common.Address
	Token0, Token1 common.Address
}

// New derives the workload's keys and contract addresses (cheap; the state
// itself is built by Genesis).
func New(s Size) *Workload {
	w := &Workload{Size: s, reserve: ether(1_000_000)}
	for i := 0; i < s.Senders; i++ {
		k, _ := crypto.ToECDSA(crypto.Keccak256([]byte(fmt.Sprintf("gavel workload sender %d", i))))
		w.Senders = append(w.Senders, k)
		w.From = append(w.From, crypto.PubkeyToAddress(k.PublicKey))
	}
	for i := 0; i < s.Tokens; i++ {
		w.Tokens = append(w.Tokens, contractAddress(0x70, i))
	}
	for i := 0; i < s.Pools; i++ {
		t0, t1 := w.Tokens[i%s.Tokens], w.Tokens[(i+1+i/s.Tokens)%s.Tokens]
		w.Pools = append(w.Pools, Pool{Address: contractAddress(0x90, i), Token0: t0, Token1: t1})
	}
	return w
}

func contractAddress(tag byte, i int) common.Address {
	var a common.Address
	a[0] = tag
	binary.BigEndian.PutUint32(a[16:], uint32(i))
	return a
}

// Account is the i-th keyless account.
func Account(i int) common.Address {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(i))
	return common.BytesToAddress(crypto.Keccak256(b[:])[12:])
}

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(gparams.Ether)) }

// Genesis is the workload's genesis: the dev genesis (chain.DevGenesis,
// every fork through Osaka, the dev accounts funded) plus the accounts,
// senders, tokens and pools.
func (w *Workload) Genesis() *core.Genesis {
	g := chain.DevGenesis(GasLimit, genesisTime)
	s := w.Size
	for i := 0; i < s.Accounts; i++ {
		g.Alloc[Account(i)] = types.Account{Balance: big.NewInt(int64(1e15 + i)), Nonce: uint64(i % 7)}
	}
	for _, a := range w.From {
		g.Alloc[a] = types.Account{Balance: ether(1_000)}
	}
	tokenCode, poolCode := TokenCode(), PoolCode()
	for ti, t := range w.Tokens {
		st := make(map[common.Hash]common.Hash, s.Holders+s.Senders+2*s.Pools/s.Tokens+2)
		for h := 0; h < s.Holders; h++ {
			holder := Account((h*s.Tokens + ti) % s.Accounts)
			st[common.BytesToHash(holder[:])] = common.BigToHash(big.NewInt(int64(1e18 + h)))
		}
		for _, a := range w.From {
			st[common.BytesToHash(a[:])] = common.BigToHash(ether(1_000_000))
		}
		for _, p := range w.Pools {
			if p.Token0 == t || p.Token1 == t {
				st[common.BytesToHash(p.Address[:])] = common.BigToHash(w.reserve)
			}
		}
		g.Alloc[t] = types.Account{Code: tokenCode, Storage: st, Balance: new(big.Int)}
	}
	for _, p := range w.Pools {
		g.Alloc[p.Address] = types.Account{Code: poolCode, Balance: new(big.Int), Storage: map[common.Hash]common.Hash{
			common.BigToHash(big.NewInt(slotReserve0)): common.BigToHash(w.reserve),
			common.BigToHash(big.NewInt(slotReserve1)): common.BigToHash(w.reserve),
			common.BigToHash(big.NewInt(slotToken0)):   common.BytesToHash(p.Token0[:]),
			common.BigToHash(big.NewInt(slotToken1)):   common.BytesToHash(p.Token1[:]),
		}}
	}
	return g
}

// CacheDir is where the size's database is kept: build/workload/<size> at
// the module root.
func CacheDir(s Size) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "build", "workload", s.Name+"-"+fingerprint(s)), nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("workload: no go.mod above the working directory")
		}
		dir = up
	}
}

// Ensure builds the size's database into its cache directory unless it is
// there. It builds into a temporary directory beside it and renames it, so
// concurrent callers never see half a database.
func Ensure(w *Workload) (string, error) {
	dir, err := CacheDir(w.Size)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), w.Size.Name+".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	_, stop, err := chain.OpenDisk(tmp, w.Genesis())
	if err != nil {
		return "", err
	}
	stop()
	if err := chain.CompactDisk(tmp); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "ready"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "ready")); serr == nil {
			return dir, nil // another process got there first
		}
		return "", err
	}
	return dir, nil
}

// Open opens a private copy of the size's database (built first if it is
// not cached) for tb, closed on cleanup. Table files are hard-linked (pebble
// never changes one), everything else is copied.
func Open(tb testing.TB, w *Workload) *chain.Chain {
	tb.Helper()
	src, err := Ensure(w)
	if err != nil {
		tb.Fatal(err)
	}
	dst := tb.TempDir()
	if err := cloneDir(src, dst); err != nil {
		tb.Fatal(err)
	}
	c, stop, err := chain.OpenDisk(dst, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(stop)
	return c
}

func cloneDir(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if strings.HasSuffix(path, ".sst") && os.Link(path, to) == nil {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

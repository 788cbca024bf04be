package chain

import (
	"fmt"
	"path/filepath"

	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethdb/pebble"
)

// diskHandles is the pebble file handle allowance of OpenDisk (geth asks
// the OS for its limit and takes half; a test process needs far fewer).
const diskHandles = 512

// OpenDisk opens, or creates from g, a chain in dir the way a geth node
// keeps it: a pebble database with a chain freezer, the path state scheme,
// and geth's default cache sizes (ethconfig.Defaults: database, clean and
// dirty trie caches, snapshot). An existing database must hold g's genesis.
// Stop (the returned func) flushes the trie journal and closes the
// database; a database in use by another process cannot be opened.
func OpenDisk(dir string, g *core.Genesis) (*Chain, func(), error) {
	d := ethconfig.Defaults
	kv, err := pebble.New(filepath.Join(dir, "chaindata"), d.DatabaseCache, diskHandles, "", false)
	if err != nil {
		return nil, nil, fmt.Errorf("open chain database in %s: %w", dir, err)
	}
	db, err := rawdb.Open(kv, rawdb.OpenOptions{Ancient: filepath.Join(dir, "chaindata", "ancient")})
	if err != nil {
		kv.Close()
		return nil, nil, fmt.Errorf("open chain freezer in %s: %w", dir, err)
	}
	cfg := core.DefaultConfig()
	cfg.StateScheme = rawdb.PathScheme
	cfg.TrieCleanLimit, cfg.TrieDirtyLimit, cfg.SnapshotLimit = d.TrieCleanCache, d.TrieDirtyCache, d.SnapshotCache
	cfg.TrieTimeLimit = d.TrieTimeout
	cfg.TrieJournalDirectory = filepath.Join(dir, "triedb")
	bc, err := core.NewBlockChain(db, g, beacon.New(ethash.NewFaker()), cfg)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("open chain in %s: %w", dir, err)
	}
	return FromBlockChain(bc), func() { bc.Stop(); db.Close() }, nil
}

// CompactDisk compacts the key-value store of a chain made by OpenDisk
// (closed), so that everything is in table files and the write-ahead log
// is empty: a database built once and then copied for every run.
func CompactDisk(dir string) error {
	kv, err := pebble.New(filepath.Join(dir, "chaindata"), 16, diskHandles, "", false)
	if err != nil {
		return fmt.Errorf("open chain database in %s: %w", dir, err)
	}
	if err := kv.Compact(nil, nil); err != nil {
		kv.Close()
		return fmt.Errorf("compact chain database in %s: %w", dir, err)
	}
	return kv.Close()
}

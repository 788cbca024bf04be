package chain

import (
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
)

// parentReads is a state reader of one state root that keeps what it read.
// The blocks of a slot are verified on the same parent state and read
// mostly the same accounts and slots; a value of the parent state is the
// same for every block built on it, so the reads of one block serve the
// next from memory instead of the database (the flat state's key hashing
// and cache lookups). It is bound to one root: blocks of another parent
// get another parentReads. Safe for concurrent use, as state.Reader must
// be.
type parentReads struct {
	mu sync.RWMutex
	// base reads what is not kept: the reader of the latest state opened
	// on the root, so that a database layer gone stale since an earlier
	// one was opened is not read.
	base     state.Reader
	accounts map[common.Address]*types.StateAccount // nil: no account
	slots    map[slotKey]common.Hash
}

// maxParentReads bounds the values one parentReads keeps (accounts and
// slots together): far above what the blocks of a slot read, so that a
// stream of unusual blocks costs memory only up to it.
const maxParentReads = 1 << 18

func newParentReads(r state.Reader) *parentReads {
	return &parentReads{base: r, accounts: map[common.Address]*types.StateAccount{}, slots: map[slotKey]common.Hash{}}
}

func (r *parentReads) reader() state.Reader {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.base
}

// Has reports whether the code exists.
func (r *parentReads) Has(addr common.Address, codeHash common.Hash) bool {
	return r.reader().Has(addr, codeHash)
}

// Code returns a contract's code.
func (r *parentReads) Code(addr common.Address, codeHash common.Hash) []byte {
	return r.reader().Code(addr, codeHash)
}

// CodeSize returns the size of a contract's code.
func (r *parentReads) CodeSize(addr common.Address, codeHash common.Hash) int {
	return r.reader().CodeSize(addr, codeHash)
}

func (r *parentReads) full() bool { return len(r.accounts)+len(r.slots) >= maxParentReads }

// Account returns a copy: the state modifies the accounts it is given.
func (r *parentReads) Account(addr common.Address) (*types.StateAccount, error) {
	r.mu.RLock()
	acct, ok := r.accounts[addr]
	r.mu.RUnlock()
	if ok {
		if acct == nil {
			return nil, nil
		}
		return acct.Copy(), nil
	}
	acct, err := r.reader().Account(addr)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if !r.full() {
		if acct == nil {
			r.accounts[addr] = nil
		} else {
			r.accounts[addr] = acct.Copy()
		}
	}
	r.mu.Unlock()
	return acct, nil
}

// Storage returns a slot's value in the parent state.
func (r *parentReads) Storage(addr common.Address, key common.Hash) (common.Hash, error) {
	k := slotKey{addr, key}
	r.mu.RLock()
	v, ok := r.slots[k]
	r.mu.RUnlock()
	if ok {
		return v, nil
	}
	v, err := r.reader().Storage(addr, key)
	if err != nil {
		return common.Hash{}, err
	}
	r.mu.Lock()
	if !r.full() {
		r.slots[k] = v
	}
	r.mu.Unlock()
	return v, nil
}

// parentReadRoots is how many parent states' reads a PrefixCache keeps: the
// head's and a few before it, for auctions still open on a parent the head
// has moved past.
const parentReadRoots = 4

// parentState returns a state of root reading through the cache's
// parentReads of root; sdb is a state of root opened from the database now,
// whose reader reads what the parentReads does not hold.
func (pc *PrefixCache) parentState(root common.Hash, sdb *state.StateDB) (*state.StateDB, error) {
	pc.mu.Lock()
	var r *parentReads
	for i, pr := range pc.reads {
		if pr.root == root {
			r = pr.reads
			copy(pc.reads[i:], pc.reads[i+1:])
			pc.reads[len(pc.reads)-1] = pr
			break
		}
	}
	if r != nil {
		r.mu.Lock()
		r.base = sdb.Reader()
		r.mu.Unlock()
	} else {
		r = newParentReads(sdb.Reader())
		pc.reads = append(pc.reads, rootReads{root, r})
		if len(pc.reads) > parentReadRoots {
			pc.reads = append(pc.reads[:0], pc.reads[1:]...)
		}
	}
	pc.mu.Unlock()
	return state.NewWithReader(root, sdb.Database(), r)
}

// rootReads is a parentReads with its root.
type rootReads struct {
	root  common.Hash
	reads *parentReads
}

var _ state.Reader = (*parentReads)(nil)

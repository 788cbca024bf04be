package chain

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"
)

// On a large state most of a block's verification after its first changed
// transaction is not the EVM but the state root: every account and slot the
// rest of the block wrote is inserted into tries whose nodes are read from
// the database, and every path from them to the root is hashed again. Two
// blocks of a builder's stream end in states that differ in a few accounts
// and slots only (the coinbase, the pools a moved bundle swaps in, the
// senders of new bundles). So the cache keeps each verified block's final
// state, its tries hashed, and the next block of the same parent and
// environment computes its state root in that state: it sets there every
// value that differs from its own final state and hashes only those paths.
//
// Which values can differ is known from writes: both blocks have the same
// state after the prefix of transactions they share on the same parent, so
// outside what either block wrote after some n transactions of that prefix
// (transactions executed or replayed, post-execution system calls) the two
// final states agree. A writeSet records the accounts and slots written in
// a range of a block's transactions; a block keeps one per range between
// its points, and the post-execution writes with the last. Every mutating
// method of vm.StateDB notes its account or slot (recordingState), and a
// replay notes every account and slot of its record, so the sets hold at
// least what was written.
// The state root found this way is the root of the block's own final state
// (a trie's root depends only on its keys and values), and it is still
// checked against the header; a mismatch makes the block be verified again
// in full before it is refused.

// writeSet is the accounts and slots written from transaction from on, up
// to the next set's from (the last set: to the end of the block, with the
// post-execution writes). Never modified once its block is kept.
type writeSet struct {
	from     int
	accounts map[common.Address]struct{}
	slots    map[slotKey]struct{}
}

func newWriteSet(from int) *writeSet {
	return &writeSet{from: from, accounts: map[common.Address]struct{}{}, slots: map[slotKey]struct{}{}}
}

func (w *writeSet) account(a common.Address) {
	if w != nil {
		w.accounts[a] = struct{}{}
	}
}

func (w *writeSet) slot(a common.Address, k common.Hash) {
	if w != nil {
		w.slots[slotKey{a, k}] = struct{}{}
	}
}

// replayed notes what applying rec wrote (replay).
func (w *writeSet) replayed(rec *txRecord, coinbase common.Address) {
	if w == nil {
		return
	}
	for i := range rec.accounts {
		w.accounts[rec.accounts[i].addr] = struct{}{}
	}
	for i := range rec.slots {
		w.slots[rec.slots[i].slotKey] = struct{}{}
	}
	if !rec.fee.IsZero() {
		w.accounts[coinbase] = struct{}{}
	}
}

// acctVal is an account as a state diff sets it: whether it exists, its
// balance and nonce (code and storage are compared, not set).
type acctVal struct {
	exists  bool
	balance uint256.Int
	nonce   uint64
}

type acctDiff struct {
	addr     common.Address
	old, new acctVal
}

type slotDiff struct {
	slotKey
	old, new common.Hash
}

// stateDiff is what differs between an end state and a block's final
// state: applied forward it makes the end state the block's, backward it
// restores the end state's own values.
type stateDiff struct {
	accounts []acctDiff
	slots    []slotDiff
}

// diffStates finds the differences between end and sdb in every account
// and slot of sets: end is the final state of a block that had sdb's state
// at the start of the first set and wrote nothing else there; sdb is
// finalised (no empty account left that a transaction touched). It returns
// nil when a difference is not one of balance, nonce or storage of
// accounts with the same code (a contract created or removed in one block
// only, an empty account of the parent state): end is then not used.
func diffStates(end, sdb *state.StateDB, sets ...[]*writeSet) *stateDiff {
	d := &stateDiff{}
	seen := map[common.Address]struct{}{}
	for _, ws := range sets {
		for _, w := range ws {
			for a := range w.accounts {
				if _, ok := seen[a]; ok {
					continue
				}
				seen[a] = struct{}{}
				newExists, endExists := sdb.Exist(a), end.Exist(a)
				switch {
				case !newExists && !endExists:
					continue
				case newExists && endExists:
					if sdb.GetCodeHash(a) != end.GetCodeHash(a) || sdb.Empty(a) {
						return nil
					}
				case newExists:
					if sdb.Empty(a) || sdb.GetCodeHash(a) != types.EmptyCodeHash || sdb.GetStorageRoot(a) != types.EmptyRootHash {
						return nil
					}
				default:
					if end.GetCodeHash(a) != types.EmptyCodeHash || end.GetStorageRoot(a) != types.EmptyRootHash {
						return nil
					}
				}
				ad := acctDiff{addr: a, old: acctValOf(end, a), new: acctValOf(sdb, a)}
				if ad.old != ad.new {
					d.accounts = append(d.accounts, ad)
				}
			}
		}
	}
	done := map[slotKey]struct{}{}
	for _, ws := range sets {
		for _, w := range ws {
			for k := range w.slots {
				if _, ok := done[k]; ok {
					continue
				}
				done[k] = struct{}{}
				newExists, endExists := sdb.Exist(k.addr), end.Exist(k.addr)
				if !newExists || !endExists {
					// An account in one state only was checked above to
					// have no storage; an account in neither has none.
					if newExists && sdb.GetState(k.addr, k.key) != (common.Hash{}) {
						return nil
					}
					continue
				}
				sd := slotDiff{slotKey: k, old: end.GetState(k.addr, k.key), new: sdb.GetState(k.addr, k.key)}
				if sd.old != sd.new {
					d.slots = append(d.slots, sd)
				}
			}
		}
	}
	return d
}

func acctValOf(sdb *state.StateDB, a common.Address) acctVal {
	if !sdb.Exist(a) {
		return acctVal{}
	}
	return acctVal{exists: true, balance: *sdb.GetBalance(a), nonce: sdb.GetNonce(a)}
}

// apply sets the diff's new values in end (backward: its old values).
func (d *stateDiff) apply(end *state.StateDB, backward bool) {
	for _, ad := range d.accounts {
		v, was := ad.new, ad.old
		if backward {
			v, was = was, v
		}
		if !v.exists {
			// Empty under EIP-158: removed when end is hashed, as the
			// block's own state removed it.
			end.SetBalance(ad.addr, new(uint256.Int), tracing.BalanceChangeUnspecified)
			end.SetNonce(ad.addr, 0, tracing.NonceChangeUnspecified)
			end.Touch(ad.addr)
			continue
		}
		if !was.exists {
			end.CreateAccount(ad.addr)
		}
		end.SetBalance(ad.addr, new(uint256.Int).Set(&v.balance), tracing.BalanceChangeUnspecified)
		end.SetNonce(ad.addr, v.nonce, tracing.NonceChangeUnspecified)
	}
	for _, sd := range d.slots {
		v := sd.new
		if backward {
			v = sd.old
		}
		end.SetState(sd.addr, sd.key, v)
	}
}

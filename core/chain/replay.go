package chain

import (
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// A resubmitted block usually differs from the last one in a few places:
// after the first change, most of its transactions are those of the last
// block, and most of them read nothing the change wrote. A txRecord keeps
// what one execution of a transaction read and wrote, so that a later block
// of the same environment can apply the writes instead of executing the
// transaction again, when every value the execution read is the same in
// that block's state at that point (the execution of a transaction depends
// on nothing else: the environment is the same, the access lists and the
// refund counter start empty for each transaction). The coinbase is the
// exception that makes this pay: every transaction credits it its fee, so
// the fee credit is kept as an addition rather than as a read and a write.
// The state root, receipts root, bloom and gas used of a block verified this
// way are still checked against its header; a mismatch makes the block be
// verified again in full before it is refused.
type txRecord struct {
	accounts []accountSeen
	slots    []slotSeen
	// fee is the coinbase's fee credit, when the transaction touched the
	// coinbase no other way (otherwise the coinbase is in accounts).
	fee      uint256.Int
	gasLimit uint64
	gasUsed  uint64
	failed   bool
	logs     []*types.Log // address, topics and data only
}

// accountVal is the part of an account a transaction can read or write
// (code changes, creations and deletions are never recorded).
type accountVal struct {
	exists   bool
	balance  uint256.Int
	nonce    uint64
	codeHash common.Hash
}

type accountSeen struct {
	addr      common.Address
	pre, post accountVal
}

type slotKey struct {
	addr common.Address
	key  common.Hash
}

type slotSeen struct {
	slotKey
	pre, post common.Hash
}

func accountOf(sdb *state.StateDB, addr common.Address) accountVal {
	return accountVal{exists: sdb.Exist(addr), balance: *sdb.GetBalance(addr), nonce: sdb.GetNonce(addr), codeHash: sdb.GetCodeHash(addr)}
}

// recordingState is the EVM's view of a block's state while its
// transactions are recorded: every account and slot a transaction reaches
// is noted with its value before the transaction's first access, the
// coinbase's fee credit apart. Outside a transaction (system calls) it
// records nothing.
type recordingState struct {
	*state.StateDB
	coinbase common.Address
	on       bool
	unsafe   bool // the transaction created, deleted or changed code
	accounts map[common.Address]int
	slots    map[slotKey]int
	rec      *txRecord
	// writes collects every account and slot written, in and outside
	// transactions (endstate.go); every mutating method of vm.StateDB
	// notes its account here.
	writes *writeSet
}

func newRecordingState(sdb *state.StateDB, coinbase common.Address) *recordingState {
	return &recordingState{StateDB: sdb, coinbase: coinbase, accounts: map[common.Address]int{}, slots: map[slotKey]int{}}
}

func (s *recordingState) begin() {
	s.on, s.unsafe, s.rec = true, false, &txRecord{}
	clear(s.accounts)
	clear(s.slots)
}

// end closes the transaction's record from its receipt, or returns nil for
// a transaction that cannot be replayed.
func (s *recordingState) end(tx *types.Transaction, r *types.Receipt) *txRecord {
	s.on = false
	rec := s.rec
	s.rec = nil
	if s.unsafe {
		return nil
	}
	for i := range rec.accounts {
		a := &rec.accounts[i]
		a.post = accountOf(s.StateDB, a.addr)
		switch {
		case a.pre.exists && !a.post.exists:
			return nil // an empty account removed
		case !a.pre.exists && a.post.exists && a.post.codeHash != types.EmptyCodeHash:
			return nil
		case a.pre.exists && a.pre.codeHash != a.post.codeHash:
			return nil
		}
	}
	for i := range rec.slots {
		sl := &rec.slots[i]
		sl.post = s.StateDB.GetState(sl.addr, sl.key)
	}
	rec.gasLimit, rec.gasUsed, rec.failed = tx.Gas(), r.GasUsed, r.Status == types.ReceiptStatusFailed
	rec.logs = make([]*types.Log, len(r.Logs))
	for i, l := range r.Logs {
		rec.logs[i] = &types.Log{Address: l.Address, Topics: l.Topics, Data: l.Data}
	}
	return rec
}

func (s *recordingState) account(addr common.Address) {
	if !s.on {
		return
	}
	if _, ok := s.accounts[addr]; ok {
		return
	}
	s.accounts[addr] = len(s.rec.accounts)
	s.rec.accounts = append(s.rec.accounts, accountSeen{addr: addr, pre: accountOf(s.StateDB, addr)})
}

func (s *recordingState) slot(addr common.Address, key common.Hash) {
	if !s.on {
		return
	}
	k := slotKey{addr, key}
	if _, ok := s.slots[k]; ok {
		return
	}
	s.slots[k] = len(s.rec.slots)
	s.rec.slots = append(s.rec.slots, slotSeen{slotKey: k, pre: s.StateDB.GetState(addr, key)})
}

// CreateAccount is how a call with value reaches an address that does not
// exist: the record creates it again by its balance. Over an existing
// account it would reset it, which a record does not express.
func (s *recordingState) CreateAccount(a common.Address) {
	s.writes.account(a)
	s.account(a)
	if s.on && s.rec.accounts[s.accounts[a]].pre.exists {
		s.unsafe = true
	}
	s.StateDB.CreateAccount(a)
}

func (s *recordingState) CreateContract(a common.Address) {
	s.writes.account(a)
	s.account(a)
	s.unsafe = true
	s.StateDB.CreateContract(a)
}

func (s *recordingState) SubBalance(a common.Address, v *uint256.Int, r tracing.BalanceChangeReason) uint256.Int {
	s.writes.account(a)
	s.account(a)
	return s.StateDB.SubBalance(a, v, r)
}

func (s *recordingState) AddBalance(a common.Address, v *uint256.Int, r tracing.BalanceChangeReason) uint256.Int {
	s.writes.account(a)
	if s.on && a == s.coinbase && r == tracing.BalanceIncreaseRewardTransactionFee {
		if _, seen := s.accounts[a]; !seen {
			s.rec.fee.Add(&s.rec.fee, v)
			return s.StateDB.AddBalance(a, v, r)
		}
	}
	s.account(a)
	return s.StateDB.AddBalance(a, v, r)
}

func (s *recordingState) GetBalance(a common.Address) *uint256.Int {
	s.account(a)
	return s.StateDB.GetBalance(a)
}

func (s *recordingState) GetNonce(a common.Address) uint64 {
	s.account(a)
	return s.StateDB.GetNonce(a)
}

func (s *recordingState) SetNonce(a common.Address, n uint64, r tracing.NonceChangeReason) {
	s.writes.account(a)
	s.account(a)
	s.StateDB.SetNonce(a, n, r)
}

func (s *recordingState) GetCodeHash(a common.Address) common.Hash {
	s.account(a)
	return s.StateDB.GetCodeHash(a)
}

func (s *recordingState) GetCode(a common.Address) []byte {
	s.account(a)
	return s.StateDB.GetCode(a)
}

func (s *recordingState) SetCode(a common.Address, code []byte, r tracing.CodeChangeReason) []byte {
	s.writes.account(a)
	s.account(a)
	s.unsafe = true
	return s.StateDB.SetCode(a, code, r)
}

func (s *recordingState) GetCodeSize(a common.Address) int {
	s.account(a)
	return s.StateDB.GetCodeSize(a)
}

func (s *recordingState) GetStateAndCommittedState(a common.Address, k common.Hash) (common.Hash, common.Hash) {
	s.slot(a, k)
	return s.StateDB.GetStateAndCommittedState(a, k)
}

func (s *recordingState) GetState(a common.Address, k common.Hash) common.Hash {
	s.slot(a, k)
	return s.StateDB.GetState(a, k)
}

func (s *recordingState) SetState(a common.Address, k, v common.Hash) common.Hash {
	s.writes.slot(a, k)
	s.slot(a, k)
	return s.StateDB.SetState(a, k, v)
}

func (s *recordingState) SelfDestruct(a common.Address) {
	s.writes.account(a)
	s.account(a)
	s.unsafe = true
	s.StateDB.SelfDestruct(a)
}

func (s *recordingState) HasSelfDestructed(a common.Address) bool {
	s.account(a)
	return s.StateDB.HasSelfDestructed(a)
}

func (s *recordingState) Exist(a common.Address) bool {
	s.account(a)
	return s.StateDB.Exist(a)
}

func (s *recordingState) Touch(a common.Address) {
	s.writes.account(a)
	s.account(a)
	s.StateDB.Touch(a)
}

func (s *recordingState) IsNewContract(a common.Address) bool {
	s.account(a)
	return s.StateDB.IsNewContract(a)
}

func (s *recordingState) Empty(a common.Address) bool {
	s.account(a)
	return s.StateDB.Empty(a)
}

// errReplayedFailure stands for the EVM error of a replayed transaction
// that failed: a receipt records only that it failed.
var errReplayedFailure = errors.New("replayed failed transaction")

// replay applies rec as transaction tx at the state's current transaction
// context (SetTxContext done), if every value rec read is the same now and
// the block has the gas; it returns the receipt, or nil and nothing
// changed.
func replay(rec *txRecord, tx *types.Transaction, sdb *state.StateDB, evm *vm.EVM, gp *core.GasPool, coinbase common.Address, number uint64, blockHash common.Hash, blockTime uint64) *types.Receipt {
	for i := range rec.accounts {
		if accountOf(sdb, rec.accounts[i].addr) != rec.accounts[i].pre {
			return nil
		}
	}
	for i := range rec.slots {
		if sdb.GetState(rec.slots[i].addr, rec.slots[i].key) != rec.slots[i].pre {
			return nil
		}
	}
	// The block's gas as the state transition takes it: the limit reserved,
	// the unused part returned.
	saved := *gp
	if gp.CheckGasLegacy(rec.gasLimit) != nil || gp.ChargeGasLegacy(rec.gasLimit-rec.gasUsed, rec.gasUsed) != nil {
		gp.Set(&saved)
		return nil
	}
	for i := range rec.accounts {
		a := &rec.accounts[i]
		if !a.post.exists {
			continue
		}
		if !a.pre.exists || a.post.balance != a.pre.balance {
			// A copy: the state keeps the pointer, the record is shared.
			sdb.SetBalance(a.addr, new(uint256.Int).Set(&a.post.balance), tracing.BalanceChangeUnspecified)
		}
		if a.post.nonce != a.pre.nonce {
			sdb.SetNonce(a.addr, a.post.nonce, tracing.NonceChangeUnspecified)
		}
	}
	for i := range rec.slots {
		if sl := &rec.slots[i]; sl.post != sl.pre {
			sdb.SetState(sl.addr, sl.key, sl.post)
		}
	}
	if !rec.fee.IsZero() {
		sdb.AddBalance(coinbase, &rec.fee, tracing.BalanceIncreaseRewardTransactionFee)
	}
	for _, l := range rec.logs {
		sdb.AddLog(&types.Log{Address: l.Address, Topics: l.Topics, Data: l.Data})
	}
	sdb.Finalise(evm.GetRules())
	res := &core.ExecutionResult{UsedGas: rec.gasUsed}
	if rec.failed {
		res.Err = errReplayedFailure
	}
	return core.MakeReceipt(evm, res, sdb, new(big.Int).SetUint64(number), blockHash, blockTime, tx, gp.CumulativeUsed(), nil)
}

var _ vm.StateDB = (*recordingState)(nil)

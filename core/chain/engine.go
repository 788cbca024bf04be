package chain

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto/kzg4844"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/miner"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/internal/sched"
)

// ErrPayloadRejected is returned when the engine API does not accept a
// payload as VALID.
var ErrPayloadRejected = errors.New("payload rejected by the engine API")

// ErrNoPayload is returned when geth's miner produced no payload.
var ErrNoPayload = errors.New("no payload built")

// PayloadAttributes are what a consensus client hands the execution layer
// to build the block of one slot.
type PayloadAttributes struct {
	Timestamp        uint64
	PrevRandao       common.Hash
	FeeRecipient     common.Address
	Withdrawals      []*types.Withdrawal // non-nil (possibly empty) after Shanghai
	ParentBeaconRoot common.Hash
}

// Engine drives the local chain through the public engine API, exactly as
// an external consensus client would: one shared catalyst ConsensusAPI serves
// both the authenticated engine RPC and gavel's in-process beacon driver.
type Engine struct {
	api     *catalyst.ConsensusAPI
	backend *eth.Ethereum
	feed    AttributesFeed
	watch   *snapSyncWatch
	sched   *sched.Scheduler
}

// NewEngine creates the node's one engine API instance. peers is the p2p
// server's peer count (node.Node.Server().PeerCount), read only while the
// consensus client's forkchoiceUpdated calls are answered SYNCING. Every
// engine call (forkchoiceUpdated, newPayload, getPayload, over authrpc or
// in-process) is the slot's critical work in sc: no client turn is handed
// out while one runs (nil: no scheduler).
func NewEngine(backend *eth.Ethereum, peers func() int, sc *sched.Scheduler) *Engine {
	return &Engine{api: catalyst.NewConsensusAPI(backend), backend: backend, watch: &snapSyncWatch{backend: backend, peers: peers}, sched: sc}
}

// APIs returns the authenticated `engine` namespace for the node's authrpc
// endpoint: geth's ConsensusAPI, whose forkchoiceUpdated calls also publish
// their payload attributes (Attributes). geth's `testing` namespace is
// deliberately not registered.
func (e *Engine) APIs() []rpc.API {
	return []rpc.API{{Namespace: "engine", Service: &engineService{ConsensusAPI: e.api, feed: &e.feed, watch: e.watch, sched: e.sched}, Authenticated: true}}
}

// Attributes is the feed of the payload attributes the consensus client
// sends with engine_forkchoiceUpdated (V1 to V4) over authrpc, published
// after geth accepted the call. gavel's own in-process driver (--dev) does
// not go through it.
func (e *Engine) Attributes() *AttributesFeed { return &e.feed }

// BuildLocal builds a payload on parent with geth's own miner (mempool
// transactions by tip) and waits for the first full block.
func (e *Engine) BuildLocal(ctx context.Context, parent common.Hash, attrs PayloadAttributes) (*engine.ExecutionPayloadEnvelope, error) {
	defer e.sched.Critical()()
	beaconRoot := attrs.ParentBeaconRoot
	withdrawals := attrs.Withdrawals
	if withdrawals == nil {
		withdrawals = types.Withdrawals{}
	}
	p, err := e.backend.Miner().BuildPayload(ctx, &miner.BuildPayloadArgs{
		Parent:       parent,
		Timestamp:    attrs.Timestamp,
		FeeRecipient: attrs.FeeRecipient,
		Random:       attrs.PrevRandao,
		Withdrawals:  withdrawals,
		BeaconRoot:   &beaconRoot,
		Version:      engine.PayloadV3,
	}, false)
	if err != nil {
		return nil, fmt.Errorf("build payload on %s: %w", parent.Hex(), err)
	}
	env := p.ResolveFull()
	if env == nil {
		return nil, ErrNoPayload
	}
	return env, nil
}

// Import hands a payload to the engine API (newPayload) and fails unless it
// is VALID. It does not move the head: call SetHead for that.
func (e *Engine) Import(ctx context.Context, env *engine.ExecutionPayloadEnvelope, parentBeaconRoot common.Hash) error {
	defer e.sched.Critical()()
	var hashes []common.Hash
	if env.BlobsBundle != nil {
		hasher := sha256.New()
		for _, c := range env.BlobsBundle.Commitments {
			var commitment kzg4844.Commitment
			copy(commitment[:], c)
			hashes = append(hashes, kzg4844.CalcBlobHashV1(hasher, &commitment))
		}
	}
	if hashes == nil {
		hashes = []common.Hash{}
	}
	requests := make([]hexutil.Bytes, len(env.Requests))
	raw := make([][]byte, len(env.Requests))
	for i, r := range env.Requests {
		requests[i], raw[i] = r, r
	}
	// In --dev every delivered block is imported twice by design (the
	// relay's publish, then the proposer's own import of what it fetched);
	// geth answers the second VALID with a WARN each slot. A payload whose
	// contents hash to a block the chain holds is that block: answer VALID
	// here, quietly, after the same hash check geth makes.
	if p := env.ExecutionPayload; e.backend.BlockChain().HasBlock(p.BlockHash, p.Number) {
		if blk, err := engine.ExecutableDataToBlock(*p, hashes, &parentBeaconRoot, raw); err == nil && blk.Hash() == p.BlockHash {
			return nil
		}
	}
	status, err := e.api.NewPayloadV4(ctx, *env.ExecutionPayload, hashes, &parentBeaconRoot, requests)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPayloadRejected, err)
	}
	if status.Status != engine.VALID {
		msg := ""
		if status.ValidationError != nil {
			msg = *status.ValidationError
		}
		return fmt.Errorf("%w: block %s is %s %s", ErrPayloadRejected, env.ExecutionPayload.BlockHash.Hex(), status.Status, msg)
	}
	return nil
}

// SetHead moves head, safe and finalized through forkchoiceUpdated, then
// flushes the chain database to disk: the in-process beacon driver (dev
// mode) is its only caller, and a head it moved must survive a SIGKILL
// (geth writes without syncing, so a killed process loses its last writes;
// one sync a slot costs little).
func (e *Engine) SetHead(ctx context.Context, head, safe, finalized common.Hash) error {
	defer e.sched.Critical()()
	res, err := e.api.ForkchoiceUpdatedV3(ctx, engine.ForkchoiceStateV1{
		HeadBlockHash: head, SafeBlockHash: safe, FinalizedBlockHash: finalized,
	}, nil)
	if err != nil {
		return fmt.Errorf("forkchoiceUpdated to %s: %w", head.Hex(), err)
	}
	if res.PayloadStatus.Status != engine.VALID {
		return fmt.Errorf("%w: forkchoiceUpdated to %s is %s", ErrPayloadRejected, head.Hex(), res.PayloadStatus.Status)
	}
	if err := e.backend.ChainDb().SyncKeyValue(); err != nil {
		return fmt.Errorf("flushing the chain database after head %s: %w", head.Hex(), err)
	}
	return nil
}

// SyncPool waits for the transaction pool to absorb pending additions and
// head changes, so a block built next sees every transaction sent so far.
func (e *Engine) SyncPool() error {
	return e.backend.TxPool().Sync()
}

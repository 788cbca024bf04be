// Package devbeacon is the in-process consensus driver of `gavel --dev`: a
// slot clock that, once per slot, asks a PayloadBuilder for the slot's block,
// imports it through the public engine API and moves head, safe and
// finalized, as a real consensus client would.
package devbeacon

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/params"
)

// ErrSlotTaken is returned when a slot at or before the head's slot is
// requested: a slot has at most one block.
var ErrSlotTaken = errors.New("slot already has a block")

// PayloadRequest is everything a builder needs for one slot's block.
type PayloadRequest struct {
	Slot   uint64
	Parent *types.Header
	Attrs  chain.PayloadAttributes
}

// PayloadBuilder decides who builds a slot's payload. The default is geth's
// miner over the local mempool; the relay's proposer flow plugs in here.
type PayloadBuilder interface {
	BuildPayload(ctx context.Context, req PayloadRequest) (*engine.ExecutionPayloadEnvelope, error)
}

// Chain is what the driver needs of the local chain.
type Chain interface {
	Head() *types.Header
	Genesis() *types.Header
}

// Engine is what the driver needs of the engine API.
type Engine interface {
	Import(ctx context.Context, env *engine.ExecutionPayloadEnvelope, parentBeaconRoot common.Hash) error
	SetHead(ctx context.Context, head, safe, finalized common.Hash) error
	SyncPool() error
}

// Config configures the driver.
type Config struct {
	// Period is the slot time; slot n starts at genesis time + n × Period.
	Period time.Duration
	// FeeRecipient receives the fees of locally built blocks.
	FeeRecipient common.Address
	// Manual turns the wall clock off: slots advance only through Step.
	Manual bool
	// Sched is the node's CPU scheduler: the slot step's own work (the
	// pool's sync, the payload attributes) runs as its critical work (nil:
	// none). Building, the relay's getHeader and getPayload and the import
	// mark themselves; the step as a whole is not marked, since it waits
	// for the relay over HTTP, and the relay reads the dev builder's
	// submission as client work, which a mark held meanwhile would hold
	// back for the whole slot.
	Sched *sched.Scheduler
}

// Beacon is the dev consensus driver. It is a node.Lifecycle.
type Beacon struct {
	chain  Chain
	engine Engine
	cfg    Config
	clock  params.SlotClock

	mu      sync.Mutex // serialises slot production
	builder PayloadBuilder
	onSlot  []SlotFunc // called after each slot, outside mu

	quit chan struct{}
	done chan struct{}
}

// New creates a driver. It builds no block until SetBuilder gives it a
// payload builder.
func New(c Chain, e Engine, cfg Config) (*Beacon, error) {
	if cfg.Period < time.Second || cfg.Period%time.Second != 0 {
		return nil, fmt.Errorf("dev period must be a whole number of seconds, at least 1s: got %v", cfg.Period)
	}
	return &Beacon{
		chain: c, engine: e, cfg: cfg,
		clock: params.SlotClock{GenesisTime: c.Genesis().Time, SecondsPerSlot: uint64(cfg.Period / time.Second)},
	}, nil
}

// SlotFunc is told that slot is over: its block was imported (head is the
// new head) or producing it failed (head is nil: the slot was missed). It
// runs on the slot driver's goroutine, before the next slot starts; it must
// not wait for later slots.
type SlotFunc func(ctx context.Context, slot uint64, head *types.Header)

// OnSlot registers fn to be called after every slot. Call it before Start.
func (b *Beacon) OnSlot(fn SlotFunc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.onSlot = append(b.onSlot, fn)
}

// notify tells the OnSlot functions that slot is over.
func (b *Beacon) notify(ctx context.Context, slot uint64, head *types.Header) {
	b.mu.Lock()
	fns := b.onSlot
	b.mu.Unlock()
	for _, fn := range fns {
		fn(ctx, slot, head)
	}
}

// SetBuilder replaces the slot's payload builder. Call it before Start.
func (b *Beacon) SetBuilder(builder PayloadBuilder) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.builder = builder
}

// Period returns the slot time.
func (b *Beacon) Period() time.Duration { return b.cfg.Period }

// GenesisTime returns the timestamp at which slot 0 starts.
func (b *Beacon) GenesisTime() uint64 { return b.clock.GenesisTime }

// SlotTime returns the timestamp at which slot starts.
func (b *Beacon) SlotTime(slot uint64) uint64 { return b.clock.SlotTime(slot) }

// SlotAt returns the slot that is running at unix time t.
func (b *Beacon) SlotAt(t uint64) uint64 { return b.clock.SlotAt(t) }

// HeadSlot returns the slot of the current head block.
func (b *Beacon) HeadSlot() uint64 { return b.SlotAt(b.chain.Head().Time) }

// CurrentSlot returns the slot the chain is in: the wall-clock slot, or in
// manual mode the head's slot.
func (b *Beacon) CurrentSlot() uint64 {
	if b.cfg.Manual {
		return b.HeadSlot()
	}
	return b.clock.Now()
}

// Start runs the slot clock unless the driver is manual.
func (b *Beacon) Start() error {
	if b.cfg.Manual {
		return nil
	}
	b.quit, b.done = make(chan struct{}), make(chan struct{})
	go b.loop()
	return nil
}

// Stop halts the slot clock and waits for the slot in progress.
func (b *Beacon) Stop() error {
	if b.quit == nil {
		return nil
	}
	close(b.quit)
	<-b.done
	b.quit = nil
	return nil
}

func (b *Beacon) loop() {
	defer close(b.done)
	for {
		next := max(b.HeadSlot(), b.CurrentSlot()) + 1
		wait := time.Until(time.Unix(int64(b.SlotTime(next)), 0))
		select {
		case <-b.quit:
			return
		case <-time.After(wait):
		}
		ctx, cancel := context.WithTimeout(context.Background(), b.cfg.Period)
		if _, err := b.ProduceSlot(ctx, next); err != nil && !errors.Is(err, ErrSignedBlinded) {
			log.Error("Dev slot failed", "slot", next, "err", err) // a signed blinded block's failure is logged where it happens
		}
		cancel()
	}
}

// Step produces the block of the slot after the head's, now, whatever the
// wall clock says. Tests use it to advance the chain deterministically.
func (b *Beacon) Step(ctx context.Context) (*types.Header, error) {
	return b.ProduceSlot(ctx, b.HeadSlot()+1)
}

// ProduceSlot builds, imports and makes canonical the block of slot, then
// tells the OnSlot functions (also when it failed, unless the slot already
// had a block).
func (b *Beacon) ProduceSlot(ctx context.Context, slot uint64) (*types.Header, error) {
	head, err := b.produceSlot(ctx, slot)
	if errors.Is(err, ErrSlotTaken) {
		return nil, err
	}
	b.notify(ctx, slot, head)
	return head, err
}

func (b *Beacon) produceSlot(ctx context.Context, slot uint64) (*types.Header, error) {
	b.mu.Lock()
	defer b.mu.Unlock()

	parent := b.chain.Head()
	if headSlot := b.SlotAt(parent.Time); slot <= headSlot {
		return nil, fmt.Errorf("%w: slot %d, head is at slot %d", ErrSlotTaken, slot, headSlot)
	}
	done := b.cfg.Sched.Critical()
	if err := b.engine.SyncPool(); err != nil {
		done()
		return nil, err
	}
	req := PayloadRequest{Slot: slot, Parent: parent, Attrs: b.attributes(slot, parent)}
	done()
	if b.builder == nil {
		return nil, errors.New("no payload builder configured")
	}
	env, err := b.builder.BuildPayload(ctx, req)
	if err != nil {
		// The relay publishes the builder's block before it answers
		// getPayload: when the answer is lost, the chain may hold the
		// slot's block all the same, and that block is the slot's.
		if head := b.chain.Head(); head.ParentHash == parent.Hash() && b.SlotAt(head.Time) == slot {
			log.Info("Dev slot", "slot", slot, "number", head.Number, "hash", head.Hash(), "gas", head.GasUsed, "published", "by the relay", "builder", err)
			return head, nil
		}
		return nil, fmt.Errorf("build slot %d: %w", slot, err)
	}
	if err := b.engine.Import(ctx, env, req.Attrs.ParentBeaconRoot); err != nil {
		return nil, fmt.Errorf("import slot %d: %w", slot, err)
	}
	hash := env.ExecutionPayload.BlockHash
	if err := b.engine.SetHead(ctx, hash, hash, hash); err != nil {
		return nil, err
	}
	head := b.chain.Head()
	log.Info("Dev slot", "slot", slot, "number", head.Number, "hash", head.Hash(), "txs", len(env.ExecutionPayload.Transactions), "gas", head.GasUsed)
	return head, nil
}

// NextRequest is the payload request of the next slot to be produced on the
// current head: what a beacon node announces as soon as the head is set.
func (b *Beacon) NextRequest() PayloadRequest {
	parent := b.chain.Head()
	slot := max(b.CurrentSlot(), b.SlotAt(parent.Time)) + 1
	return PayloadRequest{Slot: slot, Parent: parent, Attrs: b.attributes(slot, parent)}
}

// attributes derives the slot's payload attributes, deterministically from
// the parent and the slot, as a beacon chain would hand them over.
func (b *Beacon) attributes(slot uint64, parent *types.Header) chain.PayloadAttributes {
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], slot)
	return chain.PayloadAttributes{
		Timestamp:        b.SlotTime(slot),
		PrevRandao:       crypto.Keccak256Hash(parent.MixDigest[:], s[:]),
		FeeRecipient:     b.cfg.FeeRecipient,
		Withdrawals:      []*types.Withdrawal{},
		ParentBeaconRoot: crypto.Keccak256Hash([]byte("gavel dev beacon block"), s[:]),
	}
}

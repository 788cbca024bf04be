// Package operator is the auction operator loop: for each upcoming L1 slot it
// opens the slot's L2 auction a configurable number of slots ahead (selling
// the configured beta gas), settles it (runAndSettle) a few slots before the
// slot so winners can pay their bundle hashes in time, and once the slot is
// over and confirmed pays the proceeds out to the Accountant or refunds the
// winners, by the market's rules (Judge) applied to the canonical L1 block
// of the slot.
//
// The loop keeps no state that matters across restarts: each Tick reads the
// contract (auctions(slot), and at start the Auctioneer's list of recent
// auctions) and does what the state calls for, so a restarted or a second
// operator picks up where the first stopped. Transactions are sent without
// waiting for them to be mined (a dev chain mines them in the next slot,
// after Tick returns); their receipts are checked on later ticks.
//
// The loop learns what happened on L1 through Deliveries
// (CanonicalDeliveries: the canonical chain and the node's account of its
// beta merges). It runs in-process in `gavel --dev` (driven by the dev
// beacon's slots) and as `gavel auction operate` against any L2.
package operator

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/internal/defaults"
)

// Defaults of Config.
const (
	// DefaultGas is the beta gas sold per slot.
	DefaultGas = 5_000_000
	// DefaultLead is how many slots ahead an auction opens.
	DefaultLead = 32
	// DefaultSettleLead is how many slots before its slot an auction settles:
	// on a dev chain that is its own L2 (one L2 block per slot) the settlement
	// is mined one slot later and the winners' payments need the blocks after.
	DefaultSettleLead = 8
	// DefaultGrace is how many slots after a slot could first be judged
	// its outcome may stay unknown before it is refunded.
	DefaultGrace = 2
	// DefaultLookback is how many recent auctions a starting operator reads to
	// find the ones still to settle, pay out or refund.
	DefaultLookback = 256
	// DefaultRetryAfter is how many ticks a sent transaction may stay
	// unmined before the loop reads the state again and acts anew.
	DefaultRetryAfter = 4
)

// ErrConfig is returned by New for an unusable configuration.
var ErrConfig = errors.New("invalid operator configuration")

// Deliveries judges a slot that is over: pay out or refund (Verdict).
// Known == false means "not known yet": the operator asks again on later
// ticks and refunds the slot once slot S+Confirmations+Grace is over. An
// error is logged and the slot asked again on the next tick.
type Deliveries interface {
	Verdict(ctx context.Context, slot uint64) (Verdict, error)
}

// Config configures the loop.
type Config struct {
	// Gas is the beta gas sold per slot (the auction's items for sale).
	Gas uint64
	// Lead: slot S's auction opens when slot S-Lead is over.
	Lead uint64
	// SettleLead: slot S's auction settles when slot S-SettleLead is over.
	// Must be below Lead.
	SettleLead uint64
	// Confirmations: slot S is judged once slot S+Confirmations is over, so
	// that the L1 block at S is final enough (0 on a dev chain, which one
	// node seals and never reorganises).
	Confirmations uint64
	// Grace: a slot whose outcome is still unknown Grace slots after it
	// could first be judged (S+Confirmations) is refunded.
	Grace uint64
	// Lookback is how many recent auctions a starting loop reads.
	Lookback int
	// RetryAfter is how many ticks a sent transaction may stay unmined
	// before the state is read again.
	RetryAfter int
}

// withDefaults fills zero fields.
func (c Config) withDefaults() Config {
	defaults.Set(&c.Gas, DefaultGas)
	defaults.Set(&c.Lead, DefaultLead)
	defaults.Set(&c.SettleLead, DefaultSettleLead)
	defaults.Set(&c.Grace, DefaultGrace)
	defaults.Set(&c.Lookback, DefaultLookback)
	defaults.Set(&c.RetryAfter, DefaultRetryAfter)
	return c
}

// Check validates the configuration (after defaults).
func (c Config) Check() error {
	c = c.withDefaults()
	if c.SettleLead >= c.Lead {
		return fmt.Errorf("%w: the settle lead (%d slots) must be below the open lead (%d slots): an auction needs time to take bids", ErrConfig, c.SettleLead, c.Lead)
	}
	return nil
}

// sent is a transaction the loop sent and has not seen mined yet.
type sent struct {
	call  auction.Call
	slot  uint64
	tx    *types.Transaction
	ticks int // ticks since it was sent
}

// Operator is the loop. Its methods are safe for concurrent use; ticks run
// one at a time.
type Operator struct {
	client     *auction.Client
	deliveries Deliveries
	cfg        Config

	mu         sync.Mutex
	started    bool
	openedTo   uint64              // slots up to here entered the open window
	tracked    map[uint64]struct{} // opened auctions not finalized yet
	inflight   map[uint64]*sent    // by slot: at most one call per slot at a time
	lastTick   uint64
	nonce      uint64           // the next nonce to send with
	transition func(Transition) // test and info hook
}

// Transition is one step the loop took, as logged.
type Transition struct {
	Slot uint64
	Call auction.Call
	Tx   *types.Transaction
	// Receipt is set when the transaction was seen mined; Err when sending or
	// the transaction failed.
	Receipt *types.Receipt
	Err     error
}

// New returns a loop that operates the deployment client talks to, signing
// with its key (the Auctioneer's operator).
func New(client *auction.Client, deliveries Deliveries, cfg Config) (*Operator, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if deliveries == nil {
		return nil, fmt.Errorf("%w: no source of deliveries", ErrConfig)
	}
	return &Operator{
		client: client, deliveries: deliveries, cfg: cfg.withDefaults(),
		tracked: make(map[uint64]struct{}), inflight: make(map[uint64]*sent),
	}, nil
}

// Config returns the loop's configuration, defaults filled in.
func (o *Operator) Config() Config { return o.cfg }

// OnTransition registers fn to be called for every transition (after it is
// logged). Call it before the first Tick.
func (o *Operator) OnTransition(fn func(Transition)) { o.transition = fn }

// Tick does what slot done being over calls for: it checks the transactions
// sent earlier, opens the auctions now up to Lead slots ahead (those not open
// yet), settles those SettleLead slots ahead (and any late ones), and
// pays out or refunds the auctions of slots that are over. It returns once
// every transaction is sent, without waiting for them to be mined. Errors of
// single slots are logged and retried on later ticks; the error returned is
// the first one, for callers that want to know.
func (o *Operator) Tick(ctx context.Context, done uint64) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.lastTick = done
	var first error
	note := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	if !o.started {
		if err := o.start(ctx, done); err != nil {
			return fmt.Errorf("reading recent auctions: %w", err)
		}
	}
	note(o.checkInflight(ctx))
	// Number this tick's transactions from the node's pending nonce, or
	// past the ones still in flight when the node's count lags.
	pending, err := o.client.PendingNonce(ctx)
	if err != nil {
		return fmt.Errorf("reading the operator's nonce: %w", err)
	}
	if len(o.inflight) == 0 || pending > o.nonce {
		o.nonce = pending
	}

	// Every slot that came into the open window, (done+SettleLead, done+Lead],
	// is tracked from now on; step opens it.
	for s := max(o.openedTo+1, done+o.cfg.SettleLead+1); s <= done+o.cfg.Lead; s++ {
		o.tracked[s] = struct{}{}
	}
	o.openedTo = max(o.openedTo, done+o.cfg.Lead)

	// Settle, pay out, refund: every tracked auction, in slot order.
	slots := make([]uint64, 0, len(o.tracked))
	for s := range o.tracked {
		slots = append(slots, s)
	}
	slices.Sort(slots)
	for _, s := range slots {
		if _, busy := o.inflight[s]; busy {
			continue
		}
		note(o.step(ctx, done, s))
	}
	return first
}

// start reads the recent auctions, so a restarted loop finishes what an
// earlier one left.
func (o *Operator) start(ctx context.Context, done uint64) error {
	recent, err := o.client.RecentSlots(ctx, o.cfg.Lookback)
	if err != nil {
		return err
	}
	for _, s := range recent {
		o.tracked[s] = struct{}{}
	}
	o.started = true
	log.Info("Auction operator started", "slot", done, "operator", o.client.From(), "auctioneer", o.client.Addresses().Auctioneer,
		"gas", o.cfg.Gas, "lead", o.cfg.Lead, "settleLead", o.cfg.SettleLead, "recent", len(recent))
	return nil
}

// step moves one tracked auction on, as its state and the slot's outcome say.
func (o *Operator) step(ctx context.Context, done, s uint64) error {
	st, err := o.client.Status(ctx, s)
	if err != nil {
		return fmt.Errorf("slot %d: %w", s, err)
	}
	switch {
	case st.Finalized():
		delete(o.tracked, s)
		return nil
	case !st.Opened():
		if s <= done+o.cfg.SettleLead {
			delete(o.tracked, s) // too late to take bids: not sold
			return nil
		}
		return o.send(ctx, auction.CallOpen, s)
	case st.IsOpen:
		if s > done+o.cfg.SettleLead {
			return nil // still taking bids
		}
		if s <= done {
			log.Warn("Auction settled after its slot: it will be refunded", "slot", s)
		}
		return o.send(ctx, auction.CallSettle, s)
	}
	// Settled, not finalized: decide once the slot is over and confirmed.
	if s+o.cfg.Confirmations > done {
		return nil
	}
	v, err := o.deliveries.Verdict(ctx, s)
	if err != nil {
		return fmt.Errorf("slot %d: judging its block: %w", s, err)
	}
	switch {
	case v.Known && v.Payout:
		log.Info("Slot honoured: paying out", "slot", s, "why", v.Reason)
		return o.send(ctx, auction.CallPayout, s)
	case v.Known:
		log.Info("Slot not honoured: refunding", "slot", s, "why", v.Reason)
		return o.send(ctx, auction.CallRefund, s)
	case done >= s+o.cfg.Confirmations+o.cfg.Grace:
		log.Info("Slot outcome still unknown: refunding", "slot", s, "grace", o.cfg.Grace)
		return o.send(ctx, auction.CallRefund, s)
	}
	return nil
}

// send sends call for slot and remembers it until it is mined.
func (o *Operator) send(ctx context.Context, call auction.Call, s uint64) error {
	tx, err := o.client.Send(ctx, call, s, o.cfg.Gas, o.nonce)
	if err != nil {
		log.Warn("Auction operator call failed", "call", call, "slot", s, "err", err)
		o.notify(Transition{Slot: s, Call: call, Err: err})
		return fmt.Errorf("%s(%d): %w", call, s, err)
	}
	o.nonce++
	o.inflight[s] = &sent{call: call, slot: s, tx: tx}
	log.Info("Auction operator call sent", "call", call, "slot", s, "tx", tx.Hash())
	o.notify(Transition{Slot: s, Call: call, Tx: tx})
	return nil
}

// checkInflight looks for the receipts of the transactions sent earlier.
func (o *Operator) checkInflight(ctx context.Context) error {
	var first error
	for s, p := range o.inflight {
		r, err := o.client.Receipt(ctx, p.tx)
		switch {
		case errors.Is(err, ethereum.NotFound):
			p.ticks++
			if p.ticks >= o.cfg.RetryAfter {
				log.Warn("Auction operator call not mined; reading the state again", "call", p.call, "slot", s, "tx", p.tx.Hash(), "ticks", p.ticks)
				delete(o.inflight, s)
			}
			continue
		case err != nil && r == nil:
			if first == nil {
				first = err
			}
			continue
		}
		delete(o.inflight, s)
		if err != nil {
			log.Warn("Auction operator call failed on chain", "call", p.call, "slot", s, "tx", p.tx.Hash(), "block", r.BlockNumber, "err", err)
		} else {
			log.Info("Auction "+doneWord(p.call), "slot", s, "tx", p.tx.Hash(), "block", r.BlockNumber, "gasUsed", r.GasUsed)
		}
		o.notify(Transition{Slot: s, Call: p.call, Tx: p.tx, Receipt: r, Err: err})
	}
	return first
}

func doneWord(c auction.Call) string {
	switch c {
	case auction.CallOpen:
		return "opened"
	case auction.CallSettle:
		return "settled"
	case auction.CallPayout:
		return "paid out"
	case auction.CallRefund:
		return "refunded"
	}
	return string(c)
}

func (o *Operator) notify(t Transition) {
	if o.transition != nil {
		o.transition(t)
	}
}

// Pending returns how many sent transactions have not been seen mined.
func (o *Operator) Pending() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.inflight)
}

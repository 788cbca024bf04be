package bundlepool

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
)

// statusBlocks is how many blocks behind the head bundle statuses are kept.
const statusBlocks = 128

// ErrUnknownBundle is returned for a status no bundle has (never sent, or
// its block is more than statusBlocks behind the head).
var ErrUnknownBundle = fmt.Errorf("unknown bundle: not received, or its block is more than %d blocks old", statusBlocks)

// State is where a bundle is on its way into its target block.
type State string

// States, in the order a bundle goes through them.
const (
	// StateReceived: accepted, not yet looked at by a builder.
	StateReceived State = "received"
	// StateConsidered: a builder looked at it for its block (it may have
	// failed there: Reason says why, and a later build may still take it).
	StateConsidered State = "considered"
	// StateSimulated: it ran cleanly at the top of its block.
	StateSimulated State = "simulated"
	// StateIncluded: it is in the canonical block.
	StateIncluded State = "included"
	// StateDropped: its block is built without it, or it was cancelled or
	// replaced (Reason says which).
	StateDropped State = "dropped"
)

// Status is what the pool knows about one bundle for one target block.
type Status struct {
	Hash         common.Hash
	BlockNumber  uint64
	Signer       common.Address
	State        State
	ReceivedAt   time.Time
	ConsideredAt time.Time // first time a builder looked at it (zero: never)
	SimulatedAt  time.Time // first clean top-of-block simulation (zero: never)
	SealedAt     time.Time // first time it was built into a block (zero: never)
	IncludedIn   common.Hash
	Reason       bundle.DropReason // why it is (so far) not included
	Error        string            // the failure behind Reason, when there is one
	// Builder identifies this node's builder (its BLS public key when the
	// relay runs, else "local").
	Builder string
}

type statusKey struct {
	hash  common.Hash
	block uint64
}

// SetBuilderID names this node's builder in statuses (default "local").
func (p *Pool) SetBuilderID(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.builderID = id
}

// recordLocked notes a newly accepted bundle.
func (p *Pool) recordLocked(b *bundle.SendBundle) {
	k := statusKey{b.Hash, b.BlockNumber}
	if _, ok := p.status[k]; ok {
		return
	}
	p.status[k] = &Status{Hash: b.Hash, BlockNumber: b.BlockNumber, Signer: b.Signer, State: StateReceived, ReceivedAt: p.now()}
	if b.BlockNumber >= p.latest[b.Hash] {
		p.latest[b.Hash] = b.BlockNumber
	}
}

// dropLocked ends a bundle's status with reason, unless it is final already.
func (p *Pool) dropLocked(b *bundle.SendBundle, reason bundle.DropReason) {
	if st := p.status[statusKey{b.Hash, b.BlockNumber}]; st != nil && st.State != StateIncluded && st.State != StateDropped {
		st.State, st.Reason, st.Error = StateDropped, reason, ""
	}
}

// Considered records what a build of block number did with its bundles
// (miner.BundleSource).
func (p *Pool) Considered(number uint64, cs []bundle.Consideration) {
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		st := p.status[statusKey{c.Bundle.Hash, number}]
		if st == nil || st.State == StateIncluded || st.State == StateDropped {
			continue
		}
		if st.ConsideredAt.IsZero() {
			st.ConsideredAt = now
		}
		if c.Simulated && st.SimulatedAt.IsZero() {
			st.SimulatedAt = now
		}
		if c.Included && st.SealedAt.IsZero() {
			st.SealedAt = now
		}
		switch {
		case c.Included:
			st.Reason, st.Error = "", ""
			st.State = StateSimulated
		case st.SealedAt.IsZero(): // a block that holds it beats a build that failed it
			st.Reason = c.Reason
			if c.Err != nil {
				st.Error = c.Err.Error()
			}
			st.State = StateConsidered
			if !st.SimulatedAt.IsZero() {
				st.State = StateSimulated
			}
		}
	}
}

// Status returns the status of the bundle hash for block; block 0 means the
// latest block the bundle was sent for. A bundle sent with a request
// signature is only shown to that signer.
func (p *Pool) Status(hash common.Hash, block uint64, signer common.Address) (Status, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	asked := block
	if block == 0 {
		block = p.latest[hash]
	}
	st := p.status[statusKey{hash, block}]
	if st == nil {
		if asked == 0 {
			return Status{}, fmt.Errorf("%w: %s (for any block)", ErrUnknownBundle, hash.Hex())
		}
		return Status{}, fmt.Errorf("%w: %s for block %d", ErrUnknownBundle, hash.Hex(), block)
	}
	if st.Signer != (common.Address{}) && st.Signer != signer {
		return Status{}, fmt.Errorf("%w: sign the request with the key that sent it", ErrNotYourBundle)
	}
	out := *st
	out.Builder = p.builderID
	return out, nil
}

// finishLocked closes the statuses of block number, whose block is now
// canonical, logs one line summing them up, and forgets statuses that
// are statusBlocks old.
func (p *Pool) finishLocked(number uint64) {
	if number <= p.finished {
		return
	}
	from := p.finished + 1
	if number >= statusBlocks && from < number-statusBlocks+1 {
		from = number - statusBlocks + 1
	}
	p.finished = number
	byBlock := map[uint64][]*Status{}
	for k, st := range p.status {
		switch {
		case k.block+statusBlocks <= number:
			delete(p.status, k)
			if p.latest[k.hash] == k.block {
				delete(p.latest, k.hash)
			}
		case k.block >= from && k.block <= number:
			byBlock[k.block] = append(byBlock[k.block], st)
		}
	}
	for n := from; n <= number; n++ {
		sts := byBlock[n]
		if len(sts) == 0 {
			continue
		}
		var considered, included, dropped int
		reasons := map[bundle.DropReason]int{}
		for _, st := range sts {
			if !st.ConsideredAt.IsZero() {
				considered++
			}
			switch st.State {
			case StateIncluded:
				included++
				continue
			case StateDropped:
			default:
				st.State = StateDropped
				switch {
				case !st.SealedAt.IsZero():
					st.Reason, st.Error = bundle.DropBlockNotChosen, ""
				case st.Reason == "":
					st.Reason = bundle.DropNotConsidered
				}
			}
			dropped++
			reasons[st.Reason]++
		}
		log.Info("Bundles for block", "number", n, "received", len(sts), "considered", considered,
			"included", included, "dropped", dropped, "reasons", reasonList(reasons))
	}
}

func reasonList(m map[bundle.DropReason]int) string {
	parts := make([]string, 0, len(m))
	for r, n := range m {
		parts = append(parts, fmt.Sprintf("%s=%d", r, n))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

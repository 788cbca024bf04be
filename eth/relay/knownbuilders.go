package relay

import (
	"sync"

	"github.com/gavel-eth/gavel/core/beacon"
)

// KnownBuilderSlots is how many slots a builder stays known after a bid of
// it passed every check and was stored (see KnownBuilder).
const KnownBuilderSlots = 64

// maxKnownBuilders bounds the builders remembered; when full, those whose
// window has passed are forgotten first, and a new builder is not added
// while every entry is still in its window.
const maxKnownBuilders = 4096

// knownBuilders remembers, per builder public key, the slot of its latest
// bid that this relay verified and stored. Builder keys are not registered,
// so a signature alone costs an attacker nothing; a track record does: only
// a builder whose block was simulated and accepted gets in.
type knownBuilders struct {
	mu     sync.Mutex
	window uint64
	last   map[beacon.BLSPubkey]uint64 // builder -> slot of its latest stored bid
}

func newKnownBuilders(window uint64) *knownBuilders {
	return &knownBuilders{window: window, last: map[beacon.BLSPubkey]uint64{}}
}

// add records a stored bid of pk for slot.
func (k *knownBuilders) add(pk beacon.BLSPubkey, slot uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if prev, ok := k.last[pk]; ok {
		k.last[pk] = max(prev, slot)
		return
	}
	if len(k.last) >= maxKnownBuilders {
		for b, s := range k.last {
			if s+k.window < slot {
				delete(k.last, b)
			}
		}
		if len(k.last) >= maxKnownBuilders {
			return
		}
	}
	k.last[pk] = slot
}

// known reports whether pk had a bid stored within the window before slot.
func (k *knownBuilders) known(pk beacon.BLSPubkey, slot uint64) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, ok := k.last[pk]
	return ok && slot <= s+k.window
}

// KnownBuilder reports whether builder pk had a bid verified and stored by
// this relay within the last KnownBuilderSlots slots before slot. The
// listener lets the submissions of such builders, once their signature
// verified, draw on a share of the body budget that others cannot fill.
func (r *Relay) KnownBuilder(pk beacon.BLSPubkey, slot uint64) bool {
	return r.knownBuilders.known(pk, slot)
}

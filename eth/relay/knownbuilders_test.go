package relay

import (
	"encoding/binary"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

// TestKnownBuildersWindowAndBound: a builder is known for the window after
// its latest stored bid and not after; when the map is full, builders past
// their window make room and a new one is not added while none is.
func TestKnownBuildersWindowAndBound(t *testing.T) {
	k := newKnownBuilders(KnownBuilderSlots)
	pk := func(i int) (p beacon.BLSPubkey) { binary.BigEndian.PutUint64(p[:], uint64(i)); return p }
	k.add(pk(0), 10)
	k.add(pk(0), 5) // an older slot does not move the window back
	if !k.known(pk(0), 10+KnownBuilderSlots) || k.known(pk(0), 11+KnownBuilderSlots) || k.known(pk(1), 10) {
		t.Fatal("window: want pk 0 known through slot 74 only, pk 1 never")
	}
	for i := 1; i < maxKnownBuilders; i++ {
		k.add(pk(i), 20)
	}
	k.add(pk(-1), 30) // full, every entry in its window
	if k.known(pk(-1), 30) || len(k.last) != maxKnownBuilders {
		t.Fatalf("a builder added to a full map of builders in their window (%d entries)", len(k.last))
	}
	k.add(pk(-1), 20+KnownBuilderSlots+1) // pk 0 (slot 10) and the rest (20) have expired
	if !k.known(pk(-1), 20+KnownBuilderSlots+1) || len(k.last) != 1 {
		t.Fatalf("expired builders not pruned when full: %d entries", len(k.last))
	}
}

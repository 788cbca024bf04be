package params

import "testing"

func TestSlotClock(t *testing.T) {
	c := SlotClock{GenesisTime: 976, SecondsPerSlot: 12}
	for _, tc := range []struct{ t, slot uint64 }{{900, 0}, {975, 0}, {976, 0}, {987, 0}, {988, 1}, {1000, 2}} {
		if got := c.SlotAt(tc.t); got != tc.slot {
			t.Errorf("SlotAt(%d) = %d, want %d", tc.t, got, tc.slot)
		}
	}
	if got := c.SlotTime(2); got != 1000 {
		t.Fatalf("SlotTime(2) = %d, want 1000", got)
	}
	if got := (SlotClock{GenesisTime: 5}).SlotAt(100); got != 0 {
		t.Fatalf("no slot length: slot %d, want 0", got)
	}
}

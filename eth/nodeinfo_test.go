package eth

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNodeInfoCurrentSlotZero: mev_nodeInfo has currentSlot as soon as the
// node has a slot clock, slot 0 included; without a clock it has none.
func TestNodeInfoCurrentSlotZero(t *testing.T) {
	b, _ := json.Marshal(Info{ChainID: 1337, Dev: true, SlotSeconds: 2, GenesisTime: 100})
	if !strings.Contains(string(b), `"currentSlot":0`) || !strings.Contains(string(b), `"slotSeconds":2`) {
		t.Fatalf("slot 0 with a clock: %s", b)
	}
	b, _ = json.Marshal(Info{ChainID: 1, CurrentSlot: 0})
	if strings.Contains(string(b), "currentSlot") {
		t.Fatalf("no slot clock: %s", b)
	}
	b, _ = json.Marshal(Info{SlotSeconds: 12, CurrentSlot: 7})
	if strings.Count(string(b), "currentSlot") != 1 || !strings.Contains(string(b), `"currentSlot":7`) {
		t.Fatalf("slot 7: %s", b)
	}
}

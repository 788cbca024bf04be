package betapool

import "time"

// SlotClock returns a slot source for a beacon chain that started at
// genesisTime (unix seconds) with secondsPerSlot: slot 0 until genesis, then
// (now - genesis) / secondsPerSlot. Real networks use it with their beacon
// genesis time; --dev uses the dev slot driver's own counter instead.
func SlotClock(genesisTime, secondsPerSlot uint64, now func() time.Time) func() uint64 {
	if now == nil {
		now = time.Now
	}
	return func() uint64 {
		t := now().Unix()
		if secondsPerSlot == 0 || t < 0 || uint64(t) < genesisTime {
			return 0
		}
		return (uint64(t) - genesisTime) / secondsPerSlot
	}
}

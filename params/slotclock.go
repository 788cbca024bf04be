package params

import "time"

// SlotClock maps unix time to beacon slots: slot 0 starts at GenesisTime and
// every slot lasts SecondsPerSlot. The relay, the dev slot driver and the
// beta-bundle pool all count slots with it.
type SlotClock struct {
	GenesisTime    uint64
	SecondsPerSlot uint64
}

// SlotTime returns the unix time in seconds at which slot starts. An
// execution payload for slot must carry exactly this timestamp.
func (c SlotClock) SlotTime(slot uint64) uint64 {
	return c.GenesisTime + slot*c.SecondsPerSlot
}

// SlotAt returns the slot in progress at unix time t (0 before genesis).
func (c SlotClock) SlotAt(t uint64) uint64 {
	if t < c.GenesisTime || c.SecondsPerSlot == 0 {
		return 0
	}
	return (t - c.GenesisTime) / c.SecondsPerSlot
}

// Now returns the slot in progress on the wall clock.
func (c SlotClock) Now() uint64 {
	t := time.Now().Unix()
	if t < 0 {
		return 0
	}
	return c.SlotAt(uint64(t))
}

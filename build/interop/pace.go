package main

import "time"

// pollPhase is where in each slot the run's loop wakes up: it sends the
// slot's transfer then. Lodestar sends its forkchoiceUpdated with the next
// slot's attributes 0.3 to 0.7 s before that slot, and the builder bids only
// with something to pay; a transfer sent half a second into the slot is in
// the mempool by then. Polling every second from whenever the loop started
// drifted against the slots, and in runs where it sent the transfer just
// after a slot began, the builder's block came after Lodestar's getHeader
// (204, no bid).
const pollPhase = 500 * time.Millisecond

// untilPoll is how long to sleep until the next slot's poll.
func untilPoll(genesisTime int64, slotSeconds int64, now time.Time) time.Duration {
	slot := time.Duration(slotSeconds) * time.Second
	since := now.Sub(time.Unix(genesisTime, 0))
	if since < 0 {
		return -since + pollPhase
	}
	next := (since/slot)*slot + pollPhase
	if next <= since {
		next += slot
	}
	return next - since
}

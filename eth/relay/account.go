package relay

import "context"

// BetaDue reports whether a hash paid for slot on the L2 is a bundle sent
// to this node for the slot: whether the slot's block owed a beta part
// (false without beta). Paid hashes no pooled bundle has do not count, so a
// winner cannot make a slot owe a beta part by paying an unknown hash.
func (r *Relay) BetaDue(ctx context.Context, slot uint64) (bool, error) {
	if r.cfg.Beta == nil {
		return false, nil
	}
	return r.cfg.Beta.PaidPooled(ctx, slot)
}

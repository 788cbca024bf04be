package eth

import (
	"context"

	"github.com/gavel-eth/gavel/internal/store"
)

// StoreOf returns the node's database, so tests can make it fail.
func StoreOf(n *Node) store.Store { return n.store }

// FlushTraces writes the queued bid traces now, so a test can read them.
func (s *RelayService) FlushTraces(ctx context.Context) error { return s.traces.Flush(ctx) }

package eth

import "github.com/gavel-eth/gavel/internal/store"

// StoreOf returns the node's database, so tests can make it fail.
func StoreOf(n *Node) store.Store { return n.store }

package eth_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/internal/testnode"
)

// recordHandler keeps the messages logged at WARN and above.
type recordHandler struct {
	mu   *sync.Mutex
	msgs *[]string
}

func (h recordHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	*h.msgs = append(*h.msgs, r.Level.String()+" "+r.Message)
	return nil
}
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordHandler) WithGroup(string) slog.Handler      { return h }

// TestDevSlotsLogNoWarning: a dev node's slots, each delivered through the
// relay and imported twice on purpose (publish, then the proposer's own
// import), log no warning about it, and an L2 without the auction
// contracts is warned about once, not every slot.
func TestDevSlotsLogNoWarning(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	var mu sync.Mutex
	var msgs []string
	log.SetDefault(log.NewLogger(recordHandler{&mu, &msgs}))
	defer log.SetDefault(log.NewLogger(log.DiscardHandler()))
	for range 3 {
		n.Step()
	}
	mu.Lock()
	defer mu.Unlock()
	noCode := 0
	for _, m := range msgs {
		if strings.Contains(m, "already known") {
			t.Fatalf("logged %q", m)
		}
		if strings.Contains(m, "L2") {
			noCode++
		}
	}
	// The test node deploys no auction contracts: the settlement reader
	// says so once, not every slot.
	if noCode > 1 {
		t.Fatalf("%d L2 warnings over 3 slots without contracts, want at most one: %q", noCode, msgs)
	}
}

package eth_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// proposerHook is the dev proposer's transport to the relay: it passes
// requests through to the real relay over loopback, except where a test
// sets a hook for getHeader or getPayload.
type proposerHook struct {
	base http.RoundTripper

	mu       sync.Mutex
	header   func(*http.Request) (*http.Response, error)
	payload  func(*http.Request) (*http.Response, error)
	payloads int // getPayload calls seen
}

func (h *proposerHook) RoundTrip(req *http.Request) (*http.Response, error) {
	h.mu.Lock()
	header, payload := h.header, h.payload
	if strings.HasPrefix(req.URL.Path, "/eth/v1/builder/blinded_blocks") {
		h.payloads++
	}
	h.mu.Unlock()
	switch {
	case header != nil && strings.HasPrefix(req.URL.Path, "/eth/v1/builder/header/"):
		return header(req)
	case payload != nil && strings.HasPrefix(req.URL.Path, "/eth/v1/builder/blinded_blocks"):
		return payload(req)
	}
	return h.base.RoundTrip(req)
}

// set replaces the hooks (nil: pass through) and resets the count.
func (h *proposerHook) set(header, payload func(*http.Request) (*http.Response, error)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.header, h.payload, h.payloads = header, payload, 0
}

func (h *proposerHook) getPayloads() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.payloads
}

// hookedDevNode is a dev node whose proposer talks to the relay through the
// returned hook.
func hookedDevNode(t *testing.T) (*testnode.Node, *proposerHook) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(base.CloseIdleConnections)
	hook := &proposerHook{base: base}
	n := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, g *eth.Config) {
		g.Dev.ProposerClient = &http.Client{Transport: hook}
	}})
	n.Step() // the validators register; the relay path works
	return n, hook
}

// deliveredAt lists the block hashes the relay's data API says it delivered
// for slot.
func deliveredAt(t *testing.T, n *testnode.Node, slot uint64) []common.Hash {
	t.Helper()
	var rows []struct {
		BlockHash common.Hash `json:"block_hash"`
	}
	url := n.MEVURL() + "/relay/v1/data/bidtraces/proposer_payload_delivered?slot=" + strconv.FormatUint(slot, 10)
	if code := getJSON(t, url, &rows); code != http.StatusOK {
		t.Fatalf("proposer_payload_delivered: %d", code)
	}
	var out []common.Hash
	for _, r := range rows {
		out = append(out, r.BlockHash)
	}
	return out
}

// TestDevProposerLateGetPayload: getPayload's answer arrives after the
// slot's context has ended (a loaded machine). The proposer had signed the
// blinded block and the relay had published the builder's block, so the
// slot's block is the builder's: no local block replaces it, and the block
// the relay reports delivered is the one the chain holds.
func TestDevProposerLateGetPayload(t *testing.T) {
	n, hook := hookedDevNode(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hook.set(nil, func(req *http.Request) (*http.Response, error) {
		if _, ok := req.Context().Deadline(); !ok {
			t.Error("getPayload sent without a deadline")
		}
		// The relay gets the signed block and answers; the answer
		// reaches the proposer only after the slot's context ended.
		res, err := hook.base.RoundTrip(req.WithContext(context.WithoutCancel(req.Context())))
		if err != nil {
			return nil, err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		cancel()
		if err := req.Context().Err(); err != nil {
			return nil, err // what a transport answers on an ended context
		}
		res.Body = io.NopCloser(bytes.NewReader(body))
		return res, nil
	})
	parent := n.Chain().Head()
	head, err := n.Beacon().Step(ctx)
	if err != nil {
		t.Fatalf("slot with a late getPayload answer: %v", err)
	}
	if hook.getPayloads() != 1 {
		t.Fatalf("%d getPayload calls, want 1", hook.getPayloads())
	}
	if head.ParentHash != parent.Hash() || head.Coinbase != eth.DevBuilderCoinbase() {
		t.Fatalf("slot block %s (coinbase %s, parent %s): want the dev builder's block on %s",
			head.Hash(), head.Coinbase, head.ParentHash, parent.Hash())
	}
	if now := n.Chain().Head(); now.Hash() != head.Hash() {
		t.Fatalf("chain head %s, want the slot's block %s", now.Hash(), head.Hash())
	}
	slot := n.Beacon().SlotAt(head.Time)
	if got := deliveredAt(t, n, slot); len(got) != 1 || got[0] != head.Hash() {
		t.Fatalf("relay delivered %v for slot %d, chain holds %s", got, slot, head.Hash())
	}
}

// TestDevProposerNoFallbackAfterSigning: getPayload fails after the blinded
// block was signed. The slot is missed (ErrSignedBlinded): a local block
// would be a second signed block for the slot. The next slot goes through
// the relay again.
func TestDevProposerNoFallbackAfterSigning(t *testing.T) {
	n, hook := hookedDevNode(t)
	hook.set(nil, func(*http.Request) (*http.Response, error) {
		return nil, errors.New("relay unreachable")
	})
	parent := n.Chain().Head()
	if _, err := n.Beacon().Step(context.Background()); !errors.Is(err, devbeacon.ErrSignedBlinded) {
		t.Fatalf("slot with a failed getPayload: err %v, want ErrSignedBlinded", err)
	}
	if hook.getPayloads() != 1 {
		t.Fatalf("%d getPayload calls, want 1", hook.getPayloads())
	}
	if head := n.Chain().Head(); head.Hash() != parent.Hash() {
		t.Fatalf("head moved to %s (coinbase %s) after a signed blinded block without payload", head.Hash(), head.Coinbase)
	}

	hook.set(nil, nil)
	head := n.Step()
	if head.ParentHash != parent.Hash() || head.Coinbase != eth.DevBuilderCoinbase() {
		t.Fatalf("next slot's block has coinbase %s, want the dev builder's", head.Coinbase)
	}
}

// TestDevProposerFallbackWithoutHeader: getHeader fails, nothing is signed,
// so the slot gets the local block (paying the slot's validator) and the
// relay delivers nothing for it.
func TestDevProposerFallbackWithoutHeader(t *testing.T) {
	n, hook := hookedDevNode(t)
	hook.set(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Body: io.NopCloser(strings.NewReader("busy")), Header: http.Header{}}, nil
	}, nil)
	parent := n.Chain().Head()
	head := n.Step()
	slot := n.Beacon().SlotAt(head.Time)
	vals, _ := devbeacon.DevValidators(devbeacon.DefaultValidators)
	if head.ParentHash != parent.Hash() || head.Coinbase != devbeacon.ProposerOf(vals, slot).FeeRecipient {
		t.Fatalf("slot %d block has coinbase %s, want the local block paying the validator", slot, head.Coinbase)
	}
	if hook.getPayloads() != 0 {
		t.Fatalf("%d getPayload calls without a header", hook.getPayloads())
	}
	if got := deliveredAt(t, n, slot); len(got) != 0 {
		t.Fatalf("relay delivered %v for a slot without getHeader", got)
	}
}

// TestDevProposerAnswerLostAfterPublish: the relay published the builder's
// block, then its getPayload answer was lost. The slot is not missed: the
// chain holds the slot's block, and the driver reports it as the slot's.
func TestDevProposerAnswerLostAfterPublish(t *testing.T) {
	n, hook := hookedDevNode(t)
	hook.set(nil, func(req *http.Request) (*http.Response, error) {
		res, err := hook.base.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return nil, errors.New("connection reset")
	})
	parent := n.Chain().Head()
	head, err := n.Beacon().Step(context.Background())
	if err != nil {
		t.Fatalf("slot whose block the relay published: %v", err)
	}
	if head.ParentHash != parent.Hash() || head.Coinbase != eth.DevBuilderCoinbase() {
		t.Fatalf("slot block has coinbase %s, want the dev builder's", head.Coinbase)
	}
	slot := n.Beacon().SlotAt(head.Time)
	if got := deliveredAt(t, n, slot); len(got) != 1 || got[0] != head.Hash() {
		t.Fatalf("relay delivered %v for slot %d, driver reports %s", got, slot, head.Hash())
	}
}

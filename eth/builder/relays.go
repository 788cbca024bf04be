package builder

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/httpc"
)

// ErrNotAccepted is returned when a relay answered but did not take the
// bid (below its floor, or dropped as worthless).
var ErrNotAccepted = errors.New("relay did not take the bid")

// LocalRelay is the in-process relay: proposers from its validators list,
// submissions straight into its checks, no HTTP.
type LocalRelay struct{ R *relay.Relay }

// Name implements Relay.
func (l LocalRelay) Name() string { return "in-process" }

// Proposer implements Relay: the slot's entry of the relay's validators
// list (a registered proposer of the current or next epoch).
func (l LocalRelay) Proposer(_ context.Context, slot uint64) (Proposer, bool, error) {
	for _, d := range l.R.Validators() {
		if d.Slot == slot {
			m := d.Entry.Message
			return Proposer{Pubkey: m.Pubkey, FeeRecipient: common.Address(m.FeeRecipient), GasLimit: m.GasLimit, BetaGas: d.BetaGas}, true, nil
		}
	}
	return Proposer{}, false, nil
}

// ExpectBid implements bidAnnouncer: the relay's getHeader for slot and
// parent waits for this builder's bid until ended is called.
func (l LocalRelay) ExpectBid(slot uint64, parent common.Hash) (ended func()) {
	return l.R.ExpectBid(slot, parent)
}

// Submit implements Relay.
func (l LocalRelay) Submit(ctx context.Context, sub *beacon.Submission) error {
	out, err := l.R.Submit(ctx, relay.SubmitRequest{Submission: sub, ReceivedAt: time.Now()})
	if err != nil {
		return err
	}
	switch out {
	case relay.BelowFloor:
		return fmt.Errorf("%w: below the auction's floor", ErrNotAccepted)
	case relay.Dropped:
		return fmt.Errorf("%w: zero value or no transactions", ErrNotAccepted)
	}
	return nil
}

// HTTPRelay is an external relay reached over the builder-specs HTTP API:
// GET /relay/v1/builder/validators for the proposers, POST
// /relay/v1/builder/blocks for submissions (SSZ+gzip; JSON once the relay
// refused SSZ).
type HTTPRelay struct {
	url    func() string
	client *http.Client

	mu        sync.Mutex
	proposers map[uint64]Proposer
	fetched   uint64        // slot the list was last fetched for (+1; 0: never)
	fetching  chan struct{} // closed when the fetch in flight ends (nil: none)
	jsonOnly  atomic.Bool
}

// NewHTTPRelay returns the relay at base URL url (scheme, host, port).
func NewHTTPRelay(url string, client *http.Client) *HTTPRelay {
	return NewHTTPRelayFunc(func() string { return url }, client)
}

// NewHTTPRelayFunc is NewHTTPRelay with the URL known only later (the
// node's own MEV listener, once it listens).
func NewHTTPRelayFunc(url func() string, client *http.Client) *HTTPRelay {
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	return &HTTPRelay{url: url, client: client}
}

// Name implements Relay.
func (h *HTTPRelay) Name() string { return strings.TrimRight(h.url(), "/") }

// validatorsEntry is one item of GET /relay/v1/builder/validators.
type validatorsEntry struct {
	Slot  string          `json:"slot"`
	Entry json.RawMessage `json:"entry"`
	// BetaGas is gavel's extension: the gas the relay keeps for the slot's
	// beta block (absent from other relays' lists).
	BetaGas string `json:"beta_gas,omitempty"`
}

// Proposer implements Relay: the relay's validators list, fetched again at
// most once per slot when the slot is not in it. The fetch runs without
// the lock (it may take the client's whole timeout), so a caller asking
// for a slot already known never waits for it; callers missing a slot wait
// for the one fetch in flight instead of sending their own.
func (h *HTTPRelay) Proposer(ctx context.Context, slot uint64) (Proposer, bool, error) {
	for {
		h.mu.Lock()
		if p, ok := h.proposers[slot]; ok {
			h.mu.Unlock()
			return p, true, nil
		}
		if h.fetched == slot+1 {
			h.mu.Unlock()
			return Proposer{}, false, nil
		}
		if wait := h.fetching; wait != nil {
			h.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return Proposer{}, false, ctx.Err()
			}
		}
		done := make(chan struct{})
		h.fetching = done
		h.mu.Unlock()

		proposers, err := h.fetchValidators(ctx)
		h.mu.Lock()
		h.fetching = nil
		close(done)
		if err == nil {
			h.proposers, h.fetched = proposers, slot+1
		}
		h.mu.Unlock()
		if err != nil {
			return Proposer{}, false, err
		}
		p, ok := proposers[slot]
		return p, ok, nil
	}
}

// fetchValidators reads the relay's validators list.
func (h *HTTPRelay) fetchValidators(ctx context.Context) (map[uint64]Proposer, error) {
	status, body, err := h.do(ctx, http.MethodGet, "/relay/v1/builder/validators", nil, map[string]string{"Accept": "application/json"})
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("validators: %d %s", status, body)
	}
	return parseValidators(body)
}

// parseValidators decodes a relay's GET /relay/v1/builder/validators answer
// into the registered proposer of each slot.
func parseValidators(body []byte) (map[uint64]Proposer, error) {
	var list []validatorsEntry
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("validators answer: %w", err)
	}
	entries := make([]json.RawMessage, len(list))
	for i, e := range list {
		entries[i] = e.Entry
	}
	raw, err := json.Marshal(entries)
	if err != nil {
		return nil, fmt.Errorf("validators answer: %w", err)
	}
	regs, err := beacon.DecodeRegistrationsJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("validators answer: %w", err)
	}
	if len(regs) != len(list) {
		return nil, fmt.Errorf("validators answer: %d entries, %d registrations", len(list), len(regs))
	}
	out := make(map[uint64]Proposer, len(list))
	for i, e := range list {
		s, err := strconv.ParseUint(e.Slot, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("validators answer: slot %q: %w", e.Slot, err)
		}
		var betaGas uint64
		if e.BetaGas != "" {
			if betaGas, err = strconv.ParseUint(e.BetaGas, 10, 64); err != nil {
				return nil, fmt.Errorf("validators answer: slot %s: beta_gas %q: expected a decimal gas amount", e.Slot, e.BetaGas)
			}
		}
		m := regs[i].Message
		out[s] = Proposer{Pubkey: m.Pubkey, FeeRecipient: common.Address(m.FeeRecipient), GasLimit: m.GasLimit, BetaGas: betaGas}
	}
	return out, nil
}

// Submit implements Relay: SSZ+gzip, or JSON when the relay does not take
// SSZ (415, or a 400 that could not decode it).
func (h *HTTPRelay) Submit(ctx context.Context, sub *beacon.Submission) error {
	if !h.jsonOnly.Load() {
		raw, err := sub.MarshalSSZ()
		if err != nil {
			return err
		}
		var zbuf bytes.Buffer
		zw := gzip.NewWriter(&zbuf)
		zw.Write(raw)
		zw.Close()
		status, body, err := h.do(ctx, http.MethodPost, "/relay/v1/builder/blocks", zbuf.Bytes(), map[string]string{
			"Content-Type": "application/octet-stream", "Content-Encoding": "gzip", "Eth-Consensus-Version": sub.Fork.String(),
		})
		if err != nil {
			return err
		}
		if !refusesSSZ(status, body) {
			return submitStatus(status, body)
		}
		h.jsonOnly.Store(true)
	}
	// The signature first: a relay can tell who sent it from the first
	// bytes (gavel's relay then lets a builder it knows use its reserved
	// share of the body budget).
	raw, err := sub.MarshalJSONSignatureFirst()
	if err != nil {
		return err
	}
	status, body, err := h.do(ctx, http.MethodPost, "/relay/v1/builder/blocks", raw, map[string]string{
		"Content-Type": "application/json", "Eth-Consensus-Version": sub.Fork.String(),
	})
	if err != nil {
		return err
	}
	return submitStatus(status, body)
}

// refusesSSZ tells a relay that does not take SSZ submissions.
func refusesSSZ(status int, body []byte) bool {
	if status == http.StatusUnsupportedMediaType {
		return true
	}
	msg := strings.ToLower(string(body))
	return status == http.StatusBadRequest && (strings.Contains(msg, "ssz") || strings.Contains(msg, "decode") || strings.Contains(msg, "unmarshal"))
}

// submitStatus maps a submission's answer to an error.
func submitStatus(status int, body []byte) error {
	switch status {
	case http.StatusOK, http.StatusNoContent:
		return nil
	case http.StatusAccepted:
		return fmt.Errorf("%w: %s", ErrNotAccepted, bytes.TrimSpace(body))
	}
	return fmt.Errorf("relay answered %d %s", status, bytes.TrimSpace(body))
}

// do sends one request and returns the status and body (at most 16 MiB).
func (h *HTTPRelay) do(ctx context.Context, method, path string, body []byte, header map[string]string) (int, []byte, error) {
	return httpc.Do(ctx, h.client, method, strings.TrimRight(h.url(), "/")+path, body, header, 16<<20)
}

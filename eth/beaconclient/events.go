package beaconclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/gavel-eth/gavel/params"
)

// Event topics the client follows.
const (
	TopicHead              = "head"
	TopicPayloadAttributes = "payload_attributes"
)

var (
	eventsMeter        = metrics.NewRegisteredMeter("gavel/beacon/events", nil)
	badEventsMeter     = metrics.NewRegisteredMeter("gavel/beacon/events/bad", nil)
	streamRestartMeter = metrics.NewRegisteredMeter("gavel/beacon/events/restarts", nil)
)

// errStreamEnded is returned when a node closes an event stream cleanly.
var errStreamEnded = errors.New("event stream ended")

// readEvents reads one node's server-sent event stream, calling fn for each
// complete event, until the stream ends, fails or fn fails. An event (or a
// line) larger than MaxEventBytes ends the stream with ErrBadResponse.
func readEvents(sc *bufio.Scanner, fn func(event string, data []byte) error) error {
	var event string
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0: // dispatch
			if data != nil {
				if event == "" {
					event = "message"
				}
				if err := fn(event, data); err != nil {
					return err
				}
			}
			event, data = "", nil
		case line[0] == ':': // comment, keep-alive
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "event":
				event = string(value)
			case "data":
				if len(data)+len(value) > MaxEventBytes {
					return fmt.Errorf("%w: event larger than %d bytes", ErrBadResponse, MaxEventBytes)
				}
				if data != nil {
					data = append(data, '\n')
				}
				data = append(data, value...)
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%w: event line larger than %d bytes", ErrBadResponse, MaxEventBytes)
		}
		return err
	}
	return errStreamEnded
}

// stream opens topic on node and reads it until it ends.
// opened reports whether the node answered 200 (and then ended the stream).
func (c *Client) stream(ctx context.Context, node *url.URL, topic string, fn func(data []byte) error) (opened bool, err error) {
	resp, err := c.do(ctx, node, http.MethodGet, PathEvents, url.Values{"topics": {topic}}, http.Header{"Accept": {"text/event-stream"}}, nil)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), MaxEventBytes+64)
	return true, readEvents(sc, func(event string, data []byte) error {
		if event != topic {
			return nil
		}
		return fn(data)
	})
}

// refusedAfter is how many streams in a row a node may open and end without
// an event before its topic counts as refused: Lodestar 1.5 answers 200 to
// an unknown topic and then drops the stream.
const refusedAfter = 3

// follow keeps topic open on every node until ctx ends, re-opening a
// dropped stream after a pause that doubles up to MaxRetryDelay. handle
// gets each event's data; it must be safe for concurrent use by the
// per-node goroutines. A node's malformed event is logged and skipped.
func (c *Client) follow(ctx context.Context, topic string, handle func(node string, data []byte) error) {
	var wg sync.WaitGroup
	for _, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			delay := c.opts.RetryDelay
			refused := false
			empty := 0 // streams in a row opened and ended without an event
			for ctx.Err() == nil {
				got := false
				opened, err := c.stream(ctx, n, topic, func(data []byte) error {
					got = true
					eventsMeter.Mark(1)
					if err := handle(n.Redacted(), data); err != nil {
						badEventsMeter.Mark(1)
						log.Warn("Malformed beacon event", "node", n.Redacted(), "topic", topic, "err", err)
					}
					return nil
				})
				if ctx.Err() != nil {
					return
				}
				switch {
				case got:
					delay, refused, empty = c.opts.RetryDelay, false, 0
				case opened:
					empty++
				default:
					empty = 0
				}
				streamRestartMeter.Mark(1)
				var apiErr *APIError
				switch {
				case (errors.As(err, &apiErr) && apiErr.Status/100 == 4) || empty >= refusedAfter:
					// The node does not serve the topic (Lodestar 1.5
					// has no payload_attributes): ask again rarely, quietly.
					if !refused {
						log.Warn("Beacon node does not serve this event topic; asking again every "+c.opts.RefusedTopicDelay.String(), "node", n.Redacted(), "topic", topic, "err", err)
					}
					refused, delay = true, c.opts.RefusedTopicDelay
				case refused:
					delay = c.opts.RefusedTopicDelay
				default:
					log.Warn("Beacon event stream dropped, re-opening", "node", n.Redacted(), "topic", topic, "in", delay, "err", err)
				}
				t := time.NewTimer(delay)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
				if !refused {
					delay = min(2*delay, c.opts.MaxRetryDelay)
				}
			}
		}()
	}
	wg.Wait()
}

// ParseHeadEvent decodes the data of a head event.
func ParseHeadEvent(data []byte) (*HeadEvent, error) {
	var h headJSON
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("%w: head event: %v", ErrBadResponse, err)
	}
	if h.Slot == nil || h.Block == nil {
		return nil, missing("head event slot or block")
	}
	return &HeadEvent{
		Slot: uint64(*h.Slot), Block: *h.Block, State: h.State, EpochTransition: h.EpochTransition,
		CurrentDutyDependentRoot: h.CurrentDutyDependentRoot, PreviousDutyDependentRoot: h.PreviousDutyDependentRoot,
		ExecutionOptimistic: h.ExecutionOptimistic,
	}, nil
}

// ParsePayloadAttributesEvent decodes the data of a payload_attributes event.
func ParsePayloadAttributesEvent(data []byte) (*PayloadAttributesEvent, error) {
	var p payloadAttributesJSON
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("%w: payload_attributes event: %v", ErrBadResponse, err)
	}
	fork, err := params.ParseConsensusFork(p.Version)
	if err != nil {
		return nil, fmt.Errorf("%w: payload_attributes event version: %v", ErrBadResponse, err)
	}
	d := p.Data
	a := d.PayloadAttributes
	switch {
	case d.ProposalSlot == nil:
		return nil, missing("data.proposal_slot")
	case d.ParentBlockHash == nil:
		return nil, missing("data.parent_block_hash")
	case d.ProposerIndex == nil:
		return nil, missing("data.proposer_index")
	case a == nil || a.Timestamp == nil || a.PrevRandao == nil:
		return nil, missing("data.payload_attributes timestamp or prev_randao")
	case fork >= params.ForkCapella && a.Withdrawals == nil:
		return nil, missing("data.payload_attributes.withdrawals (" + fork.String() + ")")
	case fork >= params.ForkDeneb && a.ParentBeaconBlockRoot == nil:
		return nil, missing("data.payload_attributes.parent_beacon_block_root (" + fork.String() + ")")
	}
	ev := &PayloadAttributesEvent{
		Version: fork, ProposerIndex: uint64(*d.ProposerIndex), ProposalSlot: uint64(*d.ProposalSlot),
		ParentBlockNumber: uint64(d.ParentBlockNumber), ParentBlockRoot: d.ParentBlockRoot, ParentBlockHash: *d.ParentBlockHash,
		Timestamp: uint64(*a.Timestamp), PrevRandao: *a.PrevRandao, SuggestedFeeRecipient: a.SuggestedFeeRecipient,
		Withdrawals: a.Withdrawals,
	}
	if a.ParentBeaconBlockRoot != nil {
		ev.ParentBeaconBlockRoot = *a.ParentBeaconBlockRoot
	}
	return ev, nil
}

// FollowHead calls fn for every new head slot reported by any node, until
// ctx ends. Each slot is delivered once, in increasing order, whichever
// node reports it first; fn is never called concurrently.
func (c *Client) FollowHead(ctx context.Context, fn func(HeadEvent)) {
	var mu sync.Mutex
	var last uint64
	seen := false
	c.follow(ctx, TopicHead, func(_ string, data []byte) error {
		h, err := ParseHeadEvent(data)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if seen && h.Slot <= last {
			return nil
		}
		last, seen = h.Slot, true
		fn(*h)
		return nil
	})
}

// attrsKeep is how many slots of payload_attributes keys are remembered for
// de-duplication.
const attrsKeep = 64

// FollowPayloadAttributes calls fn for every payload_attributes event of
// any node, until ctx ends. Each (proposal slot, parent block hash) is
// delivered once; fn is never called concurrently.
func (c *Client) FollowPayloadAttributes(ctx context.Context, fn func(PayloadAttributesEvent)) {
	type key struct {
		slot   uint64
		parent [32]byte
	}
	var mu sync.Mutex
	seen := map[key]bool{}
	var high uint64
	c.follow(ctx, TopicPayloadAttributes, func(_ string, data []byte) error {
		ev, err := ParsePayloadAttributesEvent(data)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		k := key{ev.ProposalSlot, ev.ParentBlockHash}
		if seen[k] || (high > attrsKeep && ev.ProposalSlot < high-attrsKeep) {
			return nil
		}
		seen[k] = true
		if ev.ProposalSlot > high {
			high = ev.ProposalSlot
			for k := range seen {
				if high > attrsKeep && k.slot < high-attrsKeep {
					delete(seen, k)
				}
			}
		}
		fn(*ev)
		return nil
	})
}

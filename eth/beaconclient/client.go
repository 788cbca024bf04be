// Package beaconclient is the relay's client for the standard Beacon Node
// API on real networks: genesis, fork schedule and spec, sync status,
// proposer duties, known validators, head and payload_attributes events
// (server-sent events), and block publishing. It talks to one or more
// beacon nodes (--relay.beacon URL[,URL]): reads fail over from node to
// node, event streams are followed on every node and de-duplicated, and
// blocks are published to all nodes at once.
//
// The package only speaks HTTP and decodes; what the relay does with
// duties, validators and attributes is eth/relay's business (Follower hands
// them over through callbacks).
package beaconclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
)

var (
	requestErrorMeter = metrics.NewRegisteredMeter("gavel/beacon/errors", nil)
	failoverMeter     = metrics.NewRegisteredMeter("gavel/beacon/failover", nil)
)

// Sentinel errors; every error of this package wraps one of them.
var (
	// ErrNoNodes: New was given no usable URL.
	ErrNoNodes = errors.New("no beacon node URL")
	// ErrBadURL: a beacon node URL is not an absolute http(s) URL.
	ErrBadURL = errors.New("invalid beacon node URL")
	// ErrUnavailable: every beacon node failed the request; the error lists why.
	ErrUnavailable = errors.New("no beacon node answered")
	// ErrBadResponse: a beacon node answered with a body that does not decode
	// or is too large.
	ErrBadResponse = errors.New("malformed beacon node response")
	// ErrStatus: a beacon node answered with an error status (see *APIError).
	ErrStatus = errors.New("beacon node error status")
	// ErrMismatch: the beacon node's network differs from the configured one.
	ErrMismatch = errors.New("beacon node is on another network")
	// ErrPreset: a preset value of the beacon node is one gavel has no
	// container shape for (beacon.Spec lists what it supports).
	ErrPreset = beacon.ErrUnsupportedPreset
)

// APIError is a non-2xx answer of a beacon node. It matches ErrStatus.
type APIError struct {
	Node    string // the node's URL (without credentials)
	Status  int    // HTTP status
	Message string // the node's message, if the body had one
}

// Error says which node answered what.
func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("beacon node %s: HTTP %d", e.Node, e.Status)
	}
	return fmt.Sprintf("beacon node %s: HTTP %d: %s", e.Node, e.Status, e.Message)
}

// Is makes *APIError match ErrStatus.
func (e *APIError) Is(target error) bool { return target == ErrStatus }

// Limits on what a beacon node may send.
const (
	// MaxResponseBytes bounds an ordinary JSON answer (genesis, spec, duties).
	MaxResponseBytes = 16 << 20
	// MaxValidatorsBytes bounds the validators list (mainnet's is a few
	// hundred MB); it is decoded as a stream, never held whole.
	MaxValidatorsBytes = 4 << 30
	// MaxEventBytes bounds one server-sent event.
	MaxEventBytes = 1 << 20
)

// Options tune a Client. Zero values take the defaults.
type Options struct {
	// Timeout bounds one request to one node (default 10 s). Event streams
	// and the validators list are not bounded by it.
	Timeout time.Duration
	// ValidatorsTimeout bounds the validators list request (default 120 s).
	ValidatorsTimeout time.Duration
	// RetryDelay is the first pause before re-opening a dropped event
	// stream; it doubles up to MaxRetryDelay (defaults 500 ms and 10 s).
	RetryDelay    time.Duration
	MaxRetryDelay time.Duration
	// RefusedTopicDelay is the pause before asking again for an event topic
	// a node does not serve (default 5 min).
	RefusedTopicDelay time.Duration
	// HTTPClient is the transport (default: a client without overall timeout).
	HTTPClient *http.Client
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.ValidatorsTimeout <= 0 {
		o.ValidatorsTimeout = 120 * time.Second
	}
	if o.RetryDelay <= 0 {
		o.RetryDelay = 500 * time.Millisecond
	}
	if o.MaxRetryDelay < o.RetryDelay {
		o.MaxRetryDelay = max(10*time.Second, o.RetryDelay)
	}
	if o.RefusedTopicDelay <= 0 {
		o.RefusedTopicDelay = 5 * time.Minute
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	return o
}

// Client talks to a set of beacon nodes.
type Client struct {
	nodes []*url.URL
	opts  Options
	// preferred is the index of the node that answered last; reads start
	// there and fail over in order.
	preferred atomic.Int32
}

// New returns a client for the comma-separated or listed beacon node URLs
// (for example "http://localhost:5052,http://10.0.0.2:3500").
func New(urls []string, opts Options) (*Client, error) {
	c := &Client{opts: opts.withDefaults()}
	for _, raw := range urls {
		for _, s := range strings.Split(raw, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return nil, fmt.Errorf("%w: %q, expected http(s)://host[:port][/path]", ErrBadURL, s)
			}
			u.Path = strings.TrimSuffix(u.Path, "/")
			c.nodes = append(c.nodes, u)
		}
	}
	if len(c.nodes) == 0 {
		return nil, ErrNoNodes
	}
	return c, nil
}

// Nodes returns the node URLs (credentials removed), in configured order.
func (c *Client) Nodes() []string {
	out := make([]string, len(c.nodes))
	for i, u := range c.nodes {
		out[i] = u.Redacted()
	}
	return out
}

// endpoint joins the node base URL with an API path and query.
func endpoint(node *url.URL, path string, query url.Values) string {
	u := *node
	u.Path = node.Path + path
	u.RawQuery = query.Encode()
	return u.String()
}

// do runs one request against one node and returns a 2xx answer, whose
// body the caller closes; any other status is an *APIError.
func (c *Client) do(ctx context.Context, node *url.URL, method, path string, query url.Values, hdr http.Header, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, endpoint(node, path, query), rd)
	if err != nil {
		return nil, err
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("beacon node %s: %w", node.Redacted(), err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return nil, apiError(node, resp)
	}
	return resp, nil
}

// apiError reads a beacon node's error answer ({"code":..,"message":..}).
func apiError(node *url.URL, resp *http.Response) error {
	var e struct {
		Message string `json:"message"`
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if json.Unmarshal(b, &e) != nil || e.Message == "" {
		e.Message = strings.TrimSpace(string(b))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
	}
	return &APIError{Node: node.Redacted(), Status: resp.StatusCode, Message: e.Message}
}

// readJSON decodes a JSON body of at most limit bytes into v.
func readJSON(node *url.URL, resp *http.Response, limit int64, v any) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return fmt.Errorf("beacon node %s: reading answer: %w", node.Redacted(), err)
	}
	if int64(len(b)) > limit {
		return fmt.Errorf("%w: %s sent more than %d bytes", ErrBadResponse, node.Redacted(), limit)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrBadResponse, node.Redacted(), err)
	}
	return nil
}

// failover runs f against each node, starting with the preferred one,
// until one succeeds. The node that succeeds becomes the preferred one.
func (c *Client) failover(ctx context.Context, f func(ctx context.Context, node *url.URL) error) error {
	start := int(c.preferred.Load())
	var errs []error
	for i := range c.nodes {
		idx := (start + i) % len(c.nodes)
		err := f(ctx, c.nodes[idx])
		if err == nil {
			c.preferred.Store(int32(idx))
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		errs = append(errs, err)
		requestErrorMeter.Mark(1)
		if i+1 < len(c.nodes) {
			failoverMeter.Mark(1)
		}
	}
	return fmt.Errorf("%w: %w", ErrUnavailable, errors.Join(errs...))
}

// getJSON GETs path from the first node that answers and decodes the
// answer into v (fields of the answer v does not name are ignored).
func (c *Client) getJSON(ctx context.Context, path string, query url.Values, v any) error {
	return c.failover(ctx, func(ctx context.Context, node *url.URL) error {
		ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
		defer cancel()
		resp, err := c.do(ctx, node, http.MethodGet, path, query, nil, nil)
		if err != nil {
			return err
		}
		return readJSON(node, resp, MaxResponseBytes, v)
	})
}

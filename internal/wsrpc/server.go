// Package wsrpc serves a node's JSON-RPC over WebSocket (gavel's --ws)
// with bounds geth's own WebSocket server lacks: open connections,
// subscriptions per connection, a client that stops reading, a request
// header that never ends. Without them 500 connections holding 100 unread
// newHeads subscriptions each took a dev node from 121 to 853 MiB and made
// it miss its slots (issue 25).
package wsrpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/gorilla/websocket"
)

// Defaults of Config.
const (
	// DefaultMaxConns and DefaultMaxSubs bound what one block's newHeads
	// costs: every subscription's notification is encoded and written when
	// the block arrives, all at once; 32 x 16 kept honest answers within
	// 40 ms at p99 under the unread-subscriber flood on two cores (100 x 16
	// did not: docs/security.md).
	DefaultMaxConns     = 32
	DefaultMaxSubs      = 16
	DefaultWriteTimeout = 5 * time.Second
	// DefaultReadLimit is geth's WebSocket message limit.
	DefaultReadLimit = 32 << 20
	// readHeaderTimeout bounds a request header that never ends, as on
	// gavel's other listeners.
	readHeaderTimeout = 2 * time.Second
)

// Errors a client gets; errors.Is-able on the server side.
var (
	// ErrTooManyConns refuses a connection over Config.MaxConns (HTTP 503).
	ErrTooManyConns = errors.New("too many WebSocket connections")
	// ErrTooManySubs refuses a subscription over Config.MaxSubs (JSON-RPC
	// error -32005).
	ErrTooManySubs = errors.New("too many subscriptions on this connection")
)

// limitExceeded is EIP-1474's code for a request over a limit.
const limitExceeded = -32005

// methodNotFound is JSON-RPC's code for a method not served.
const methodNotFound = -32601

// Config bounds and shapes the server.
type Config struct {
	// Modules are the API namespaces served (--ws.api); others answer
	// "method not found", as geth's WebSocket server does.
	Modules []string
	// Origins are the browser origins allowed (--ws.origins, "*" for any);
	// none: http://localhost and this host. A request without an Origin
	// header (not a browser) is always allowed.
	Origins []string
	// MaxConns bounds the open connections (--ws.maxconns): one more is
	// refused with HTTP 503.
	MaxConns int
	// MaxSubs bounds the subscriptions one connection holds at once
	// (--ws.maxsubs): one more is answered with error -32005.
	MaxSubs int
	// WriteTimeout closes a connection whose client has not taken a
	// message in this time (a subscriber that stopped reading): what the
	// server holds for it is then freed.
	WriteTimeout time.Duration
	// ReadLimit is the largest message read.
	ReadLimit int64
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.MaxConns <= 0 {
		c.MaxConns = DefaultMaxConns
	}
	if c.MaxSubs <= 0 {
		c.MaxSubs = DefaultMaxSubs
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = DefaultWriteTimeout
	}
	if c.ReadLimit <= 0 {
		c.ReadLimit = DefaultReadLimit
	}
	return c
}

// Handler serves JSON-RPC over WebSocket from an rpc.Server (a node's
// in-process handler) within Config's bounds.
type Handler struct {
	rpc      *rpc.Server
	cfg      Config
	slots    chan struct{} // one per open connection
	upgrader websocket.Upgrader
}

// NewHandler serves srv's methods of cfg.Modules.
func NewHandler(srv *rpc.Server, cfg Config) *Handler {
	cfg = cfg.withDefaults()
	h := &Handler{rpc: srv, cfg: cfg, slots: make(chan struct{}, cfg.MaxConns)}
	h.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024, CheckOrigin: originCheck(cfg.Origins)}
	return h
}

// ServeHTTP upgrades the request and serves the connection until it ends.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !websocket.IsWebSocketUpgrade(r) {
		http.Error(w, "expected a WebSocket upgrade: this port serves JSON-RPC over WebSocket only (JSON-RPC over HTTP is --http)", http.StatusBadRequest)
		return
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	default:
		http.Error(w, fmt.Sprintf("%v: at most %d (--ws.maxconns); try again later", ErrTooManyConns, h.cfg.MaxConns), http.StatusServiceUnavailable)
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil) // answers a refused origin itself (403)
	if err != nil {
		log.Debug("WebSocket upgrade failed", "err", err)
		return
	}
	ws.SetReadLimit(h.cfg.ReadLimit)
	c := &conn{ws: ws, cfg: &h.cfg, pending: map[string]bool{}, unsub: map[string]bool{}, modules: map[string]bool{}}
	h.rpc.ServeCodec(rpc.NewCodec(c), 0)
}

// Serve serves h on l until l is closed, with a read-header timeout.
func Serve(l net.Listener, h http.Handler) *http.Server {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout}
	go srv.Serve(l)
	return srv
}

// conn is one WebSocket connection as the stream rpc.NewCodec reads and
// writes: each read hands over one message the client sent (after the
// subscription and module checks), each write sends one message.
type conn struct {
	ws  *websocket.Conn
	cfg *Config

	rest []byte // what is left of the message being read

	wmu sync.Mutex // one writer at a time: the codec's or a refusal

	mu      sync.Mutex
	subs    int             // subscriptions held
	pending map[string]bool // ids of eth_subscribe calls not yet answered
	unsub   map[string]bool // ids of eth_unsubscribe calls not yet answered
	modules map[string]bool // ids of rpc_modules calls not yet answered
}

// call is the part of a JSON-RPC request the checks read.
type call struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// Read hands the next message over, reading one from the client when the
// last is used up.
func (c *conn) Read(p []byte) (int, error) {
	for len(c.rest) == 0 {
		_, msg, err := c.ws.ReadMessage()
		if err != nil {
			return 0, err
		}
		pass, refusal := c.admit(msg)
		if refusal != nil {
			if err := c.send(refusal); err != nil {
				return 0, err
			}
		}
		c.rest = pass
	}
	n := copy(p, c.rest)
	c.rest = c.rest[n:]
	return n, nil
}

// admit checks a message's calls: a subscription over the connection's
// bound or a method outside the modules is taken out and answered with
// refusal. pass is what the server is to read (nil when no call is left).
func (c *conn) admit(msg []byte) (pass, refusal []byte) {
	trimmed := bytes.TrimSpace(msg)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	var raws []json.RawMessage
	if batch {
		if json.Unmarshal(trimmed, &raws) != nil {
			return msg, nil // the server answers the parse error
		}
		if len(raws) == 0 {
			return msg, nil // the server answers the empty batch
		}
	} else {
		raws = []json.RawMessage{trimmed}
	}
	var keep []json.RawMessage
	var refused []any
	for _, raw := range raws {
		var cl call
		if json.Unmarshal(raw, &cl) != nil || cl.Method == "" {
			keep = append(keep, raw)
			continue
		}
		if refusal := c.check(cl); refusal != nil {
			refused = append(refused, refusal)
			continue
		}
		keep = append(keep, raw)
	}
	if len(refused) == 0 {
		return msg, nil
	}
	var out any = refused
	if !batch {
		out = refused[0]
	}
	refusal, _ = json.Marshal(out)
	if len(keep) == 0 {
		return nil, refusal
	}
	if !batch {
		return keep[0], refusal
	}
	pass, _ = json.Marshal(keep)
	return pass, refusal
}

// check admits one call, or returns the error answer that refuses it.
func (c *conn) check(cl call) any {
	ns, _, _ := strings.Cut(cl.Method, "_")
	if ns == "engine" || (ns != "rpc" && !slices.Contains(c.cfg.Modules, ns)) {
		return errorAnswer(cl.ID, methodNotFound, fmt.Sprintf("the method %s does not exist/is not available", cl.Method))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	id := string(cl.ID)
	if cl.Method == "rpc_modules" && len(cl.ID) > 0 {
		// The node's handler lists every namespace it has; the answer is
		// cut to the ones served here (Write).
		c.modules[id] = true
		return nil
	}
	if !strings.HasSuffix(cl.Method, "_subscribe") && !strings.HasSuffix(cl.Method, "_unsubscribe") {
		return nil
	}
	if strings.HasSuffix(cl.Method, "_unsubscribe") {
		if len(cl.ID) > 0 {
			c.unsub[id] = true
		}
		return nil
	}
	if c.subs+len(c.pending) >= c.cfg.MaxSubs || len(cl.ID) == 0 {
		return errorAnswer(cl.ID, limitExceeded, fmt.Sprintf("%v: at most %d (--ws.maxsubs); unsubscribe one, or open another connection", ErrTooManySubs, c.cfg.MaxSubs))
	}
	c.pending[id] = true
	return nil
}

func errorAnswer(id json.RawMessage, code int, msg string) any {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}}
}

// answer is the part of a JSON-RPC response the subscription count reads.
type answer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// Write sends one message of the server's; answers to subscribe and
// unsubscribe calls update the connection's count.
func (c *conn) Write(p []byte) (int, error) {
	if err := c.send(c.count(bytes.TrimRight(p, "\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// count reads the answers to the pending subscribe and unsubscribe calls,
// and returns p, or for an answer to rpc_modules the served modules only.
func (c *conn) count(p []byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) == 0 && len(c.unsub) == 0 && len(c.modules) == 0 {
		return p
	}
	var answers []answer
	if t := bytes.TrimSpace(p); len(t) > 0 && t[0] == '[' {
		json.Unmarshal(t, &answers)
	} else {
		var a answer
		if json.Unmarshal(t, &a) == nil {
			answers = []answer{a}
		}
	}
	for _, a := range answers {
		id := string(a.ID)
		ok := len(a.Error) == 0 && len(a.Result) > 0
		if c.modules[id] {
			delete(c.modules, id)
			if ok && len(answers) == 1 {
				p = c.servedModules(a)
			}
		} else if c.pending[id] {
			delete(c.pending, id)
			if ok {
				c.subs++
			}
		} else if c.unsub[id] {
			delete(c.unsub, id)
			if ok && string(a.Result) == "true" && c.subs > 0 {
				c.subs--
			}
		}
	}
	return p
}

// servedModules is an rpc_modules answer cut to the modules served here.
func (c *conn) servedModules(a answer) []byte {
	var all map[string]string
	if json.Unmarshal(a.Result, &all) != nil {
		b, _ := json.Marshal(a)
		return b
	}
	for ns := range all {
		if ns != "rpc" && (ns == "engine" || !slices.Contains(c.cfg.Modules, ns)) {
			delete(all, ns)
		}
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": a.ID, "result": all})
	return b
}

// send writes one message within the write timeout; a client that does
// not take it in time loses the connection (its reads fail, and the
// server ends the connection's subscriptions).
func (c *conn) send(p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(c.cfg.WriteTimeout))
	if err := c.ws.WriteMessage(websocket.TextMessage, p); err != nil {
		c.ws.Close()
		return err
	}
	return nil
}

// SetWriteDeadline is part of rpc.Conn; send sets its own, shorter one.
func (c *conn) SetWriteDeadline(time.Time) error { return nil }

// Close closes the connection (rpc.Conn).
func (c *conn) Close() error { return c.ws.Close() }

// RemoteAddr names the client in the server's logs (rpc.ConnRemoteAddr).
func (c *conn) RemoteAddr() string { return c.ws.RemoteAddr().String() }

var _ io.ReadWriteCloser = (*conn)(nil)

// originCheck allows requests without an Origin header, and browsers from
// origins (any with "*"; none: http://localhost and this host), with
// geth's WebSocket server's rule: a part the allowed origin leaves out
// (scheme, port) matches any.
func originCheck(origins []string) func(*http.Request) bool {
	var rules []string
	for _, o := range origins {
		if o != "" {
			rules = append(rules, strings.ToLower(o))
		}
	}
	if len(rules) == 0 {
		rules = append(rules, "http://localhost")
		if host, err := os.Hostname(); err == nil {
			rules = append(rules, "http://"+strings.ToLower(host))
		}
	}
	return func(r *http.Request) bool {
		if _, ok := r.Header["Origin"]; !ok {
			return true
		}
		origin := r.Header.Get("Origin")
		for _, rule := range rules {
			if rule == "*" || originAllowed(rule, origin) {
				return true
			}
		}
		log.Warn("Rejected WebSocket connection", "origin", origin)
		return false
	}
}

// originAllowed matches a browser's origin against one allowed origin.
func originAllowed(rule, origin string) bool {
	rs, rh, rp, ok1 := splitOrigin(rule)
	bs, bh, bp, ok2 := splitOrigin(origin)
	return ok1 && ok2 && (rs == "" || rs == bs) && (rh == "" || rh == bh) && (rp == "" || rp == bp)
}

// splitOrigin parses scheme://host:port, the scheme optional.
func splitOrigin(o string) (scheme, host, port string, ok bool) {
	o = strings.ToLower(o)
	if !strings.Contains(o, "://") {
		o = "//" + o // host[:port] alone
	}
	u, err := url.Parse(o)
	if err != nil {
		return "", "", "", false
	}
	return u.Scheme, u.Hostname(), u.Port(), true
}

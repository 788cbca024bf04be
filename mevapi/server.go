// Package mevapi is gavel's public face: the MEV listener's HTTP server, on
// which the relay, bundle and beta-bundle APIs mount their routes. Handlers
// here and in the sub-packages parse and encode; the domain packages decide.
package mevapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/internal/defaults"
	"github.com/gavel-eth/gavel/internal/sched"
)

// Defaults of the MEV listener.
const (
	DefaultAddr              = "127.0.0.1:9062"
	DefaultMaxBodyBytes      = 16 << 20 // raw bytes on the wire, before any gzip decoding
	DefaultReadHeaderTimeout = 2 * time.Second
	DefaultReadTimeout       = 10 * time.Second
	DefaultWriteTimeout      = 10 * time.Second
	DefaultIdleTimeout       = 120 * time.Second
	shutdownTimeout          = 5 * time.Second
	// slowHeader is how long a new connection may wait before its first
	// request's header is complete and still keep its place when the
	// listener is full (at most a quarter of the read-header timeout).
	slowHeader = 500 * time.Millisecond
)

// ErrBodyTooLarge is returned by ReadBody when a body exceeds its limit.
var ErrBodyTooLarge = errors.New("request body too large")

// Config configures the MEV listener. The zero value of each field means its
// default.
type Config struct {
	Addr              string        `toml:",omitempty"` // listen address, host:port
	MaxBodyBytes      int64         `toml:",omitempty"` // cap on any request body, before decompression
	ReadHeaderTimeout time.Duration `toml:",omitempty"`
	ReadTimeout       time.Duration `toml:",omitempty"`
	WriteTimeout      time.Duration `toml:",omitempty"`
	IdleTimeout       time.Duration `toml:",omitempty"`

	// Resource budgets (DESIGN.md section 12): request body bytes held in
	// memory at once, in total and per client IP (a reader that would pass
	// them waits up to BudgetWait, then gets 503 or 429); connections open
	// at once, in total and per IP (more are answered 503 and closed); and
	// the minimum rate at which a body must arrive once BodyGrace has
	// passed (slower bodies are cut with 408).
	BodyBudget      int64         `toml:",omitempty"`
	BodyBudgetPerIP int64         `toml:",omitempty"`
	BudgetWait      time.Duration `toml:",omitempty"`
	MaxConns        int           `toml:",omitempty"`
	MaxConnsPerIP   int           `toml:",omitempty"`
	MinBodyRate     int64         `toml:",omitempty"` // bytes per second
	BodyGrace       time.Duration `toml:",omitempty"`
}

func (c Config) withDefaults() Config {
	if c.Addr == "" {
		c.Addr = DefaultAddr
	}
	defaults.Set(&c.MaxBodyBytes, DefaultMaxBodyBytes)
	defaults.Set(&c.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	defaults.Set(&c.ReadTimeout, DefaultReadTimeout)
	defaults.Set(&c.WriteTimeout, DefaultWriteTimeout)
	defaults.Set(&c.IdleTimeout, DefaultIdleTimeout)
	defaults.Set(&c.BodyBudget, DefaultBodyBudget)
	defaults.Set(&c.BodyBudgetPerIP, min(DefaultBodyBudgetPerIP, c.BodyBudget))
	defaults.Set(&c.BudgetWait, DefaultBudgetWait)
	defaults.Set(&c.MaxConns, DefaultMaxConns)
	defaults.Set(&c.MaxConnsPerIP, min(DefaultMaxConnsPerIP, c.MaxConns))
	defaults.Set(&c.MinBodyRate, DefaultMinBodyRate)
	defaults.Set(&c.BodyGrace, DefaultBodyGrace)
	return c
}

// Server is the MEV listener: its own http.Server, run as a node.Lifecycle.
// Routes are mounted with Handle before Start.
type Server struct {
	cfg    Config
	mux    *http.ServeMux
	ready  func() error
	budget *budget
	sched  *sched.Scheduler
	work   atomic.Int64 // bytes inflated or decoded in client turns

	mu       sync.Mutex
	started  bool
	listener net.Listener
	srv      *http.Server
	done     chan struct{}
}

// Option configures a Server beyond its Config.
type Option func(*Server)

// WithScheduler makes the listener's client work take turns of the node's
// scheduler, shared with geth's RPC and marked by the node's slot work.
// Without it the listener has a scheduler of its own (GOMAXPROCS-1 turns).
func WithScheduler(sc *sched.Scheduler) Option {
	return func(s *Server) { s.sched = sc }
}

// New creates a listener with the health routes mounted. ready reports
// whether the node can serve traffic (nil means always ready).
func New(cfg Config, ready func() error, opts ...Option) *Server {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, mux: http.NewServeMux(), ready: ready, budget: newBudget(bodyShare(cfg), cfg.BodyBudgetPerIP, cfg.BudgetWait)}
	for _, o := range opts {
		o(s)
	}
	if s.sched == nil {
		s.sched = sched.New(sched.Config{})
	}
	s.mux.HandleFunc("GET /livez", func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	s.mux.HandleFunc("GET /readyz", s.handleReady)
	s.mux.HandleFunc("/", s.noRoute)
	return s
}

// probedMethods are the methods noRoute tries on a path to tell a wrong
// method (405) from an unknown path (404).
var probedMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// noRoute answers what no route matched: 405 with Allow when the path is
// served under other methods, else 404. (The catch-all hides the 405 the
// ServeMux would give itself.)
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range probedMethods {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		WriteError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s not allowed on %s: use %s", r.Method, r.URL.Path, strings.Join(allow, ", ")))
		return
	}
	WriteError(w, http.StatusNotFound, fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path))
}

// Config returns the effective configuration (defaults filled in).
func (s *Server) Config() Config { return s.cfg }

// Handle mounts h on a Go ServeMux pattern such as "POST /eth_callBundle".
// Use "POST /{$}" for the root path alone: "POST /" matches every path.
// It panics if called after Start, like geth's node does for late APIs.
func (s *Server) Handle(pattern string, h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		panic("mevapi: Handle called after Start")
	}
	s.mux.Handle(pattern, h)
}

// Handler returns the listener's full handler chain (for tests and embedding).
func (s *Server) Handler() http.Handler {
	return recoverPanics(limitBody(s.cfg.MaxBodyBytes, s.meterBody(s.mux)))
}

// BodyBytesInFlight reports the request body bytes held in memory now,
// as reserved from the body budget.
func (s *Server) BodyBytesInFlight() int64 { return s.budget.inUse() }

// GeneralBodyShare reports the bytes of the body budget that requests not
// vouched for (Account.Vouch) and not small may hold together: the rest is
// the headroom for small bodies and the reserve for known builders.
func (s *Server) GeneralBodyShare() int64 { return s.budget.limit(shareGeneral) }

// HeavyWork reports the use of the scheduler the listener's client work
// takes turns of (for tests and figures).
func (s *Server) HeavyWork() GateStats {
	st := s.sched.Stats()
	return GateStats{Size: st.Turns, Busy: st.Busy, Waiting: st.Waiting, Peak: st.Peak, Critical: st.Critical, Refused: st.Refused, Work: s.work.Load()}
}

// Scheduler returns the scheduler the listener's client work takes turns of.
func (s *Server) Scheduler() *sched.Scheduler { return s.sched }

// ClientWork serves h in a client turn of the scheduler (a data API query:
// a database read and a large answer to encode). A request that gets no
// turn within the scheduler's wait is answered 503 "server busy" with
// Retry-After.
func (s *Server) ClientWork(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		turn, err := s.sched.Take(r.Context(), sched.Request{Client: remoteIP(r), Paced: true})
		if err != nil {
			if r.Context().Err() != nil {
				return // the client left
			}
			w.Header().Set("Retry-After", "1")
			WriteError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		defer turn.Release()
		ctx, cancel := context.WithTimeout(sched.InTurn(r.Context()), s.sched.Config().Turn)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// CriticalWork serves h as the node's slot work (getHeader, getPayload):
// while it runs no client turn is handed out, except while h waits for
// another's work (sched.Idle: a getHeader waiting for a bid in flight).
func (s *Server) CriticalWork(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, done := s.sched.CriticalContext(r.Context())
		defer done()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// meterBody gives each request its account of the body budget (released
// when the handler returns) and holds its body to the minimum transfer rate.
func (s *Server) meterBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		now := time.Now()
		acct := &Account{b: s.budget, ip: remoteIP(r), ctx: r.Context(), resp: w.Header(), cpu: &cpuTurns{s: s.sched, work: &s.work, client: remoteIP(r), until: now.Add(s.cfg.ReadTimeout)}, until: now.Add(s.cfg.ReadTimeout)}
		defer acct.close()
		r = r.WithContext(context.WithValue(r.Context(), accountKey{}, acct))
		r.Body = &slowBody{
			ReadCloser: r.Body, rc: http.NewResponseController(w), start: now, grace: s.cfg.BodyGrace,
			rate: float64(s.cfg.MinBodyRate), hard: now.Add(s.cfg.ReadTimeout),
		}
		next.ServeHTTP(w, r)
	})
}

// Start listens and serves in the background.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("mev listener on %s: %w (another process, or another gavel, listens there: choose another address with --mev.addr)", s.cfg.Addr, err)
		}
		return fmt.Errorf("mev listener on %s: %w (set the address with --mev.addr)", s.cfg.Addr, err)
	}
	lim := &connLimit{Listener: ln, total: s.cfg.MaxConns, perIP: s.cfg.MaxConnsPerIP, byIP: map[string]int{},
		slowHeader: min(s.cfg.ReadHeaderTimeout/4, slowHeader)}
	s.started, s.listener, s.done = true, lim, make(chan struct{})
	s.srv = &http.Server{
		Handler:           s.Handler(),
		ConnState:         lim.connState,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
	go func() {
		defer close(s.done)
		if err := s.srv.Serve(lim); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("MEV listener stopped", "err", err)
		}
	}()
	log.Info("MEV listener started", "url", "http://"+lim.Addr().String())
	return nil
}

// Stop shuts down gracefully: in-flight requests get a few seconds to finish.
func (s *Server) Stop() error {
	s.mu.Lock()
	srv, done := s.srv, s.done
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	err := srv.Shutdown(ctx)
	<-done
	s.mu.Lock()
	first := s.srv != nil
	s.srv = nil
	s.mu.Unlock()
	if first {
		log.Info("MEV listener stopped", "url", "http://"+s.listener.Addr().String())
	}
	return err
}

// URL returns the listener's base URL, with the real port once started.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listener != nil {
		return "http://" + s.listener.Addr().String()
	}
	return "http://" + s.cfg.Addr
}

func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if s.ready != nil {
		if err := s.ready(); err != nil {
			WriteError(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
			return
		}
	}
	WriteJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// ErrorBody is the listener's error body, {"code":N,"message":"..."}.
type ErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// WriteError writes {"code":status,"message":msg} with the given status.
// For 500 the message is always "internal server error": details go to the
// log, never to the client.
func WriteError(w http.ResponseWriter, status int, msg string) {
	if status == http.StatusInternalServerError {
		msg = "internal server error"
	}
	WriteJSON(w, status, ErrorBody{Code: status, Message: msg})
}

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		log.Error("Encoding MEV response failed", "err", err)
		status, body = http.StatusInternalServerError, []byte(`{"code":500,"message":"internal server error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// ReadBody reads a request body of at most limit bytes, chunk by chunk as
// the bytes arrive, within the listener's body budget (mevapi.ReadAll). It
// returns ErrBodyTooLarge (wrapped, with the limit) when the body is longer,
// and the budget's and the transfer rate's sentinels (see BodyStatus).
func ReadBody(r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, fmt.Errorf("%w: %d bytes, the limit is %d", ErrBodyTooLarge, r.ContentLength, limit)
	}
	tooLarge := func() error { return fmt.Errorf("%w: the limit is %d bytes", ErrBodyTooLarge, limit) }
	body, err := ReadAll(AccountOf(r), r.Body, limit, r.ContentLength, 0, nil, tooLarge)
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &maxErr):
		return nil, fmt.Errorf("%w: the limit is %d bytes", ErrBodyTooLarge, maxErr.Limit)
	case err != nil:
		return nil, err
	}
	return body, nil
}

// limitBody refuses bodies above max with 413 before any handler reads them,
// and caps what a handler can read when the length is not announced.
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			WriteError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body too large: %d bytes, the limit is %d", r.ContentLength, max))
			return
		}
		if r.Body != http.NoBody { // a GET without a body needs no limit
			r.Body = http.MaxBytesReader(w, r.Body, max)
		}
		next.ServeHTTP(w, r)
	})
}

// recoverPanics turns a handler panic into a logged 500, never a dropped
// connection.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				log.Error("Panic in MEV handler", "path", r.URL.Path, "panic", p, "stack", string(debug.Stack()))
				WriteError(w, http.StatusInternalServerError, "")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

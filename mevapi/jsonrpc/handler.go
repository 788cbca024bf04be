// Package jsonrpc is the MEV listener's own JSON-RPC endpoint. It exists
// beside geth's RPC server because the public listener must see the raw
// body: it verifies X-Ethereum-Signature / X-Flashbots-Signature over the
// exact bytes, enforces its body limit and per-IP / per-signer rate limits,
// and answers with the HTTP statuses of DESIGN section 5 (400, 401, 413, 429,
// 500) instead of JSON-RPC's always-200. The calls themselves are dispatched
// by an in-process geth rpc.Server holding exactly the services it is given,
// the same service objects geth's own RPC serves; plain calls to the methods
// a service lists as fast (FastService) skip that dispatcher and get the
// same answer in a third of the time.
package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// JSON-RPC error codes the handler writes or maps.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeServerError    = -32000 // geth's code for an error without its own code
	CodeLimitExceeded  = -32005 // EIP-1474 "limit exceeded"
)

// internalMessage is what a 500 says; the detail goes to the log only.
const internalMessage = "internal server error"

var (
	requestsMeter     = metrics.NewRegisteredMeter("gavel/mev/rpc/requests", nil)
	signedMeter       = metrics.NewRegisteredMeter("gavel/mev/rpc/signed", nil)
	badSignatureMeter = metrics.NewRegisteredMeter("gavel/mev/rpc/badsignature", nil)
	rateLimitedMeter  = metrics.NewRegisteredMeter("gavel/mev/rpc/ratelimited", nil)
	tooLargeMeter     = metrics.NewRegisteredMeter("gavel/mev/rpc/toolarge", nil)
	busyMeter         = metrics.NewRegisteredMeter("gavel/mev/rpc/busy", nil)
)

// Server dispatches JSON-RPC calls arriving on the MEV listener.
type Server struct {
	cfg       Config
	rpc       *rpc.Server
	ipLimit   *keyedLimiter
	sigLimit  *keyedLimiter
	onRequest func(signer common.Address)

	gethOnly bool // WithGethDispatch
	fastMu   sync.Mutex
	fast     atomic.Pointer[fastTable]
	closed   atomic.Bool
}

// Option customises a Server.
type Option func(*Server)

// WithRequestHook calls f for every request that passed the signature check,
// with its signer (the zero address when unsigned). gavel counts per-signer
// statistics through it.
func WithRequestHook(f func(signer common.Address)) Option {
	return func(s *Server) { s.onRequest = f }
}

// New returns a Server that serves exactly apis.
func New(cfg Config, apis []rpc.API, opts ...Option) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	srv := rpc.NewServer()
	srv.SetBatchLimits(cfg.BatchItemLimit, cfg.BatchResponseLimit)
	srv.SetHTTPBodyLimit(int(cfg.BodyLimit) + 1)
	for _, api := range apis {
		if err := srv.RegisterName(api.Namespace, api.Service); err != nil {
			return nil, fmt.Errorf("registering namespace %q: %w", api.Namespace, err)
		}
	}
	s := &Server{
		cfg:      cfg,
		rpc:      srv,
		ipLimit:  newKeyedLimiter(cfg.IPRate, cfg.IPBurst),
		sigLimit: newKeyedLimiter(cfg.SignerRate, cfg.SignerBurst),
	}
	for _, o := range opts {
		o(s)
	}
	if err := s.addFast(apis); err != nil {
		srv.Stop()
		return nil, err
	}
	return s, nil
}

// Close stops the dispatcher.
func (s *Server) Close() {
	s.closed.Store(true)
	s.rpc.Stop()
}

// Routes are the MEV listener paths served by JSON-RPC, in Go 1.22 ServeMux
// pattern form, with whether each requires a signature regardless of Auth.
var Routes = []struct {
	Pattern    string
	RequireSig bool
}{
	{"POST /{$}", false},
	{"POST /v1", false},
	{"POST /v2", false},
	{"POST /v1/auction", true},
	{"POST /MevSendBetaBundleRequest", false},
}

// Register adds the JSON-RPC routes to a mux-like registrar, such as
// mevapi.Server or *http.ServeMux.
func (s *Server) Register(mux interface{ Handle(string, http.Handler) }) {
	for _, r := range Routes {
		mux.Handle(r.Pattern, s.Handler(r.RequireSig))
	}
}

// Handler returns the endpoint; requireSig forces a signature whatever the
// configured Auth mode.
func (s *Server) Handler(requireSig bool) http.Handler {
	requireSig = requireSig || s.cfg.Auth == AuthRequired
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r, requireSig)
	})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request, requireSig bool) {
	requestsMeter.Mark(1)
	if !s.ipLimit.allow(clientIP(r)) {
		rateLimitedMeter.Mark(1)
		writeError(w, http.StatusTooManyRequests, CodeLimitExceeded, "rate limit exceeded for this IP address, retry later")
		return
	}
	if codings := mevapi.ContentCodings(r.Header.Values("Content-Encoding")); len(codings) > 0 {
		writeError(w, http.StatusUnsupportedMediaType, CodeInvalidRequest, fmt.Sprintf("Content-Encoding %q is not supported on JSON-RPC: send the JSON body uncompressed", codings[0]))
		return
	}
	tooLarge := func() error { return fmt.Errorf("%w: limit is %d bytes", mevapi.ErrBodyTooLarge, s.cfg.BodyLimit) }
	// The announced length lets a small call be read straight into its
	// buffer, within the part of the body budget kept for small bodies.
	body, err := mevapi.ReadAll(mevapi.AccountOf(r), http.MaxBytesReader(w, r.Body, s.cfg.BodyLimit), s.cfg.BodyLimit, r.ContentLength, 0, nil, tooLarge)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) || errors.Is(err, mevapi.ErrBodyTooLarge) {
			tooLargeMeter.Mark(1)
			writeError(w, http.StatusRequestEntityTooLarge, CodeInvalidRequest, fmt.Sprintf("request body too large: limit is %d bytes", s.cfg.BodyLimit))
			return
		}
		status := mevapi.BodyStatus(err)
		code := CodeInvalidRequest
		if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
			code = CodeLimitExceeded
		}
		writeError(w, status, code, "cannot read request body: "+err.Error())
		return
	}
	if len(bytes.TrimSpace(body)) == 0 {
		writeError(w, http.StatusBadRequest, CodeInvalidRequest, "empty request body: expected a JSON-RPC request")
		return
	}

	// The signature covers the raw bytes, so it is checked before parsing.
	var signer common.Address
	header, err := reqsig.FromRequest(r.Header)
	switch {
	case err != nil:
		badSignatureMeter.Mark(1)
		writeError(w, http.StatusUnauthorized, CodeInvalidRequest, "invalid request signature: "+err.Error())
		return
	case header != "":
		// Recovering the signer (a hash of the body and an ECDSA
		// recovery) is CPU work a flood of signed calls repeats by the
		// thousand: it takes a turn of the node's scheduler as the call
		// does.
		if herr := mevapi.AccountOf(r).Heavy(int64(len(body)), func() { signer, err = reqsig.Verify(header, body) }); herr != nil {
			busyMeter.Mark(1)
			writeError(w, mevapi.BodyStatus(herr), CodeLimitExceeded, "server busy: "+herr.Error()+", retry later")
			return
		}
		if err != nil {
			badSignatureMeter.Mark(1)
			writeError(w, http.StatusUnauthorized, CodeInvalidRequest, "invalid request signature: "+err.Error())
			return
		}
		signedMeter.Mark(1)
	case requireSig:
		writeError(w, http.StatusUnauthorized, CodeInvalidRequest,
			"missing request signature: this endpoint requires an X-Ethereum-Signature (or X-Flashbots-Signature) header \"<address>:<signature>\"")
		return
	}
	var calls []json.RawMessage
	batch := isBatch(body)
	if batch {
		var err error
		// Parsing a batch of up to BodyLimit bytes is CPU work on the
		// body, in a turn of the node's CPU scheduler as its calls are.
		if herr := mevapi.AccountOf(r).Heavy(int64(len(body)), func() { err = json.Unmarshal(body, &calls) }); herr != nil {
			busyMeter.Mark(1)
			writeError(w, mevapi.BodyStatus(herr), CodeLimitExceeded, "server busy: "+herr.Error()+", retry later")
			return
		}
		switch {
		case err != nil:
			writeError(w, http.StatusBadRequest, CodeParseError, "parse error: the batch is not a JSON array of requests: "+err.Error())
			return
		case len(calls) == 0:
			writeError(w, http.StatusBadRequest, CodeInvalidRequest, "empty batch: expected at least one JSON-RPC request in the array")
			return
		case len(calls) > s.cfg.BatchItemLimit:
			writeError(w, http.StatusBadRequest, CodeInvalidRequest, fmt.Sprintf("batch too large: %d calls, at most %d allowed", len(calls), s.cfg.BatchItemLimit))
			return
		}
		// A batch counts as one request per call (the first was counted
		// on arrival).
		if !s.ipLimit.allowRest(clientIP(r), len(calls)) {
			rateLimitedMeter.Mark(1)
			writeError(w, http.StatusTooManyRequests, CodeLimitExceeded, fmt.Sprintf("rate limit exceeded for this IP address: a batch of %d calls counts as %d requests, retry later", len(calls), len(calls)))
			return
		}
	}
	ctx := reqsig.WithClientIP(r.Context(), clientIP(r))
	if signer != (common.Address{}) {
		if !s.sigLimit.allow(string(signer[:])) {
			rateLimitedMeter.Mark(1)
			writeError(w, http.StatusTooManyRequests, CodeLimitExceeded, "rate limit exceeded for signer "+signer.Hex()+", retry later")
			return
		}
		ctx = reqsig.WithSigner(ctx, signer)
	}
	if s.onRequest != nil {
		s.onRequest(signer)
	}
	if batch {
		s.dispatchBatch(ctx, w, r, calls)
		return
	}
	// A single call runs in a turn of the node's CPU scheduler too: a flood
	// of single calls from many connections (eth_sendBundle of unfunded
	// keys: decoding, sender recovery, a state read each) otherwise keeps
	// both cores busy and /livez and getHeader wait behind it (p99 315 ms
	// extra on a quiet machine: docs/security.md).
	if herr := mevapi.AccountOf(r).Run(ctx, int64(len(body)), func(ctx context.Context) {
		if !s.serveFast(ctx, w, body) {
			s.dispatch(ctx, w, r, body)
		}
	}); herr != nil {
		busyMeter.Mark(1)
		writeError(w, mevapi.BodyStatus(herr), CodeLimitExceeded, "server busy: "+herr.Error()+", retry later")
	}
}

// msgInvalidRequest replaces geth's bare "invalid request" for JSON that
// parses but is not a request (null, a string, a number, a method that is
// not a string).
const msgInvalidRequest = `invalid request: expected a JSON object with "jsonrpc":"2.0", "method" (a string), "params" (an array) and "id"`

// dispatch hands body to the rpc.Server and maps its answer to a status.
func (s *Server) dispatch(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) {
	status, out := s.call(ctx, r, body)
	if status == http.StatusOK {
		status, out = mapSingle(body, out)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(out)
}

// call runs one request body through the rpc.Server and returns its HTTP
// status and response.
func (s *Server) call(ctx context.Context, r *http.Request, body []byte) (int, []byte) {
	inner, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return http.StatusInternalServerError, encodeError(nil, CodeInternal, internalMessage)
	}
	inner.ContentLength = int64(len(body))
	inner.Header.Set("Content-Type", "application/json")
	inner.RemoteAddr, inner.Host, inner.Proto = r.RemoteAddr, r.Host, r.Proto
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	s.rpc.ServeHTTP(rec, inner)
	return rec.status, rec.buf.Bytes()
}

// dispatchBatch runs a batch's calls one after the other, as geth's
// dispatcher does, each in a turn of the node's CPU scheduler: however many
// batches arrive at once, a core stays free for single calls, health checks
// and the node (a flood of batches of cheap lookups took /livez from 2 ms
// to 85 ms at p99 without it: docs/security.md), and since the turn is given
// back between calls (to the request with the least work done), a batch of
// slow calls does not hold it from submissions that need it. A call that
// gets no turn within the request's read timeout, and every call after it,
// is answered with a -32005 "server busy" error; once the answers pass
// BatchResponseLimit bytes the remaining calls get geth's -32003
// "response too large". Notifications (no id) get no answer.
func (s *Server) dispatchBatch(ctx context.Context, w http.ResponseWriter, r *http.Request, calls []json.RawMessage) {
	acct := mevapi.AccountOf(r)
	out := []byte{'['}
	size, n := 0, 0
	add := func(item []byte) {
		if item = bytes.TrimSpace(item); len(item) == 0 {
			return
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, item...)
		size += len(item)
		n++
	}
	for i, c := range calls {
		if isBatch(c) { // a batch in a batch is no request
			add(encodeError(nil, CodeInvalidRequest, "invalid request"))
			continue
		}
		var resp []byte
		if err := acct.Run(ctx, int64(len(c)), func(ctx context.Context) {
			_, resp = s.call(ctx, r, c)
		}); err != nil {
			busyMeter.Mark(1)
			restWithError(calls[i:], CodeLimitExceeded, "server busy: "+err.Error()+", retry later", add)
			break
		}
		add(resp)
		if s.cfg.BatchResponseLimit > 0 && size > s.cfg.BatchResponseLimit {
			restWithError(calls[i+1:], -32003, "response too large", add)
			break
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if n == 0 {
		return // only notifications: geth answers nothing
	}
	w.Write(hideInternalInBatch(append(out, ']', '\n')))
}

// restWithError answers each call of calls that is not a notification with
// the error.
func restWithError(calls []json.RawMessage, code int, msg string, add func([]byte)) {
	for _, c := range calls {
		var req struct {
			ID *json.RawMessage `json:"id"`
		}
		if json.Unmarshal(c, &req) == nil && req.ID == nil {
			continue // a notification
		}
		id := json.RawMessage("null")
		if req.ID != nil {
			id = *req.ID
		}
		add(encodeError(id, code, msg))
	}
}

// mapSingle sets the HTTP status of a single call's response from its error
// code, hides internal error details, and echoes "method" for the methods in
// echoMethod, as the XGA sample response of mev_sendBetaBundle does.
func mapSingle(req, resp []byte) (int, []byte) {
	var parsed struct {
		Error *jsonError      `json:"error"`
		ID    json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(resp, &parsed); err != nil {
		return http.StatusOK, resp
	}
	var m struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(req, &m); err != nil {
		m.Method = ""
		if parsed.Error != nil && parsed.Error.Code == CodeParseError {
			// geth says only "parse error": say where the JSON breaks.
			resp = encodeError(parsed.ID, CodeParseError, "parse error: expected a JSON-RPC request object: "+err.Error())
		}
	}
	if parsed.Error != nil && parsed.Error.Code == CodeInvalidRequest && parsed.Error.Message == "invalid request" {
		resp = encodeError(parsed.ID, CodeInvalidRequest, msgInvalidRequest)
	}
	return singleAnswer(parsed.ID, m.Method, parsed.Error, resp)
}

// unknownMethodHint follows the message of a method the MEV listener does
// not serve.
const unknownMethodHint = ": the MEV listener serves only the bundle, beta bundle and mev_ methods (docs/api.md); send other JSON-RPC calls to the node's JSON-RPC endpoint (--http, 127.0.0.1:8545 by default)"

// singleAnswer is mapSingle once the response's id and error and the
// request's method are known.
func singleAnswer(id json.RawMessage, method string, e *jsonError, resp []byte) (int, []byte) {
	status := http.StatusOK
	if e != nil {
		switch e.Code {
		case CodeInternal:
			log.Warn("MEV JSON-RPC internal error", "err", e.Message)
			status = http.StatusInternalServerError
			resp = encodeError(id, CodeInternal, internalMessage)
		case CodeLimitExceeded:
			status = http.StatusTooManyRequests
		case CodeMethodNotFound:
			// The listener serves the MEV methods only: a client sending it
			// eth_blockNumber and the like wants the node's JSON-RPC.
			status = http.StatusBadRequest
			resp = encodeError(id, CodeMethodNotFound, e.Message+unknownMethodHint)
		default:
			// Parse errors, invalid requests and params, unknown methods and
			// method errors without a code of their own (geth's -32000, such
			// as "nonce too low") are all the caller's to fix.
			status = http.StatusBadRequest
		}
	}
	if echoMethod[method] && len(resp) > 0 && resp[0] == '{' {
		name, _ := json.Marshal(method)
		sep := ","
		if rest := bytes.TrimLeft(resp[1:], " \t\r\n"); len(rest) > 0 && rest[0] == '}' {
			sep = ""
		}
		out := make([]byte, 0, len(`{"method":,`)+len(name)+len(resp))
		out = append(append(append(append(out, `{"method":`...), name...), sep...), resp[1:]...)
		resp = out
	}
	return status, resp
}

// hideInternalInBatch replaces the message of every internal error in a
// batch response with "internal server error", as a single call's 500 does;
// the batch itself stays 200.
func hideInternalInBatch(resp []byte) []byte {
	var items []json.RawMessage
	if json.Unmarshal(resp, &items) != nil {
		return resp
	}
	changed := false
	for i, item := range items {
		var e struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(item, &e) == nil && e.Error != nil && e.Error.Code == CodeInternal {
			log.Warn("MEV JSON-RPC internal error", "err", e.Error.Message)
			items[i] = bytes.TrimSpace(encodeError(e.ID, CodeInternal, internalMessage))
			changed = true
		}
	}
	if !changed {
		return resp
	}
	out, err := json.Marshal(items)
	if err != nil {
		return resp
	}
	return append(out, '\n')
}

// echoMethod lists the methods whose responses carry "method".
var echoMethod = map[string]bool{"mev_sendBetaBundle": true}

func isBatch(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n")
	return len(b) > 0 && b[0] == '['
}

type rpcErrorBody struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func encodeError(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	e := rpcErrorBody{Version: "2.0", ID: id}
	e.Error.Code, e.Error.Message = code, msg
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages quote "<address>:<signature>"
	enc.Encode(e)
	return buf.Bytes()
}

// writeError answers before dispatch, when the request id is not known yet.
func writeError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(encodeError(nil, code, msg))
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// recorder buffers the rpc.Server's response so the status can be set from
// its content.
type recorder struct {
	header http.Header
	status int
	buf    bytes.Buffer
	wrote  bool
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.buf.Write(b)
}
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status = code
		r.wrote = true
	}
}

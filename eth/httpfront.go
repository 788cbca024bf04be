package eth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/internal/sched"
)

// frontTurnBytes is the request body size from which geth's --http
// JSON-RPC decodes, runs and encodes a request in a client turn of the
// node's scheduler. Below it a request is cheap to decode (a balance, a
// block number, a short eth_call: its heavy part still takes a turn,
// gethHeavyRPC); from it up, decoding alone is work a flood multiplies by
// every open connection (a 100-transaction eth_callBundle is about 25 KB).
const frontTurnBytes = 4 << 10

// httpFront serves geth's --http JSON-RPC (on geth's own listener, flags
// and handler stack: virtual hosts, CORS, gzip) with the node's methods of
// --http.api, and runs a request of frontTurnBytes or more in one client
// turn, from its decoding to its encoded (and compressed) answer. geth's
// own handler decodes every request on its connection's goroutine before
// any method runs, so under a flood of large requests the decoding, the
// encoding of the answers and their compression ran outside turns (about
// 28% of the node's CPU in the eth_callBundle flood of docs/security.md)
// and cheap requests, /livez included, waited behind it for a core. The
// body is read before the turn (waiting for the network holds none) and
// the answer written after it.
type httpFront struct {
	sched  *sched.Scheduler
	prefix string
	limit  int64
	next   http.Handler
}

// newHTTPFront serves srv (the node's in-process server: every namespace)
// as geth would serve --http from cfg: the methods of cfg.HTTPModules,
// never engine_.
func newHTTPFront(sc *sched.Scheduler, srv *rpc.Server, cfg *node.Config) *httpFront {
	limit := int64(cfg.HTTPBodyLimit)
	if limit <= 0 {
		limit = 5 << 20 // geth's default
	}
	srv.SetHTTPBodyLimit(int(limit))
	filter := &moduleFilter{srv: srv, modules: cfg.HTTPModules, limit: limit}
	return &httpFront{
		sched:  sc,
		prefix: cfg.HTTPPathPrefix,
		limit:  limit,
		next:   node.NewHTTPHandlerStack(filter, cfg.HTTPCors, cfg.HTTPVirtualHosts, nil, false),
	}
}

// registerHTTPFront mounts the front on geth's --http server, at its root:
// geth's server hands every request to a handler registered there before
// its own JSON-RPC handler.
func registerHTTPFront(stack *node.Node, sc *sched.Scheduler) error {
	srv, err := stack.RPCHandler()
	if err != nil {
		return err
	}
	stack.RegisterHandler("JSON-RPC in client turns", "/", newHTTPFront(sc, srv, stack.Config()))
	return nil
}

// ServeHTTP serves one request: a small one (or not a POST) at once, a
// large one in a client turn.
func (f *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !rpcPath(r, f.prefix) {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost || (r.ContentLength >= 0 && r.ContentLength < frontTurnBytes) {
		f.next.ServeHTTP(w, r)
		return
	}
	if r.ContentLength > f.limit {
		http.Error(w, fmt.Sprintf("content length too large (%d>%d)", r.ContentLength, f.limit), http.StatusRequestEntityTooLarge)
		return
	}
	body, err := readBody(w, r, f.limit)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, fmt.Sprintf("request body too large: at most %d bytes (--http.bodylimit)", f.limit), http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
		}
		return
	}
	rec := &answerBuffer{header: http.Header{}, status: http.StatusOK}
	err = f.sched.Run(r.Context(), clientAddr(rpc.PeerInfo{RemoteAddr: r.RemoteAddr}), func(ctx context.Context) error {
		in := r.Clone(ctx)
		in.Body, in.ContentLength = newBufferedBody(body), int64(len(body))
		f.next.ServeHTTP(rec, in)
		return nil
	})
	if err != nil {
		if !errors.Is(err, sched.ErrBusy) {
			return // the client is gone
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(errorAnswer(nil, -32005, err.Error()))
		return
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	w.Write(rec.body.Bytes())
}

// rpcPath is geth's rule for the JSON-RPC path: the root without a
// prefix, else anything under the prefix.
func rpcPath(r *http.Request, prefix string) bool {
	if prefix == "" {
		return r.URL.Path == "/"
	}
	return strings.HasPrefix(r.URL.Path, prefix)
}

// moduleFilter passes calls of the served modules (and rpc_) to srv and
// answers the others as geth's --http does, a method it does not have: the
// in-process server has every namespace, the engine API's and the admin
// API's too. rpc_modules is answered with the served modules only.
type moduleFilter struct {
	srv     *rpc.Server
	modules []string
	limit   int64 // the server's body limit
}

// rpcCall is the part of a JSON-RPC call the filter reads.
type rpcCall struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// rpcAnswer is the part of a JSON-RPC answer the filter rewrites.
type rpcAnswer struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

func (m *moduleFilter) served(method string) bool {
	ns, _, _ := strings.Cut(method, "_")
	return ns == "rpc" || (ns != "engine" && slices.Contains(m.modules, ns))
}

// ServeHTTP answers the calls of r's body outside the served modules and
// passes the others to the server.
func (m *moduleFilter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !acceptedContentType(r) || r.ContentLength > m.limit {
		m.srv.ServeHTTP(w, r) // the health check, or the server's refusal
		return
	}
	body, err := readBody(w, r, m.limit)
	if err != nil {
		status := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, "reading the request body: "+err.Error(), status)
		return
	}
	trimmed := bytes.TrimSpace(body)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	var raws []json.RawMessage
	if batch {
		if json.Unmarshal(trimmed, &raws) != nil || len(raws) == 0 {
			m.pass(w, r, body) // the server answers the parse error or the empty batch
			return
		}
	} else {
		raws = []json.RawMessage{trimmed}
	}
	var keep []json.RawMessage
	var refused []rpcError
	modules := map[string]bool{} // ids of rpc_modules calls
	for _, raw := range raws {
		var c rpcCall
		if json.Unmarshal(raw, &c) != nil || c.Method == "" {
			keep = append(keep, raw)
			continue
		}
		if !m.served(c.Method) {
			refused = append(refused, errorAnswer(c.ID, -32601, fmt.Sprintf("the method %s does not exist/is not available", c.Method)))
			continue
		}
		if c.Method == "rpc_modules" && len(c.ID) > 0 {
			modules[string(c.ID)] = true
		}
		keep = append(keep, raw)
	}
	if len(refused) == 0 && len(modules) == 0 {
		m.pass(w, r, body)
		return
	}
	var answers []json.RawMessage
	status, header := http.StatusOK, http.Header{}
	if len(keep) > 0 {
		in := body
		if len(refused) > 0 {
			if batch {
				in, _ = json.Marshal(keep)
			} else {
				in = keep[0]
			}
		}
		rec := &answerBuffer{header: http.Header{}, status: http.StatusOK}
		m.pass(rec, r, in)
		out := bytes.TrimSpace(rec.body.Bytes())
		if rec.status != http.StatusOK || len(out) == 0 {
			copyAnswer(w, rec)
			return
		}
		status, header = rec.status, rec.header
		if out[0] == '[' {
			if json.Unmarshal(out, &answers) != nil {
				copyAnswer(w, rec)
				return
			}
		} else {
			answers = []json.RawMessage{out}
		}
	}
	for i, a := range answers {
		answers[i] = m.cutModules(a, modules)
	}
	for _, ref := range refused {
		b, _ := json.Marshal(ref)
		answers = append(answers, b)
	}
	for k, v := range header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Del("Content-Length")
	w.WriteHeader(status)
	if batch {
		b, _ := json.Marshal(answers)
		w.Write(b)
	} else if len(answers) > 0 {
		w.Write(answers[0])
	}
}

// acceptedContentType is geth's check of a JSON-RPC request's content
// type.
func acceptedContentType(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && (mt == "application/json" || mt == "application/json-rpc" || mt == "application/jsonrequest")
}

// pass serves body as r's body on the server.
func (m *moduleFilter) pass(w http.ResponseWriter, r *http.Request, body []byte) {
	in := r.Clone(r.Context())
	in.Body, in.ContentLength = newBufferedBody(body), int64(len(body))
	m.srv.ServeHTTP(w, in)
}

// bufferedBody is a request body read already: readBody hands its bytes
// on instead of copying them again.
type bufferedBody struct {
	*bytes.Reader
	b []byte
}

func newBufferedBody(b []byte) *bufferedBody { return &bufferedBody{bytes.NewReader(b), b} }

func (*bufferedBody) Close() error { return nil }

// preallocBytes is the largest body readBody allocates whole before it
// arrives: a client claims a length for free.
const preallocBytes = 256 << 10

// readBody reads r's body, at most limit bytes, into one buffer of its
// size when its length is known (io.ReadAll's doubling would leave garbage
// of twice the body on every large request); a body read already is
// handed on as it is.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if b, ok := r.Body.(*bufferedBody); ok && b.Len() == len(b.b) {
		return b.b, nil
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	if r.ContentLength < 0 || r.ContentLength > preallocBytes {
		return io.ReadAll(body) // grows with what arrives, not with what is claimed
	}
	b := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(body, b); err != nil {
		return nil, err
	}
	return b, nil
}

// cutModules cuts an answer to an rpc_modules call (an id in ids) to the
// served modules.
func (m *moduleFilter) cutModules(a json.RawMessage, ids map[string]bool) json.RawMessage {
	if len(ids) == 0 {
		return a
	}
	var ans rpcAnswer
	if json.Unmarshal(a, &ans) != nil || !ids[string(ans.ID)] || len(ans.Result) == 0 {
		return a
	}
	var all map[string]string
	if json.Unmarshal(ans.Result, &all) != nil {
		return a
	}
	for ns := range all {
		if !m.served(ns + "_") {
			delete(all, ns)
		}
	}
	ans.Result, _ = json.Marshal(all)
	b, _ := json.Marshal(ans)
	return b
}

// copyAnswer writes a recorded answer as it is.
func copyAnswer(w http.ResponseWriter, rec *answerBuffer) {
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	w.Write(rec.body.Bytes())
}

// errorAnswer is a JSON-RPC error answer to the call with id (null when
// none), its fields in geth's order.
func errorAnswer(id json.RawMessage, code int, msg string) rpcError {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	e := rpcError{JSONRPC: "2.0", ID: id}
	e.Error.Code, e.Error.Message = code, msg
	return e
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/errclass"
)

// FastService is implemented by a service whose hot methods the MEV listener
// calls directly rather than through geth's rpc.Server, which builds a
// handler, a goroutine, contexts and trace spans for every HTTP request and
// whose answer the listener would parse again to set the status.
//
// FastMethods returns JSON-RPC method names without the namespace
// ("sendBetaBundle" for the Go method SendBetaBundle). Each must take a
// context.Context and one argument and return a result and an error, and must
// not need geth's per-connection context (rpc.PeerInfoFromContext).
//
// Only a plain call takes the fast path: a single JSON object with exactly
// the keys "jsonrpc" ("2.0"), "id" (not an object or array), "method" (a
// string without escapes) and "params" (an array of one non-null value that
// decodes into the argument type), each once. Everything else — batches,
// notifications, other keys, missing, extra or undecodable arguments — goes
// through geth's dispatcher, so the answers and error messages are geth's.
// Fast calls count in geth's rpc/* metrics as dispatched ones do.
type FastService interface {
	FastMethods() []string
}

// WithGethDispatch makes the Server ignore FastService and dispatch every
// call through geth's rpc.Server: for side-by-side comparisons.
func WithGethDispatch() Option {
	return func(s *Server) { s.gethOnly = true }
}

// fastMethod is one method callable without geth's dispatcher.
type fastMethod struct {
	name string        // full JSON-RPC name, "mev_sendBetaBundle"
	fn   reflect.Value // the method bound to its receiver
	arg  reflect.Type
}

// fastTable maps full method names to fast methods. It is replaced whole
// (copy on write) when services are registered.
type fastTable = map[string]*fastMethod

// addFast records the fast methods of the services in apis.
func (s *Server) addFast(apis []rpc.API) error {
	var added []*fastMethod
	for _, api := range apis {
		fs, ok := api.Service.(FastService)
		if !ok {
			continue
		}
		for _, name := range fs.FastMethods() {
			m, err := newFastMethod(api.Namespace, api.Service, name)
			if err != nil {
				return err
			}
			added = append(added, m)
		}
	}
	if len(added) == 0 {
		return nil
	}
	s.fastMu.Lock()
	defer s.fastMu.Unlock()
	next := fastTable{}
	if cur := s.fast.Load(); cur != nil {
		for k, v := range *cur {
			next[k] = v
		}
	}
	for _, m := range added {
		next[m.name] = m
	}
	s.fast.Store(&next)
	return nil
}

var (
	contextType = reflect.TypeFor[context.Context]()
	errorType   = reflect.TypeFor[error]()
)

func newFastMethod(namespace string, svc any, name string) (*fastMethod, error) {
	v := reflect.ValueOf(svc)
	full := namespace + "_" + name
	for i := 0; i < v.NumMethod(); i++ {
		if methodName(v.Type().Method(i).Name) != name {
			continue
		}
		fn := v.Method(i)
		t := fn.Type()
		if t.NumIn() != 2 || t.In(0) != contextType || t.NumOut() != 2 || t.Out(1) != errorType {
			return nil, fmt.Errorf("fast method %s has type %s: expected func(context.Context, T) (R, error)", full, t)
		}
		return &fastMethod{name: full, fn: fn, arg: t.In(1)}, nil
	}
	return nil, fmt.Errorf("fast method %s: %T has no such method", full, svc)
}

// methodName is the JSON-RPC name geth gives a Go method: its first letter
// lowercased.
func methodName(goName string) string {
	r := []rune(goName)
	if len(r) > 0 {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// serveFast answers body if it is a plain call to a fast method and reports
// whether it did; if not, nothing was written or called.
func (s *Server) serveFast(ctx context.Context, w http.ResponseWriter, body []byte) bool {
	tab := s.fast.Load()
	if tab == nil || s.gethOnly || s.closed.Load() || !json.Valid(body) {
		return false
	}
	env, ok := parseCall(body)
	if !ok {
		return false
	}
	m := (*tab)[string(env.method)]
	if m == nil {
		return false
	}
	elem, ok := singleElement(env.params)
	if !ok || isNull(elem) {
		return false
	}
	argp := reflect.New(m.arg)
	var err error
	if u, ok := argp.Interface().(json.Unmarshaler); ok {
		err = u.UnmarshalJSON(elem)
	} else {
		err = json.Unmarshal(elem, argp.Interface())
	}
	if err != nil {
		return false // geth words the "invalid argument" error
	}

	// As geth does: cancel the call and answer "request timed out" shortly
	// before the HTTP server's write timeout.
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var timedOut atomic.Bool
	if d, ok := rpc.ContextRequestTimeout(ctx); ok {
		t := time.AfterFunc(d, func() { timedOut.Store(true); cancel() })
		defer t.Stop()
	}
	result, err := m.call(ctx, argp.Elem())
	var enc []byte
	if err == nil {
		if mj, ok := result.(json.Marshaler); ok {
			enc, err = mj.MarshalJSON()
		} else {
			enc, err = json.Marshal(result)
		}
		if err != nil {
			err = errclass.Internal(err)
		}
	}
	if timedOut.Load() {
		err, enc = &errclass.Error{Code: errcodeTimeout, Err: errTimeout}, nil
	}

	var status int
	var out []byte
	if err != nil {
		je := jsonError{Code: CodeServerError, Message: err.Error()}
		if ec, ok := err.(rpc.Error); ok {
			je.Code = ec.ErrorCode()
		}
		if de, ok := err.(rpc.DataError); ok {
			je.Data = de.ErrorData()
		}
		log.Warn("Served "+m.name, "reqid", string(env.id), "duration", time.Since(start), "err", je.Message)
		errJSON, _ := json.Marshal(je)
		status, out = singleAnswer(env.id, m.name, &je, gethMessage(env.id, errJSON, nil))
	} else {
		status, out = singleAnswer(env.id, m.name, nil, gethMessage(env.id, nil, enc))
	}
	countInGethMetrics(m.name, err == nil, start)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(out)
	return true
}

// geth's code and message for a call that outlived the request timeout.
const errcodeTimeout = -32002

var errTimeout = fmt.Errorf("request timed out")

// call runs the method, turning a panic into geth's "method handler
// crashed".
func (m *fastMethod) call(ctx context.Context, arg reflect.Value) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			buf := make([]byte, 64<<10)
			buf = buf[:runtime.Stack(buf, false)]
			log.Error("RPC method " + m.name + " crashed: " + fmt.Sprintf("%v\n%s", p, buf))
			err = errclass.Internal(fmt.Errorf("method handler crashed"))
		}
	}()
	out := m.fn.Call([]reflect.Value{reflect.ValueOf(ctx), arg})
	if e := out[1]; !e.IsNil() {
		return nil, e.Interface().(error)
	}
	return out[0].Interface(), nil
}

// jsonError is the "error" member of a response, as geth encodes it.
type jsonError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// gethMessage is the response geth's HTTP server writes for a single call
// answered with errJSON or result: the bytes of geth's appendMessage
// (rpc/json.go, v1.17), which like its message type is unexported, so it
// cannot be called; FuzzFastPath checks the two agree.
func gethMessage(id, errJSON, result []byte) []byte {
	buf := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(errJSON)+len(result))
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	if errJSON != nil {
		buf = append(buf, `,"error":`...)
		buf = append(buf, errJSON...)
	} else {
		buf = append(buf, `,"result":`...)
		buf = append(buf, result...)
	}
	return append(buf, '}')
}

// geth's RPC metrics (rpc/metrics.go), fetched from the registry by the
// names geth registers them under, so a fast call counts where a dispatched
// one does.
var (
	gethRequests = metrics.GetOrRegisterGauge("rpc/requests", nil)
	gethSuccess  = metrics.GetOrRegisterGauge("rpc/success", nil)
	gethFailure  = metrics.GetOrRegisterGauge("rpc/failure", nil)
	gethServing  = metrics.GetOrRegisterTimer("rpc/duration/all", nil)
)

// countInGethMetrics records one served call as geth's handler does.
func countInGethMetrics(method string, success bool, start time.Time) {
	gethRequests.Inc(1)
	note := "success"
	if success {
		gethSuccess.Inc(1)
	} else {
		gethFailure.Inc(1)
		note = "failure"
	}
	elapsed := time.Since(start)
	gethServing.Update(elapsed)
	sampler := func() metrics.Sample { return metrics.ResettingSample(metrics.NewExpDecaySample(1028, 0.015)) }
	metrics.GetOrRegisterHistogramLazy("rpc/duration/"+method+"/"+note, nil, sampler).Update(elapsed.Nanoseconds())
}

// call is the top level of a plain JSON-RPC call, as slices of the body.
type call struct {
	id, method, params []byte
}

// parseCall picks apart body, which json.Valid accepted, if it is a plain
// call (see FastService); ok is false for anything else.
func parseCall(body []byte) (c call, ok bool) {
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return c, false
	}
	i++
	var seen uint8
	for {
		i = skipSpace(body, i)
		if i < len(body) && body[i] == ',' {
			i = skipSpace(body, i+1)
		}
		if i >= len(body) {
			return c, false
		}
		if body[i] == '}' {
			return c, seen == 0b1111
		}
		if body[i] != '"' {
			return c, false
		}
		keyEnd := scanString(body, i)
		key := body[i+1 : keyEnd-1]
		i = skipSpace(body, keyEnd)
		if i >= len(body) || body[i] != ':' {
			return c, false
		}
		valStart := skipSpace(body, i+1)
		i = scanValue(body, valStart)
		val := body[valStart:i]
		if len(val) == 0 {
			return c, false
		}
		var bit uint8
		switch string(key) {
		case "jsonrpc":
			bit = 0b0001
			if string(val) != `"2.0"` {
				return c, false
			}
		case "id":
			bit = 0b0010
			if val[0] == '{' || val[0] == '[' {
				return c, false
			}
			c.id = val
		case "method":
			bit = 0b0100
			if len(val) < 2 || val[0] != '"' || bytes.IndexByte(val, '\\') >= 0 {
				return c, false
			}
			c.method = val[1 : len(val)-1]
		case "params":
			bit = 0b1000
			if val[0] != '[' {
				return c, false
			}
			c.params = val
		default:
			return c, false
		}
		if seen&bit != 0 {
			return c, false
		}
		seen |= bit
	}
}

// singleElement returns the only element of the JSON array arr, or false if
// it has none or several.
func singleElement(arr []byte) ([]byte, bool) {
	i := skipSpace(arr, 1)
	if i >= len(arr) || arr[i] == ']' {
		return nil, false
	}
	end := scanValue(arr, i)
	if j := skipSpace(arr, end); j >= len(arr) || arr[j] != ']' {
		return nil, false
	}
	return arr[i:end], true
}

func isNull(v []byte) bool { return string(v) == "null" }

// The scanners below find the ends of values in input json.Valid accepted.

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the offset just past the string opening at data[i].
func scanString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(data)
}

// scanValue returns the offset just past the value starting at data[i].
func scanValue(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return scanString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = scanString(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(data)
	default: // number, true, false, null
		for ; i < len(data); i++ {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
		}
		return len(data)
	}
}

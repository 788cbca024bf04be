package eth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"

	geth "github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/tracers"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/internal/sched"
)

// gethHeavyRPC serves the CPU-heavy methods of geth's RPC (eth_call,
// eth_estimateGas, eth_createAccessList, eth_simulateV1, gavel's
// eth_callBundle and eth_estimateGasBundle, debug_trace*) in client turns of
// the node's scheduler. geth's rpc server lets a later registration of a
// method in a namespace replace an earlier one, so the node registers these
// after geth's own; each forwards its parameters, untouched, to geth's
// implementation on a private server, so arguments, results and errors (a
// revert's code and data included) stay geth's. The private server is
// called through its HTTP handler with the turn's context: geth runs a
// method under its request's context, so the EVM stops at the turn bound
// (an in-process client would stop waiting while the EVM ran on).
type gethHeavyRPC struct {
	sched *sched.Scheduler
	srv   *rpc.Server
}

// newGethHeavyRPC registers on a private server the services that
// implement the gated methods: geth's eth namespace, its tracers and
// gavel's bundle simulation (sims).
func newGethHeavyRPC(sc *sched.Scheduler, backend *geth.Ethereum, sims []rpc.API) (*gethHeavyRPC, error) {
	srv := rpc.NewServer()
	apis := append(append(backend.APIs(), tracers.APIs(backend.APIBackend)...), sims...)
	for _, api := range apis {
		if api.Namespace != "eth" && api.Namespace != "debug" {
			continue
		}
		if err := srv.RegisterName(api.Namespace, api.Service); err != nil {
			srv.Stop()
			return nil, fmt.Errorf("gated RPC: register %s: %w", api.Namespace, err)
		}
	}
	return &gethHeavyRPC{sched: sc, srv: srv}, nil
}

// APIs are the gated methods, to register after geth's.
func (g *gethHeavyRPC) APIs() []rpc.API {
	return []rpc.API{{Namespace: "eth", Service: &gatedEth{g}}, {Namespace: "debug", Service: &gatedDebug{g}}}
}

// Start implements node.Lifecycle.
func (g *gethHeavyRPC) Start() error { return nil }

// Stop stops the private server.
func (g *gethHeavyRPC) Stop() error {
	g.srv.Stop()
	return nil
}

// busyError is the JSON-RPC answer when no turn came within the wait:
// -32005, the code geth and gavel's listener use for "limit exceeded".
type busyError struct{ error }

func (busyError) ErrorCode() int { return -32005 }

// errTurnBound is the answer for a call stopped at the turn bound.
var errTurnBound = errors.New("execution stopped: the call used the longest turn a client may hold")

// innerError is geth's error answer from the private server, passed on
// with its code and data.
type innerError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *innerError) Error() string  { return e.Message }
func (e *innerError) ErrorCode() int { return e.Code }
func (e *innerError) ErrorData() any {
	if len(e.Data) == 0 {
		return nil
	}
	return e.Data
}

// forward calls method on geth's implementation in a client turn; params
// are sent up to the last one given, a missing one in between as null.
// The request to the private server is put together inside the turn: under
// a flood of large arguments (100-transaction eth_callBundle) the work done
// outside turns, on the goroutine of every waiting request, is what keeps
// cheap requests waiting for a core.
func (g *gethHeavyRPC) forward(ctx context.Context, method string, params ...*json.RawMessage) (json.RawMessage, error) {
	info := rpc.PeerInfoFromContext(ctx)
	if info.Transport == "ipc" && info.RemoteAddr == "" {
		// In-process (the node's own readers: the dev auction's L2 reads,
		// the status page) or the operator's IPC socket: not client work.
		// geth names every codec of its own "ipc", gavel's --ws server's
		// (internal/wsrpc) too; that one carries the client's address.
		return g.call(ctx, requestBody(method, params))
	}
	var res json.RawMessage
	var callErr error
	err := g.sched.Run(ctx, clientAddr(info), func(ctx context.Context) error {
		res, callErr = g.call(ctx, requestBody(method, params))
		if callErr != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			callErr = fmt.Errorf("%w (%v, --sched.turn)", errTurnBound, g.sched.Config().Turn)
		}
		return nil
	})
	switch {
	case errors.Is(err, sched.ErrBusy):
		return nil, busyError{err}
	case err != nil:
		return nil, err
	}
	return res, callErr
}

// requestBody is the JSON-RPC request of method with params up to the last
// one given, a missing one in between as null. The parameters are copied
// as they are: geth's server decoded each into a json.RawMessage, which it
// checked is one JSON value, so encoding them again (json.Marshal compacts
// and checks every byte once more) would only repeat that work.
func requestBody(method string, params []*json.RawMessage) []byte {
	last := len(params)
	for last > 0 && params[last-1] == nil {
		last--
	}
	size := len(method) + 48
	for _, p := range params[:last] {
		if p != nil {
			size += len(*p) + 1
		} else {
			size += 5
		}
	}
	b := make([]byte, 0, size)
	b = append(b, `{"jsonrpc":"2.0","id":1,"method":"`...)
	b = append(b, method...) // one of the gated methods' names: nothing to escape
	b = append(b, `","params":[`...)
	for i, p := range params[:last] {
		if i > 0 {
			b = append(b, ',')
		}
		if p == nil || len(*p) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, *p...)
		}
	}
	return append(b, "]}"...)
}

// call runs one JSON-RPC request on the private server under ctx.
func (g *gethHeavyRPC) call(ctx context.Context, body []byte) (json.RawMessage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "/", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	rec := &answerBuffer{header: http.Header{}, status: http.StatusOK}
	g.srv.ServeHTTP(rec, req)
	var answer struct {
		Result json.RawMessage `json:"result"`
		Error  *innerError     `json:"error"`
	}
	if err := json.Unmarshal(rec.body.Bytes(), &answer); err != nil {
		return nil, fmt.Errorf("gated RPC: %d %q: %w", rec.status, rec.body.String(), err)
	}
	if answer.Error != nil {
		return nil, answer.Error
	}
	return answer.Result, nil
}

// clientAddr is the caller's IP address, the scheduler's key for fairness.
func clientAddr(info rpc.PeerInfo) string {
	if host, _, err := net.SplitHostPort(info.RemoteAddr); err == nil {
		return host
	}
	return info.RemoteAddr
}

// gatedEth is the eth namespace's CPU-heavy methods in client turns.
type gatedEth struct{ g *gethHeavyRPC }

// Call is eth_call in a client turn.
func (e *gatedEth) Call(ctx context.Context, args, block, overrides, blockOverrides *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_call", args, block, overrides, blockOverrides)
}

// EstimateGas is eth_estimateGas in a client turn.
func (e *gatedEth) EstimateGas(ctx context.Context, args, block, overrides, blockOverrides *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_estimateGas", args, block, overrides, blockOverrides)
}

// CreateAccessList is eth_createAccessList in a client turn.
func (e *gatedEth) CreateAccessList(ctx context.Context, args, block, overrides *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_createAccessList", args, block, overrides)
}

// SimulateV1 is eth_simulateV1 in a client turn.
func (e *gatedEth) SimulateV1(ctx context.Context, opts, block *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_simulateV1", opts, block)
}

// CallBundle is gavel's eth_callBundle in a client turn.
func (e *gatedEth) CallBundle(ctx context.Context, args *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_callBundle", args)
}

// EstimateGasBundle is gavel's eth_estimateGasBundle in a client turn.
func (e *gatedEth) EstimateGasBundle(ctx context.Context, args *json.RawMessage) (json.RawMessage, error) {
	return e.g.forward(ctx, "eth_estimateGasBundle", args)
}

// gatedDebug is the tracers' methods in client turns.
type gatedDebug struct{ g *gethHeavyRPC }

// TraceCall is debug_traceCall in a client turn.
func (d *gatedDebug) TraceCall(ctx context.Context, args, block, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceCall", args, block, config)
}

// TraceTransaction is debug_traceTransaction in a client turn.
func (d *gatedDebug) TraceTransaction(ctx context.Context, hash, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceTransaction", hash, config)
}

// TraceBlockByNumber is debug_traceBlockByNumber in a client turn.
func (d *gatedDebug) TraceBlockByNumber(ctx context.Context, number, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceBlockByNumber", number, config)
}

// TraceBlockByHash is debug_traceBlockByHash in a client turn.
func (d *gatedDebug) TraceBlockByHash(ctx context.Context, hash, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceBlockByHash", hash, config)
}

// TraceBlock is debug_traceBlock in a client turn.
func (d *gatedDebug) TraceBlock(ctx context.Context, blob, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceBlock", blob, config)
}

// TraceBadBlock is debug_traceBadBlock in a client turn.
func (d *gatedDebug) TraceBadBlock(ctx context.Context, hash, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_traceBadBlock", hash, config)
}

// IntermediateRoots is debug_intermediateRoots in a client turn.
func (d *gatedDebug) IntermediateRoots(ctx context.Context, hash, config *json.RawMessage) (json.RawMessage, error) {
	return d.g.forward(ctx, "debug_intermediateRoots", hash, config)
}

// answerBuffer keeps the private server's answer.
type answerBuffer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answerBuffer) Header() http.Header         { return a.header }
func (a *answerBuffer) WriteHeader(status int)      { a.status = status }
func (a *answerBuffer) Write(p []byte) (int, error) { return a.body.Write(p) }

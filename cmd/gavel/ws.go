package main

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/node"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/internal/wsrpc"
)

// Bounds of --ws, the WebSocket JSON-RPC server gavel serves in place of
// geth's (internal/wsrpc).
var (
	wsMaxConnsFlag = &cli.IntFlag{
		Name:     "ws.maxconns",
		Usage:    "Most WebSocket JSON-RPC connections open at once (--ws); one more is refused with HTTP 503",
		Value:    wsrpc.DefaultMaxConns,
		Category: "API AND CONSOLE",
	}
	wsMaxSubsFlag = &cli.IntFlag{
		Name:     "ws.maxsubs",
		Usage:    "Most subscriptions (eth_subscribe) one WebSocket connection holds at once; one more is answered with error -32005",
		Value:    wsrpc.DefaultMaxSubs,
		Category: "API AND CONSOLE",
	}
)

var wsFlags = []cli.Flag{wsMaxConnsFlag, wsMaxSubsFlag}

// wsServer is --ws: the node's JSON-RPC over WebSocket on --ws.addr and
// --ws.port, within --ws.maxconns and --ws.maxsubs, served by gavel
// (geth's own WebSocket server has no such bounds, so gavel keeps it off).
// It is a node Lifecycle.
type wsServer struct {
	addr, prefix string
	handler      *wsrpc.Handler

	srv *http.Server
	l   net.Listener
}

// wsConfig reads --ws's bounds; an error names the flag.
func wsConfig(ctx *cli.Context, n *node.Config) (wsrpc.Config, error) {
	cfg := wsrpc.Config{Modules: n.WSModules, Origins: n.WSOrigins, MaxConns: ctx.Int(wsMaxConnsFlag.Name), MaxSubs: ctx.Int(wsMaxSubsFlag.Name)}
	if cfg.MaxConns < 1 {
		return cfg, fmt.Errorf("%w: --%s must be at least 1: got %d", errUsage, wsMaxConnsFlag.Name, cfg.MaxConns)
	}
	if cfg.MaxSubs < 1 {
		return cfg, fmt.Errorf("%w: --%s must be at least 1: got %d", errUsage, wsMaxSubsFlag.Name, cfg.MaxSubs)
	}
	if n.HTTPHost != "" && n.WSPort == n.HTTPPort && n.WSPort != 0 {
		return cfg, fmt.Errorf("%w: --ws.port %d is also --http.port: gavel serves WebSocket on a port of its own (bounded by --%s and --%s); give another --ws.port (8546 by default)",
			errUsage, n.WSPort, wsMaxConnsFlag.Name, wsMaxSubsFlag.Name)
	}
	return cfg, nil
}

// newWSServer serves stack's JSON-RPC methods of n.WSModules over
// WebSocket once the stack starts.
func newWSServer(stack *node.Node, n *node.Config, cfg wsrpc.Config) (*wsServer, error) {
	srv, err := stack.RPCHandler()
	if err != nil {
		return nil, err
	}
	prefix := n.WSPathPrefix
	if prefix != "" && !strings.HasPrefix(prefix, "/") {
		prefix = "/" + prefix
	}
	return &wsServer{addr: net.JoinHostPort(n.WSHost, strconv.Itoa(n.WSPort)), prefix: prefix, handler: wsrpc.NewHandler(srv, cfg)}, nil
}

// Start listens; a busy port is an error naming the flags.
func (s *wsServer) Start() error {
	l, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("WebSocket JSON-RPC on %s (--ws.addr, --ws.port): %w", s.addr, err)
	}
	s.l = l
	var h http.Handler = s.handler
	if s.prefix != "" && s.prefix != "/" {
		mux := http.NewServeMux()
		mux.Handle(strings.TrimSuffix(s.prefix, "/")+"/", http.StripPrefix(strings.TrimSuffix(s.prefix, "/"), s.handler))
		mux.Handle(strings.TrimSuffix(s.prefix, "/"), s.handler)
		h = mux
	}
	s.srv = wsrpc.Serve(l, h)
	return nil
}

// Stop closes the listener; the open connections end when the node's RPC
// server stops.
func (s *wsServer) Stop() error {
	if s.srv == nil {
		return nil
	}
	return s.srv.Close()
}

// Endpoint is the URL clients dial.
func (s *wsServer) Endpoint() string {
	if s.l == nil {
		return "ws://" + s.addr + s.prefix
	}
	return "ws://" + s.l.Addr().String() + s.prefix
}

package main

import (
	"bufio"
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/node"
)

// TestGethServersDropHalfSentHeader: geth's own HTTP server (JSON-RPC and
// WebSocket on one port) started from gavel's node defaults closes a
// connection whose request header never ends after gavel's read-header
// timeout, not geth's 30 s. The client waits at most 15 s for the close.
func TestGethServersDropHalfSentHeader(t *testing.T) {
	cfg := defaultNodeConfig()
	cfg.DataDir, cfg.IPCPath = "", ""
	cfg.HTTPHost, cfg.HTTPPort = "127.0.0.1", 0
	cfg.WSHost, cfg.WSPort = "127.0.0.1", 0 // the HTTP port: one server
	cfg.AuthPort = 0
	cfg.P2P.ListenAddr, cfg.P2P.MaxPeers, cfg.P2P.NoDiscovery, cfg.P2P.NoDial = "", 0, true, true
	stack, err := node.New(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer stack.Close()
	if err := stack.Start(); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(stack.HTTPEndpoint())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: appl")); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	// net/http answers a header timeout with a 408 (or just closes); either
	// way the read ends before the client's deadline.
	_, err = bufio.NewReader(conn).ReadString('\n')
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("geth's HTTP server still held a half-sent header after 15 s (ReadHeaderTimeout %v)", cfg.HTTPTimeouts.ReadHeaderTimeout)
	}
}

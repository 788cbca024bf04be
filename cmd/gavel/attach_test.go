package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"
)

// TestAttachFindsDevNodeWithDataDir: a --dev node with a datadir links its
// IPC socket where `gavel attach` without an endpoint looks, so attach
// finds it as it finds one without a datadir.
func TestAttachFindsDevNodeWithDataDir(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())             // no other dev node's socket
	datadir, err := os.MkdirTemp("", "datadir") // short: a socket path has at most 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(datadir)
	socket := filepath.Join(datadir, "gavel.ipc")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	srv := rpc.NewServer()
	defer srv.Stop()
	go srv.ServeListener(l)
	defer l.Close()
	if got := findDevIPC(); got != "" {
		t.Fatalf("found %q before the node linked its socket", got)
	}
	dir, err := linkDevIPC(socket)
	if err != nil {
		t.Fatal(err)
	}
	found := findDevIPC()
	if found == "" || filepath.Dir(found) != dir {
		t.Fatalf("attach found %q, want the link in %s", found, dir)
	}
	os.RemoveAll(dir) // what the node does when it stops
	if got := findDevIPC(); got != "" {
		t.Fatalf("found %q after the node removed its link", got)
	}
}

// TestAttachFlagAfterEndpoint: a flag after the endpoint is refused with
// where flags go, not counted as one more endpoint.
func TestAttachFlagAfterEndpoint(t *testing.T) {
	_, errOut, code := gavel(t, "attach", "/tmp/nowhere.ipc", "--exec", "eth.chainId()")
	if code == 0 || !strings.Contains(errOut, `"--exec" comes after the endpoint: flags go before it (gavel attach [flags] /tmp/nowhere.ipc)`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

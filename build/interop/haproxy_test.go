package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestHAProxyConfig: HAProxy accepts the load balancer's configuration
// (skipped where haproxy is not installed outside CI; build/haproxy/install.sh
// installs it, and .ci/run does before the tests).
func TestHAProxyConfig(t *testing.T) {
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		if bin, err = exec.LookPath("/usr/sbin/haproxy"); err != nil {
			if os.Getenv("CI") == "true" { // .ci/run installs it before the tests
				t.Fatal("no haproxy: build/haproxy/install.sh installs it")
			}
			t.Skip("no haproxy (build/haproxy/install.sh installs it)")
		}
	}
	f := filepath.Join(t.TempDir(), "haproxy.cfg")
	os.WriteFile(f, []byte(haproxyConfig(18080, []*instance{{name: "a", mev: 18081}, {name: "b", mev: 18082}})), 0o600)
	if out, err := exec.Command(bin, "-c", "-f", f).CombinedOutput(); err != nil {
		t.Fatalf("haproxy -c: %v\n%s", err, out)
	}
}

// TestLBLogBySlot: the request log is grouped by slot as Lodestar sends its
// calls (a slot's signed blinded block after that slot's getHeader), and
// HAProxy's own lines (server state changes) are skipped.
func TestLBLogBySlot(t *testing.T) {
	f := filepath.Join(t.TempDir(), "haproxy.log")
	os.WriteFile(f, []byte(`req a 200 GET /eth/v1/builder/status
req b 200 GET /eth/v1/builder/header/9/0xp/0xk
req a 200 POST /eth/v1/builder/blinded_blocks
[WARNING]  (1) : Server relays/b is DOWN, reason: Layer4 connection problem
req a 202 POST /relay/v1/builder/blocks
req a 204 GET /eth/v1/builder/header/10/0xp/0xk
req a 200 GET /eth/v1/builder/header/10/0xp/0xk
req a 200 POST /eth/v1/builder/blinded_blocks
`), 0o644)
	l := &lbLog{file: f}
	l.read()
	if len(l.reqs) != 7 {
		t.Fatalf("%d requests, want 7: %+v", len(l.reqs), l.reqs)
	}
	if s, ok := l.firstHeaderSlotAfter(0); !ok || s != 9 {
		t.Fatalf("first header slot %d %v, want 9", s, ok)
	}
	by := l.bySlot()
	if s := by[9]; s == nil || len(s.headers) != 1 || s.headers[0].server != "b" || len(s.payloads) != 1 || s.payloads[0].server != "a" {
		t.Fatalf("slot 9: %+v", by[9])
	}
	if s := by[10]; s == nil || len(s.headers) != 2 || s.headers[0].status != 204 || len(s.payloads) != 1 {
		t.Fatalf("slot 10: %+v", by[10])
	}
}

package relayapi_test

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestKnownBuilderReserve: builder keys cost nothing, so an attacker signs
// with fresh ones from many connections and fills the general share of the
// body budget with stalled submissions. A builder with a recent accepted
// bid still gets its submission in (200), from the reserve; a builder the
// relay does not know is refused (503) like the attacker. A builder becomes
// known with its first accepted bid and stops being known after
// relay.KnownBuilderSlots slots.
func TestKnownBuilderReserve(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	const budget = 16 << 20
	// No minimum rate and no read timeout to speak of: the stalled bodies
	// stay until the attack ends (no timing in this test).
	cfg := mevapi.Config{Addr: "127.0.0.1:0", BodyBudget: budget, BodyBudgetPerIP: budget, MaxConns: 16, MaxConnsPerIP: 16,
		BodyGrace: time.Hour, ReadTimeout: time.Hour}
	srv := startListener(t, e, cfg)
	addr := strings.TrimPrefix(srv.URL(), "http://")
	gzipped := map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}

	known := e.BuilderKey
	if e.Relay.KnownBuilder(known.PublicKey(), 1) {
		t.Fatal("a builder is known before any bid of it was accepted")
	}
	first, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(first), gzipped); code != http.StatusOK {
		t.Fatalf("first submission: %d %s", code, out)
	}
	if !e.Relay.KnownBuilder(known.PublicKey(), 1) {
		t.Fatal("a builder is not known after its bid was accepted")
	}

	// The attacker: valid bid traces signed with its own fresh keys, then
	// zeros, each body announced 15 MiB long and stalled after a number of
	// 64 KiB chunks chosen so that together they fill the general share to
	// within less than one chunk.
	signedBy := func(label string) []byte {
		ikm := sha256.Sum256([]byte(label))
		k, err := beacon.DeriveSecretKey(ikm[:])
		if err != nil {
			t.Fatal(err)
		}
		e.BuilderKey = k
		defer func() { e.BuilderKey = known }()
		raw, _ := e.Submission(e.BuildBlock(1, 2, nil)).MarshalSSZ()
		return raw
	}
	const chunk = 64 << 10
	chunks := int(srv.GeneralBodyShare() / chunk)
	const stallers = 4
	var wg sync.WaitGroup
	defer wg.Wait()
	conns := make(chan net.Conn, stallers)
	defer func() {
		close(conns)
		for c := range conns {
			c.Close()
		}
	}()
	for i := range stallers {
		held := chunks / stallers
		if i == stallers-1 {
			held = chunks - held*(stallers-1)
		}
		// The reader reserves a chunk before it reads into it: a body of
		// (held-1) full chunks holds held of them while it waits for more.
		body := make([]byte, (held-1)*chunk)
		copy(body, signedBy(fmt.Sprint("attacker ", i))[:beacon.SubmissionPrefixLen])
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns <- c
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", relayapi.PathBuilderBlocks, relayapi.DefaultMaxSubmissionBytes)
		c.Write(body)
		wg.Add(1)
		go func() { // the answer comes once the test closes the connection
			defer wg.Done()
			if res, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				io.Copy(io.Discard, res.Body)
				t.Errorf("a stalled attacker got an answer while it stalled: %d", res.StatusCode)
			}
		}()
	}
	full := int64(chunks) * chunk
	waitUntil(t, func() bool { return srv.BodyBytesInFlight() == full })

	unknown := signedBy("an honest builder without a track record")
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(unknown), gzipped); code != http.StatusServiceUnavailable {
		t.Errorf("unknown builder with the general share full: %d %s, want 503", code, out)
	}
	second, _ := e.Submission(e.BuildBlock(1, 2, nil)).MarshalSSZ()
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(second), gzipped); code != http.StatusOK {
		t.Errorf("known builder with the general share full: %d %s, want 200", code, out)
	}
	// A small body (announced at most 64 KiB) uses the headroom, whoever
	// sent it: an unknown builder's small uncompressed submission passes.
	if len(unknown) > 64<<10 {
		t.Fatalf("the unknown builder's submission is %d bytes, want a small body", len(unknown))
	}
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, unknown, map[string]string{"Content-Type": "application/octet-stream"}); code != http.StatusAccepted {
		// (202: the same value as the known builder's bid, at the floor.)
		t.Errorf("unknown builder's small uncompressed submission with the general share full: %d %s, want 202", code, out)
	}
	if n := srv.BodyBytesInFlight(); n != full {
		t.Errorf("%d body bytes in flight after the honest submissions, want the attackers' %d", n, full)
	}

	// The window: known for KnownBuilderSlots slots after its last bid.
	if !e.Relay.KnownBuilder(known.PublicKey(), 1+relay.KnownBuilderSlots) {
		t.Errorf("builder not known %d slots after its bid", relay.KnownBuilderSlots)
	}
	if e.Relay.KnownBuilder(known.PublicKey(), 2+relay.KnownBuilderSlots) {
		t.Errorf("builder still known %d slots after its bid", relay.KnownBuilderSlots+1)
	}
}

// waitUntil polls cond until it holds (a safety net of 20 s, not a timing
// assertion).
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

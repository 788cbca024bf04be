package relayapi_test

import (
	"bufio"
	"context"
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
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestKnownBuilderReserve: builder keys cost nothing, so an attacker signs
// with fresh ones from many connections and fills the general share of the
// body budget with stalled submissions. A builder with a recent accepted
// bid still gets its submission in (200), from the reserve, as SSZ and as
// JSON that sends its signature before its payload; a builder the relay
// does not know is refused (503) like the attacker, and so is a JSON
// submission with its signature last (its sender is not known before the
// whole body is in). A builder becomes known with its first accepted bid
// and stops being known after relay.KnownBuilderSlots slots.
func TestKnownBuilderReserve(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	srv := floodListener(t, e)
	gzipped := map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}
	gzippedJSON := map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}

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
	full := fillGeneralShare(t, e, srv)

	unknown := signedBy(t, e, "an honest builder without a track record", func(s *beacon.Submission) []byte { raw, _ := s.MarshalSSZ(); return raw })
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(unknown), gzipped); code != http.StatusServiceUnavailable {
		t.Errorf("unknown builder with the general share full: %d %s, want 503", code, out)
	}
	second := e.Submission(e.BuildBlock(1, 2, nil))
	raw, _ := second.MarshalSSZ()
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(raw), gzipped); code != http.StatusOK {
		t.Errorf("known builder with the general share full: %d %s, want 200", code, out)
	}
	// JSON: the reserve once the signature, sent before the payload, verified.
	third := e.Submission(e.BuildBlock(1, 3, nil))
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(jsonSignatureFirst(t, third)), gzippedJSON); code != http.StatusOK {
		t.Errorf("known builder's JSON (signature first) with the general share full: %d %s, want 200", code, out)
	}
	last, _ := beacon.MarshalJSONCompact(e.Submission(e.BuildBlock(1, 4, nil)).Fulu)
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(last), gzippedJSON); code != http.StatusServiceUnavailable {
		t.Errorf("known builder's JSON (signature last) with the general share full: %d %s, want 503 (not told apart before the whole body is in)", code, out)
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

// TestHighPriorityBuilderReserve: a new builder, with no accepted bid yet,
// that the operator marked high-priority in the database gets its
// submission in (SSZ and JSON, signature first) while fresh-key stalled
// submissions fill the general share; a blocked builder is refused at its
// first bytes, whatever its track record.
func TestHighPriorityBuilderReserve(t *testing.T) {
	st, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	newcomer, blocked := builderKey(t, "a new builder the operator vouches for"), builderKey(t, "a builder the operator blocked")
	for k, status := range map[*beacon.SecretKey]string{newcomer: store.BuilderHighPriority, blocked: store.BuilderBlocked} {
		if err := st.SetBuilderStatus(context.Background(), store.BuilderStatus{Pubkey: k.PublicKey(), Status: status}); err != nil {
			t.Fatal(err)
		}
	}
	e := relaytest.New(t, relaytest.Options{Store: st}) // reads the statuses as it starts
	srv := floodListener(t, e)
	fillGeneralShare(t, e, srv)
	e.BuilderKey = newcomer
	raw, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(raw), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}); code != http.StatusOK {
		t.Errorf("high-priority builder with the general share full: %d %s, want 200", code, out)
	}
	js := jsonSignatureFirst(t, e.Submission(e.BuildBlock(1, 2, nil)))
	if code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(js), map[string]string{"Content-Type": "application/json", "Content-Encoding": "gzip"}); code != http.StatusOK {
		t.Errorf("high-priority builder's JSON with the general share full: %d %s, want 200", code, out)
	}
	e.BuilderKey = blocked
	raw, _ = e.Submission(e.BuildBlock(1, 3, nil)).MarshalSSZ()
	code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"})
	if code != http.StatusBadRequest || !strings.Contains(errorMessage(t, out), "blocked by the relay's operator") {
		t.Errorf("blocked builder: %d %s, want 400 naming the block", code, out)
	}
}

// floodListener starts a listener with a 16 MiB body budget, no minimum
// rate and no read timeout to speak of: stalled bodies stay until the test
// ends (no timing in these tests).
func floodListener(t *testing.T, e *relaytest.Env) *mevapi.Server {
	const budget = 16 << 20
	cfg := mevapi.Config{Addr: "127.0.0.1:0", BodyBudget: budget, BodyBudgetPerIP: budget, MaxConns: 16, MaxConnsPerIP: 16,
		BodyGrace: time.Hour, ReadTimeout: time.Hour}
	return startListener(t, e, cfg)
}

// builderKey derives a builder key from label.
func builderKey(t *testing.T, label string) *beacon.SecretKey {
	ikm := sha256.Sum256([]byte(label))
	k, err := beacon.DeriveSecretKey(ikm[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// signedBy is a slot 1 submission signed with a fresh builder key, encoded.
func signedBy(t *testing.T, e *relaytest.Env, label string, encode func(*beacon.Submission) []byte) []byte {
	own := e.BuilderKey
	e.BuilderKey = builderKey(t, label)
	defer func() { e.BuilderKey = own }()
	return encode(e.Submission(e.BuildBlock(1, 2, nil)))
}

// jsonSignatureFirst encodes sub as JSON with its signature right after
// its message, before the payload.
func jsonSignatureFirst(t *testing.T, sub *beacon.Submission) []byte {
	raw, err := sub.MarshalJSONSignatureFirst()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// fillGeneralShare is the attacker: valid bid traces signed with its own
// fresh keys, then zeros, each body announced 15 MiB long and stalled
// after a number of 64 KiB chunks chosen so that together they fill the
// general share to within less than one chunk. It returns the bytes they
// hold; they hold them until the test ends.
func fillGeneralShare(t *testing.T, e *relaytest.Env, srv *mevapi.Server) int64 {
	addr := strings.TrimPrefix(srv.URL(), "http://")
	const chunk = 64 << 10
	chunks := int(srv.GeneralBodyShare() / chunk)
	const stallers = 4
	var wg sync.WaitGroup
	conns := make(chan net.Conn, stallers)
	t.Cleanup(func() {
		close(conns)
		for c := range conns {
			c.Close()
		}
		wg.Wait()
	})
	for i := range stallers {
		held := chunks / stallers
		if i == stallers-1 {
			held = chunks - held*(stallers-1)
		}
		// The reader reserves a chunk before it reads into it: a body of
		// (held-1) full chunks holds held of them while it waits for more.
		body := make([]byte, (held-1)*chunk)
		copy(body, signedBy(t, e, fmt.Sprint("attacker ", i), func(s *beacon.Submission) []byte { raw, _ := s.MarshalSSZ(); return raw })[:beacon.SubmissionPrefixLen])
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
	return full
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

// TestGzipPrefixWithoutTurn: a gzip submission's first bytes, which name
// its builder, are inflated without a turn of the CPU gate, so it is told
// apart (and leaves the reserve, or is refused) as soon as they arrive,
// even while every turn is taken: here a submission for a past slot is
// answered 400 with all turns held (it used to wait for a turn).
func TestGzipPrefixWithoutTurn(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	srv := mevapi.New(mevapi.Config{Addr: "127.0.0.1:0"}, nil)
	release := make(chan struct{})
	srv.Handle("POST /hold", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mevapi.AccountOf(r).Heavy(1, func() { <-release })
	}))
	relayapi.MountBuilder(srv, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(srv, e.Relay)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	registerHTTP(t, e, srv.URL(), true)
	raw, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	e.Relay.SetHeadSlot(1) // slot 1 is past now
	var held sync.WaitGroup
	for range srv.HeavyWork().Size {
		held.Add(1)
		go func() {
			defer held.Done()
			do(t, "POST", srv.URL()+"/hold", []byte("x"), nil)
		}()
	}
	waitUntil(t, func() bool { return srv.HeavyWork().Busy == srv.HeavyWork().Size })
	defer held.Wait()
	defer close(release)
	code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(raw), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"})
	if code != http.StatusBadRequest || !strings.Contains(errorMessage(t, out), "past slot") {
		t.Fatalf("past-slot gzip submission with every CPU turn taken: %d %s, want 400 at once", code, out)
	}
}

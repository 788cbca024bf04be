package mevapi

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/internal/sched"
)

// TestCPUGateLeastWorkFirst: with the scheduler's one turn taken, a
// client that has had no turn yet gets the next turn before one that
// already inflated for long, whatever their arrival order.
func TestCPUGateLeastWorkFirst(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: time.Hour})
	hold, _ := sc.Take(context.Background(), sched.Request{Client: "x"})
	order := make(chan string, 2)
	for i, w := range []struct {
		name string
		done time.Duration
	}{{"attacker", time.Second}, {"fresh", 0}} {
		turns := &cpuTurns{s: sc, client: w.name, done: w.done, until: time.Now().Add(time.Hour)}
		go func() {
			turns.take()
			order <- w.name
			turns.give()
		}()
		waitFor(t, func() bool { return sc.Stats().Waiting == i+1 })
	}
	if st := sc.Stats(); st.Busy != 1 || st.Peak != 1 {
		t.Fatalf("scheduler of one turn: %+v", st)
	}
	hold.Release()
	if first, second := <-order, <-order; first != "fresh" || second != "attacker" {
		t.Fatalf("turns went to %s then %s, want the request with the least work first", first, second)
	}
	if st := sc.Stats(); st.Busy != 0 || st.Waiting != 0 {
		t.Fatalf("after all turns: %+v", st)
	}
}

// TestCPUGateWaitEnds: a request whose read timeout passes while it waits
// for a turn gives up its place (ErrSlowBody, 408, while reading; ErrBusy,
// 503, for decoding a body already read) instead of waiting behind fresher
// requests for ever.
func TestCPUGateWaitEnds(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: time.Hour})
	hold, _ := sc.Take(context.Background(), sched.Request{})
	late := &cpuTurns{s: sc, until: time.Now().Add(-time.Millisecond)}
	if err := late.take(); !errors.Is(err, ErrSlowBody) {
		t.Fatalf("a turn waited for past the read timeout: %v, want ErrSlowBody", err)
	}
	if st := sc.Stats(); st.Waiting != 0 || st.Busy != 1 {
		t.Fatalf("after the timeout: %+v, want nobody waiting and the first turn still held", st)
	}
	// Decoding a large body that gets no turn in time does not run (503).
	h := http.Header{}
	a := &Account{resp: h, cpu: late}
	ran := false
	if err := a.Heavy(1<<20, func() { ran = true }); ran || BodyStatus(err) != http.StatusServiceUnavailable || h.Get("Connection") != "close" {
		t.Fatalf("Heavy with no turn before the read timeout: ran %v, %v, Connection %q; want not run, 503, closed", ran, err, h.Get("Connection"))
	}
	hold.Release()
	if st := sc.Stats(); st.Busy != 0 {
		t.Fatalf("after the release: %+v", st)
	}
}

// TestRunWaitsAtMostTheSchedulerWait: a request's work (a simulation, a
// JSON-RPC call) waits for a turn at most the scheduler's wait, even with
// a longer read timeout, and is then answered 503 "server busy" naming
// the wait.
func TestRunWaitsAtMostTheSchedulerWait(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: 10 * time.Millisecond})
	hold, _ := sc.Take(context.Background(), sched.Request{})
	defer hold.Release()
	a := &Account{resp: http.Header{}, cpu: &cpuTurns{s: sc, until: time.Now().Add(time.Hour)}}
	ran := false
	err := a.Run(context.Background(), 1, func(context.Context) { ran = true })
	if ran || BodyStatus(err) != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "no CPU turn within 10ms") {
		t.Fatalf("Run with the turn held: ran %v, %v; want not run, 503 naming the wait", ran, err)
	}
}

// TestClientWorkAndCriticalWork: a route served as client work waits for
// a turn while the node's slot work runs and gets 503 with Retry-After at
// the scheduler's wait; a critical route runs at once and holds the mark
// while it runs.
func TestClientWorkAndCriticalWork(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: 20 * time.Millisecond})
	s := New(Config{}, nil, WithScheduler(sc))
	var during sched.Stats
	s.Handle("GET /data", s.ClientWork(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		during = sc.Stats()
		WriteJSON(w, http.StatusOK, "ok")
	})))
	s.Handle("GET /header", s.CriticalWork(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		during = sc.Stats()
	})))
	h := s.Handler()
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	if rec := get("/data"); rec.Code != http.StatusOK || during.Busy != 1 {
		t.Fatalf("client work on an idle scheduler: %d, %+v during it; want 200 in a turn", rec.Code, during)
	}
	if rec := get("/header"); rec.Code != http.StatusOK || during.Critical != 1 || sc.Stats().Critical != 0 {
		t.Fatalf("critical work: %d, %+v during it; want the mark held while it ran", rec.Code, during)
	}
	done := sc.Critical()
	rec := get("/data")
	done()
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" || !strings.Contains(rec.Body.String(), "server busy") {
		t.Fatalf("client work while slot work runs past the wait: %d %q, want 503 server busy with Retry-After", rec.Code, rec.Body.String())
	}
}

// TestInflationTakesTurns is the CPU side of the gzip attacks: inflating
// happens in turns of the gate (a gate of one turn here), and a client
// that stalls in the middle of its gzip stream does not keep the turn while
// the server waits for its bytes: another client's body is inflated and
// answered meanwhile.
func TestInflationTakesTurns(t *testing.T) {
	in := make(chan struct{}, 4)
	s := startServer(t, Config{MaxBodyBytes: 1 << 20, BodyGrace: 1 << 40, MinBodyRate: 1}, nil, func(s *Server) {
		s.sched = sched.New(sched.Config{Turns: 1})
		s.Handle("POST /inflate", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			acct := AccountOf(r)
			network, cpu := acct.Inflating()
			zr, err := gzip.NewReader(network(r.Body))
			if err != nil {
				WriteError(w, http.StatusBadRequest, err.Error())
				return
			}
			onPrefix := func([]byte) error { in <- struct{}{}; return nil }
			body, err := ReadAll(acct, cpu(zr), 64<<20, -1, 1, onPrefix, func() error { return ErrBodyTooLarge })
			if err != nil {
				WriteError(w, BodyStatus(err), err.Error())
				return
			}
			WriteJSON(w, http.StatusOK, len(body))
		}))
	})
	addr := strings.TrimPrefix(s.URL(), "http://")
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	for i := range 8 << 20 { // 8 MiB that do not compress to nothing
		zw.Write([]byte{byte(i * 7919 >> 8)})
	}
	zw.Close()
	stream := z.Bytes()

	stalled := dialFrom(t, "127.0.0.2", addr)
	fmt.Fprintf(stalled, "POST /inflate HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", len(stream))
	stalled.Write(stream[:len(stream)/2])
	<-in // its inflation started; it will wait for the second half

	honest := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(honest, "POST /inflate HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", len(stream))
	honest.Write(stream)
	if code, body := status(t, honest); code != http.StatusOK || strings.TrimSpace(body) != fmt.Sprint(8<<20) {
		t.Fatalf("a body inflated while another client stalls mid-stream: %d %s", code, body)
	}
	st := s.HeavyWork()
	if st.Peak != 1 || st.Work < 8<<20 {
		t.Fatalf("gate after one whole inflation: %+v, want at most one turn at once and 8 MiB inflated in turns", st)
	}
	stalled.Write(stream[len(stream)/2:])
	if code, _ := status(t, stalled); code != http.StatusOK {
		t.Fatalf("the stalled client, once its bytes came: %d", code)
	}
}

// TestVouchPendingTurns: while a request's sender is being checked, a CPU
// turn free at once is taken; one that must be waited for is waited for
// only once the check ended, and a verified sender then goes ahead of
// the clients already waiting.
func TestVouchPendingTurns(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: time.Hour})
	a := &Account{b: newBudget(1<<20, 1<<20, time.Hour), ip: "builder", ctx: context.Background(), resp: http.Header{},
		cpu: &cpuTurns{s: sc, client: "builder", until: time.Now().Add(time.Hour)}}
	done := make(chan struct{})
	a.VouchPending(done, func() bool { return true })
	if err := a.cpu.take(); err != nil {
		t.Fatalf("a free turn while the check runs: %v", err)
	}
	a.cpu.give()

	hold, _ := sc.Take(context.Background(), sched.Request{Client: "holder"})
	other := make(chan struct{})
	go func() { // another client, waiting before the builder
		turn, err := sc.Take(context.Background(), sched.Request{Client: "other"})
		if err == nil {
			turn.Release()
		}
		close(other)
	}()
	for sc.Stats().Waiting == 0 {
		runtime.Gosched()
	}
	got := make(chan error, 1)
	go func() { got <- a.cpu.take() }()
	for range 100 {
		runtime.Gosched()
	}
	if n := sc.Stats().Waiting; n != 1 {
		t.Fatalf("%d waiting while the builder's check runs, want 1 (the builder waits for the check, not in the queue)", n)
	}
	close(done)
	for sc.Stats().Waiting != 2 {
		runtime.Gosched()
	}
	hold.Release()
	if err := <-got; err != nil {
		t.Fatalf("the verified builder's turn: %v", err)
	}
	select {
	case <-other:
		t.Fatal("the client waiting first had its turn before the verified builder")
	default:
	}
	a.cpu.give()
	<-other
}

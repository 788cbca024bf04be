package mevapi

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestCPUGateLeastWorkFirst: with the gate taken, a request that has done
// no work yet gets the next turn before one that already inflated
// megabytes, whatever their arrival order.
func TestCPUGateLeastWorkFirst(t *testing.T) {
	g := newCPUGate(1)
	g.acquire(0, time.Time{})
	order := make(chan string, 2)
	for i, w := range []struct {
		name string
		done int64
	}{{"attacker", 10 << 20}, {"fresh", 0}} {
		go func() {
			g.acquire(w.done, time.Time{})
			order <- w.name
			g.release()
		}()
		waitFor(t, func() bool { return g.stats().Waiting == i+1 })
	}
	if st := g.stats(); st.Busy != 1 || st.Peak != 1 {
		t.Fatalf("gate of one turn: %+v", st)
	}
	g.release()
	if first, second := <-order, <-order; first != "fresh" || second != "attacker" {
		t.Fatalf("turns went to %s then %s, want the request with the least work first", first, second)
	}
	if st := g.stats(); st.Busy != 0 || st.Waiting != 0 {
		t.Fatalf("after all turns: %+v", st)
	}
}

// TestCPUGateWaitEnds: a request whose read timeout passes while it waits
// for a turn gives up its place (ErrSlowBody, 408, while reading; ErrBusy,
// 503, for decoding a body already read) instead of waiting behind fresher
// requests for ever.
func TestCPUGateWaitEnds(t *testing.T) {
	g := newCPUGate(1)
	g.acquire(0, time.Time{})
	late := &cpuTurns{g: g, until: time.Now().Add(-time.Millisecond)}
	if err := late.take(); !errors.Is(err, ErrSlowBody) {
		t.Fatalf("a turn waited for past the read timeout: %v, want ErrSlowBody", err)
	}
	if st := g.stats(); st.Waiting != 0 || st.Busy != 1 {
		t.Fatalf("after the timeout: %+v, want nobody waiting and the first turn still held", st)
	}
	// Decoding a large body that gets no turn in time does not run (503).
	h := http.Header{}
	a := &Account{resp: h, cpu: late}
	ran := false
	if err := a.Heavy(1<<20, func() { ran = true }); ran || BodyStatus(err) != http.StatusServiceUnavailable || h.Get("Connection") != "close" {
		t.Fatalf("Heavy with no turn before the read timeout: ran %v, %v, Connection %q; want not run, 503, closed", ran, err, h.Get("Connection"))
	}
	g.release()
	if st := g.stats(); st.Busy != 0 {
		t.Fatalf("after the release: %+v", st)
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
		s.cpu = newCPUGate(1)
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

package mevapi

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// heldServer serves POST /held: the handler starts reading only after
// held, and waits held/4 between 4 KiB reads, as a handler whose goroutine
// is starved of CPU (or waits for its turn) does while the client's bytes
// are already buffered.
func heldServer(t *testing.T, cfg Config, held time.Duration) string {
	t.Helper()
	s := startServer(t, cfg, nil, func(s *Server) {
		s.Handle("POST /held", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(held)
			buf := make([]byte, 4<<10)
			total := 0
			for {
				n, err := io.ReadFull(r.Body, buf)
				total += n
				if err == io.EOF || err == io.ErrUnexpectedEOF {
					break
				}
				if err != nil {
					WriteError(w, BodyStatus(err), err.Error())
					return
				}
				time.Sleep(held / 4)
			}
			WriteJSON(w, http.StatusOK, total)
		}))
	})
	return strings.TrimPrefix(s.URL(), "http://")
}

// TestMinimumBodyRateStarvedServer is issue 25's item 4: a client that
// sent its 23 KB body at once is not cut by the minimum rate when the
// server reads it late; only the time the reader waited for bytes counts.
func TestMinimumBodyRateStarvedServer(t *testing.T) {
	cfg := Config{MaxBodyBytes: 1 << 20, MinBodyRate: 64 << 10, BodyGrace: 50 * time.Millisecond, ReadTimeout: time.Hour}
	addr := heldServer(t, cfg, 400*time.Millisecond)
	c := dialFrom(t, "127.0.0.1", addr)
	fmt.Fprintf(c, "POST /held HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", 23_000)
	if _, err := c.Write(make([]byte, 23_000)); err != nil {
		t.Fatal(err)
	}
	if code, body := status(t, c); code != http.StatusOK || strings.TrimSpace(body) != "23000" {
		t.Fatalf("body sent at once, read late: %d %s, want 200 23000", code, body)
	}
}

// TestMinimumBodyRateTrickle: a client that trickles a byte every 20 ms is
// still cut soon after its allowance (grace, then the rate) is used up,
// though each of its reads waits less than the slack a read is given.
func TestMinimumBodyRateTrickle(t *testing.T) {
	cfg := Config{MaxBodyBytes: 1 << 20, MinBodyRate: 1 << 20, BodyGrace: 50 * time.Millisecond, ReadTimeout: time.Hour}
	s, addr := readingServer(t, cfg, 0, nil)
	c := dialFrom(t, "127.0.0.1", addr)
	startBody(t, c, 1<<20, 1)
	t0 := time.Now()
	go func() {
		for time.Since(t0) < 10*time.Second {
			if _, err := c.Write([]byte{0}); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	code, body := status(t, c)
	if code != http.StatusRequestTimeout || !strings.Contains(body, "minimum transfer rate") {
		t.Fatalf("trickled body: %d %s, want 408", code, body)
	}
	if took := time.Since(t0); took > 5*time.Second {
		t.Fatalf("trickled body cut after %s, want about its 50 ms grace", took)
	}
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 0 })
}

package mevapi

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// dialFrom opens a TCP connection to addr from the loopback address from
// (127.0.0.2, ... are all loopback on Linux), so one test can be several
// client IPs.
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	c.SetDeadline(time.Now().Add(20 * time.Second)) // a safety net, not a timing assertion
	t.Cleanup(func() { c.Close() })
	return c
}

// readingServer serves POST /read: the handler reads the body with
// ReadBody, calling at (if set) once the first prefix bytes are in.
func readingServer(t *testing.T, cfg Config, prefix int, at func()) (*Server, string) {
	t.Helper()
	s := startServer(t, cfg, nil, func(s *Server) {
		s.Handle("POST /read", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var onPrefix func([]byte) error
			if at != nil {
				onPrefix = func([]byte) error { at(); return nil }
			}
			tooLarge := func() error { return ErrBodyTooLarge }
			body, err := ReadAll(AccountOf(r), r.Body, cfg.MaxBodyBytes, r.ContentLength, prefix, onPrefix, tooLarge)
			if err != nil {
				WriteError(w, BodyStatus(err), err.Error())
				return
			}
			WriteJSON(w, http.StatusOK, len(body))
		}))
	})
	return s, strings.TrimPrefix(s.URL(), "http://")
}

// startBody sends the headers of a POST /read announcing size bytes, then
// the first n bytes of the body.
func startBody(t *testing.T, c net.Conn, size, n int) {
	t.Helper()
	fmt.Fprintf(c, "POST /read HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
	if _, err := c.Write(make([]byte, n)); err != nil {
		t.Fatal(err)
	}
}

func status(t *testing.T, c net.Conn) (int, string) {
	t.Helper()
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestBufferGrowsWithBytesReceived is finding 1's second attack: a body
// announced at 15 MiB of which 1 KiB arrives must hold one 64 KiB chunk of
// buffer, not 15 MiB.
func TestBufferGrowsWithBytesReceived(t *testing.T) {
	in := make(chan struct{}, 1)
	s, addr := readingServer(t, Config{MaxBodyBytes: 16 << 20}, 1024, func() { in <- struct{}{} })
	c := dialFrom(t, "127.0.0.1", addr)
	startBody(t, c, 15<<20, 1024)
	<-in
	if got := s.BodyBytesInFlight(); got > readChunk {
		t.Fatalf("1 KiB received of 15 MiB announced holds %d bytes, want at most %d", got, readChunk)
	}
	c.Close()
}

// TestBodyBudget fills the budget with one stalled client and checks that
// the next body waits, then is refused (429 for the same IP, 503 when the
// total is spent), that another IP still gets through, and that the budget
// is whole again once the requests end.
func TestBodyBudget(t *testing.T) {
	in := make(chan struct{}, 4)
	// Per IP: 127.0.0.2 holds one 64 KiB chunk (40 KiB received) of its
	// 100 KiB share.
	cfg := Config{MaxBodyBytes: 1 << 20, BodyBudget: 1 << 20, BodyBudgetPerIP: 100 << 10, BudgetWait: 20 * time.Millisecond}
	s, addr := readingServer(t, cfg, 40<<10, func() { in <- struct{}{} })
	hog := dialFrom(t, "127.0.0.2", addr)
	startBody(t, hog, 1<<20, 40<<10)
	<-in
	if got := s.BodyBytesInFlight(); got != readChunk {
		t.Fatalf("in flight %d, want one chunk", got)
	}
	again := dialFrom(t, "127.0.0.2", addr)
	startBody(t, again, 100<<10, 100<<10)
	if code, body := status(t, again); code != http.StatusTooManyRequests || !strings.Contains(body, "from this IP address") {
		t.Fatalf("second body from the hog's IP: %d %s, want 429", code, body)
	}
	honest := dialFrom(t, "127.0.0.1", addr)
	startBody(t, honest, 30<<10, 30<<10)
	if code, body := status(t, honest); code != http.StatusOK {
		t.Fatalf("honest body during the hog: %d %s", code, body)
	}
	hog.Close()
	// The hog's handler returns once its read fails; its bytes come back.
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 0 })

	// In total: a hog holding 64 KiB leaves room for a 30 KiB body but not
	// for a 100 KiB one (two chunks, then its copy).
	// (3 connections set aside 3 connOverhead of the budget: 224 KiB are
	// left for bodies, the last 28 KiB of it for small ones.)
	cfg = Config{MaxBodyBytes: 1 << 20, BodyBudget: 224<<10 + 3*connOverhead, MaxConns: 3, BudgetWait: 20 * time.Millisecond}
	s, addr = readingServer(t, cfg, 40<<10, func() { in <- struct{}{} })
	hog = dialFrom(t, "127.0.0.2", addr)
	startBody(t, hog, 1<<20, 40<<10)
	<-in
	honest = dialFrom(t, "127.0.0.1", addr)
	startBody(t, honest, 30<<10, 30<<10)
	if code, body := status(t, honest); code != http.StatusOK {
		t.Fatalf("honest body within the total: %d %s", code, body)
	}
	big := dialFrom(t, "127.0.0.3", addr)
	startBody(t, big, 100<<10, 100<<10)
	if code, body := status(t, big); code != http.StatusServiceUnavailable || !strings.Contains(body, "memory budget") {
		t.Fatalf("body over the total budget: %d %s, want 503", code, body)
	}
	hog.Close()
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 0 })
}

// TestSmallBodyHeadroom is the honest-request side of the many-address
// attacks: large bodies fill all the budget they may, and a small body
// (announced at most 64 KiB, as a registration or a JSON-RPC call) still
// gets through, while another large one is refused with 503 and a closed
// connection (not left to net/http's drain of the rest of its body).
func TestSmallBodyHeadroom(t *testing.T) {
	in := make(chan struct{}, 1)
	// 8 connections set aside 8 connOverhead: 1 MiB is left for bodies, of
	// which the last 128 KiB only for small ones and a quarter of the rest
	// (224 KiB) only for known builders: 672 KiB for large bodies.
	cfg := Config{MaxBodyBytes: 4 << 20, BodyBudget: 1<<20 + 8*connOverhead, MaxConns: 8, BudgetWait: 20 * time.Millisecond}
	s, addr := readingServer(t, cfg, 1, func() { in <- struct{}{} })
	hog := dialFrom(t, "127.0.0.2", addr)
	startBody(t, hog, 2<<20, 600<<10) // 10 chunks: the general share, to 32 KiB
	<-in
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 10*readChunk })

	// Another large body, slow to come: it may not take the headroom, so it
	// is refused at once (without the headroom it would take a chunk and
	// wait for its bytes until the minimum rate cut it: 408).
	big := dialFrom(t, "127.0.0.3", addr)
	startBody(t, big, 1<<20, 10<<10)
	res, err := http.ReadResponse(bufio.NewReader(big), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusServiceUnavailable || !res.Close {
		t.Fatalf("a large body with the budget full: %d (close %v), want 503 and the connection closed", res.StatusCode, res.Close)
	}
	honest := dialFrom(t, "127.0.0.1", addr)
	startBody(t, honest, 60<<10, 60<<10)
	if code, body := status(t, honest); code != http.StatusOK {
		t.Fatalf("a small body with the large ones' share full: %d %s", code, body)
	}
	hog.Close()
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 0 })
}

// TestBudgetGrantsInOrder: when bytes come back, the waiting reservations
// they fit are granted in arrival order and the others keep waiting,
// parked (before, every release woke every waiter to retry: a thousand
// goroutines at once in the 1,000-connection attack).
func TestBudgetGrantsInOrder(t *testing.T) {
	b := newBudget(10<<10, 10<<10, time.Hour)
	if err := b.reserve(context.Background(), "hog", 10<<10, shareSmall); err != nil {
		t.Fatal(err)
	}
	granted := make(chan int, 5)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := range 5 {
		go func() {
			if b.reserve(ctx, "ip", 4<<10, shareVouched) == nil {
				granted <- i
			}
		}()
		waitFor(t, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiting) == i+1 })
	}
	b.release("hog", 10<<10)
	if first, second := <-granted, <-granted; first+second != 1 {
		t.Fatalf("granted waiters %d and %d, want the first two to arrive (0 and 1)", first, second)
	}
	b.mu.Lock()
	waiting, used := len(b.waiting), b.used
	b.mu.Unlock()
	if waiting != 3 || used != 8<<10 {
		t.Fatalf("after the release: %d waiting, %d bytes used; want 3 waiting and 8 KiB used", waiting, used)
	}
	cancel()
	waitFor(t, func() bool { b.mu.Lock(); defer b.mu.Unlock(); return len(b.waiting) == 0 })
}

// TestBodyReadWithinReadTimeout: past the read timeout a request reserves
// nothing more, whatever its network did (a gzip body inflated a chunk at
// a time through a crowded budget never touches its read deadline), and
// the answer closes the connection.
func TestBodyReadWithinReadTimeout(t *testing.T) {
	h := http.Header{}
	a := &Account{b: newBudget(1<<20, 1<<20, time.Hour), ip: "ip", ctx: context.Background(), resp: h, until: time.Now().Add(-time.Millisecond)}
	if err := a.grow(readChunk, false); !errors.Is(err, ErrSlowBody) || BodyStatus(err) != http.StatusRequestTimeout {
		t.Fatalf("a reservation past the read timeout: %v, want ErrSlowBody (408)", err)
	}
	if h.Get("Connection") != "close" || a.b.inUse() != 0 {
		t.Fatalf("after the refusal: Connection %q, %d bytes reserved", h.Get("Connection"), a.b.inUse())
	}
	a.until = time.Now().Add(time.Hour)
	if err := a.grow(readChunk, false); err != nil {
		t.Fatalf("within the read timeout: %v", err)
	}
}

// TestReadChunksOutsideHeap: the chunks bodies are read into are not Go
// heap (so an attack holding the whole budget in them makes no garbage and
// no collection work); those given back are reused while bodies are being
// read, and beyond the few kept leave the process once none is.
func TestReadChunksOutsideHeap(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("read chunks are heap memory here (no anonymous mappings)")
	}
	heap := func() int64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	runtime.GC()
	heap0 := heap()
	var taken [][]byte
	for range 2 * keepChunks {
		c := chunks.get()
		c[0], c[readChunk-1] = 1, 1 // touched: resident
		taken = append(taken, c)
	}
	if got := ChunkBytes(); got < 2*keepChunks*readChunk {
		t.Fatalf("%d chunks taken, ChunkBytes reports %d KiB", len(taken), got>>10)
	}
	if grew := heap() - heap0; grew > keepChunks*readChunk/2 {
		t.Fatalf("%d chunks (%d KiB) grew the Go heap by %d KiB", len(taken), len(taken)*readChunk>>10, grew>>10)
	}
	for _, c := range taken[1:] {
		chunks.put(c)
	}
	if got := ChunkBytes(); got < 2*keepChunks*readChunk {
		t.Fatalf("chunks given back while one is still out: %d KiB held, want all %d KiB kept for reuse", got>>10, 2*keepChunks*readChunk>>10)
	}
	chunks.put(taken[0])
	if got := ChunkBytes(); got > keepChunks*readChunk {
		t.Fatalf("all chunks given back, %d KiB still held, want at most the %d KiB kept", got>>10, keepChunks*readChunk>>10)
	}
}

// waitFor waits for cond, yielding between checks; it fails after a long
// safety limit only.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestMinimumBodyRate is the stalled-body attack: a client that sends part
// of its body and stops is cut with 408 once it falls behind the minimum
// rate, well before the read timeout.
func TestMinimumBodyRate(t *testing.T) {
	cfg := Config{MaxBodyBytes: 1 << 20, MinBodyRate: 1 << 20, BodyGrace: 50 * time.Millisecond, ReadTimeout: time.Hour}
	s, addr := readingServer(t, cfg, 0, nil)
	c := dialFrom(t, "127.0.0.1", addr)
	startBody(t, c, 1<<20, 10)
	code, body := status(t, c)
	if code != http.StatusRequestTimeout || !strings.Contains(body, "minimum transfer rate") {
		t.Fatalf("stalled body: %d %s, want 408", code, body)
	}
	waitFor(t, func() bool { return s.BodyBytesInFlight() == 0 })

	// A body that keeps up is read whole.
	ok := dialFrom(t, "127.0.0.1", addr)
	startBody(t, ok, 100<<10, 100<<10)
	if code, body := status(t, ok); code != http.StatusOK || strings.TrimSpace(body) != "102400" {
		t.Fatalf("body at full speed: %d %s", code, body)
	}
}

// TestConnectionLimits opens connections up to the per-IP cap and checks
// that one more from that IP is answered 503 and closed, while another IP
// is served.
func TestConnectionLimits(t *testing.T) {
	// No held connection waits for a request, so none may be reclaimed
	// (TestIdleConnectionsReclaimed): each is in the middle of its body, its
	// handler running.
	cfg := Config{MaxConnsPerIP: 2, MaxConns: 3, MaxBodyBytes: 1 << 20, ReadHeaderTimeout: time.Hour, ReadTimeout: time.Hour, BodyGrace: time.Hour}
	reading := make(chan struct{}, 3)
	_, addr := readingServer(t, cfg, 5, func() { reading <- struct{}{} })
	held := []net.Conn{dialFrom(t, "127.0.0.2", addr), dialFrom(t, "127.0.0.2", addr)}
	for _, c := range held {
		startBody(t, c, 10, 5)
		<-reading
	}
	extra := dialFrom(t, "127.0.0.2", addr)
	if code, body := status(t, extra); code != http.StatusServiceUnavailable || !strings.Contains(body, "too many connections") {
		t.Fatalf("connection over the per-IP cap: %d %s", code, body)
	}
	other := dialFrom(t, "127.0.0.1", addr)
	startBody(t, other, 10, 5)
	<-reading
	// The listener is now full (3): a fourth IP is refused too.
	full := dialFrom(t, "127.0.0.4", addr)
	if code, _ := status(t, full); code != http.StatusServiceUnavailable {
		t.Fatalf("connection over the listener cap: %d", code)
	}
	// The other IP's request was served all along.
	other.Write(make([]byte, 5))
	if code, _ := status(t, other); code != http.StatusOK {
		t.Fatalf("another IP: %d", code)
	}
	// Closing one frees a place.
	held[0].Close()
	waitFor(t, func() bool { return livez(t, "127.0.0.4", addr) })
}

// livez sends GET /livez on a new connection from the address from and
// reports whether it was answered 200; the connection stays open.
func livez(t *testing.T, from, addr string) bool {
	t.Helper()
	c := dialFrom(t, from, addr)
	fmt.Fprintf(c, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	return err == nil && res.StatusCode == http.StatusOK
}

// TestIdleConnectionsReclaimed is the keep-alive lockout: one cheap request
// on each of the listener's connections, then nothing, held every place for
// the idle timeout (two minutes), so every other client got 503 (2,048
// connections from 16 addresses locked out a `gavel --dev`). A connection
// idle between requests now gives its place to a new one when the
// listener, or the new connection's IP, is at its cap: the oldest idle one
// of that IP, or of any IP.
func TestIdleConnectionsReclaimed(t *testing.T) {
	_, addr := readingServer(t, Config{MaxConnsPerIP: 2, MaxConns: 3}, 0, nil)
	var idle []net.Conn
	for range 2 {
		c := dialFrom(t, "127.0.0.2", addr)
		fmt.Fprintf(c, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
		if code, _ := status(t, c); code != http.StatusOK {
			t.Fatalf("idle-to-be connection: %d", code)
		}
		idle = append(idle, c)
	}
	// The IP is at its cap with two idle connections: a new one from it is
	// served (once the server has marked them idle), one of them closed
	// (the one marked idle first, which under load need not be the first).
	waitFor(t, func() bool { return livez(t, "127.0.0.2", addr) })
	closed := 0
	for _, c := range idle {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond)) // the closed one's EOF is already there
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if closed != 1 {
		t.Fatalf("%d idle connections of the IP closed, want 1", closed)
	}
	// The listener is full (the second idle one, the new one, and a third
	// IP's); a fourth IP's connection takes an idle one's place.
	if !livez(t, "127.0.0.3", addr) {
		t.Fatal("third IP refused")
	}
	waitFor(t, func() bool { return livez(t, "127.0.0.4", addr) })
}

// TestSlowHeaderReclaimed is the slow-header lockout: 2,048 connections
// from 17 addresses sending half a header, renewed as the read-header
// timeout cuts them, refused 101 of 106 honest requests on a `gavel --dev`.
// A connection that has not completed its first header within slowHeader
// now gives its place to a new one when the listener is full.
func TestSlowHeaderReclaimed(t *testing.T) {
	_, addr := readingServer(t, Config{MaxConnsPerIP: 2, MaxConns: 2, ReadHeaderTimeout: time.Hour}, 0, nil)
	var slow []net.Conn
	for _, from := range []string{"127.0.0.2", "127.0.0.3"} {
		c := dialFrom(t, from, addr)
		fmt.Fprintf(c, "GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: ")
		slow = append(slow, c)
	}
	waitFor(t, func() bool { return livez(t, "127.0.0.4", addr) })
	closed := 0
	for _, c := range slow {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == io.EOF {
			closed++
		}
	}
	if closed == 0 {
		t.Fatal("no slow-header connection was closed for the new one")
	}

	// A flood of new connections keeps every place younger than
	// slowHeader: then a waiting connection of the address holding the most
	// goes, however young.
	_, addr = readingServer(t, Config{MaxConnsPerIP: 2, MaxConns: 2, ReadHeaderTimeout: time.Hour}, 0, nil)
	for range 2 {
		fmt.Fprintf(dialFrom(t, "127.0.0.2", addr), "GET /livez HTTP/1.1\r\nHost: x\r\nX-Slow: ")
	}
	if !livez(t, "127.0.0.4", addr) {
		t.Fatal("a new address was refused while one address held every place with half-sent headers")
	}
}

// TestReadAllCapacity checks ReadAll's buffer against what arrived: exact
// length whatever the mode, and the announced size never allocated ahead.
func TestReadAllCapacity(t *testing.T) {
	body := bytes.Repeat([]byte{7}, 100_000)
	for _, size := range []int64{-1, 100_000} {
		got, err := ReadAll(nil, bytes.NewReader(body), 1<<20, size, 0, nil, func() error { return ErrBodyTooLarge })
		if err != nil || !bytes.Equal(got, body) || cap(got) != len(got) {
			t.Fatalf("size %d: %v, %d bytes, capacity %d", size, err, len(got), cap(got))
		}
	}
}

// TestBodyDeadlineRestored: once a body is read to its end, the connection's
// read deadline goes back to the request's own (the read timeout): left at
// the rate deadline, net/http's background read would cancel the request's
// context while a long handler (a simulation, a registration batch) runs.
func TestBodyDeadlineRestored(t *testing.T) {
	start := time.Now()
	s := &slowBody{
		ReadCloser: io.NopCloser(bytes.NewReader(make([]byte, 1000))),
		rc:         http.NewResponseController(httptestRecorder{}),
		start:      start, grace: 50 * time.Millisecond, rate: 1 << 20, hard: start.Add(time.Hour),
	}
	if _, err := io.ReadAll(s); err != nil {
		t.Fatal(err)
	}
	if !s.deadline.Equal(s.hard) {
		t.Fatalf("deadline after the body %v, want the read timeout's %v", s.deadline.Sub(start), time.Hour)
	}
}

type httptestRecorder struct{}

func (httptestRecorder) Header() http.Header         { return http.Header{} }
func (httptestRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (httptestRecorder) WriteHeader(int)             {}

// fastSource is a body that never makes its reader wait (a client sending as
// fast as loopback allows); at its check-th Read it records whether other
// work got to run meanwhile.
type fastSource struct {
	left, reads, check int
	ran                *atomic.Bool
	sawRun             bool
}

func (f *fastSource) Read(p []byte) (int, error) {
	if f.left == 0 {
		return 0, io.EOF
	}
	f.reads++
	if f.reads == f.check {
		f.sawRun = f.ran.Load()
	}
	n := min(len(p), f.left)
	f.left -= n
	return n, nil
}

// TestLargeBodyReadYields: a goroutine reading a large body that never
// waits for the network lets other runnable goroutines run between chunks.
// On one P, a goroutine made runnable just before the read runs before the
// read's fourth chunk; without the yield it waited until the runtime
// preempted the reader (10 ms), behind every such reader: a cheap request's
// 50-70 ms in the registration attack.
func TestLargeBodyReadYields(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	tooLarge := func() error { return ErrBodyTooLarge }
	// A first read leaves free chunks for the second, so that it makes no
	// system call (the runtime could hand the P to the other goroutine
	// while the reader is in one).
	if _, err := ReadAll(nil, &fastSource{left: 8 * readChunk, ran: new(atomic.Bool)}, 1<<30, -1, 0, nil, tooLarge); err != nil {
		t.Fatal(err)
	}
	ran := new(atomic.Bool)
	src := &fastSource{left: 8 * readChunk, check: 4, ran: ran}
	go ran.Store(true) // runnable, not yet run: this goroutine keeps the only P
	if _, err := ReadAll(nil, src, 1<<30, -1, 0, nil, tooLarge); err != nil {
		t.Fatal(err)
	}
	if !src.sawRun {
		t.Fatal("a runnable goroutine did not run while 3 chunks of a large body were read: the reader kept the P")
	}
}

// discardConn is a connection that swallows what is written to it.
type discardConn struct{ net.Conn }

func (discardConn) Write(b []byte) (int, error)      { return len(b), nil }
func (discardConn) Close() error                     { return nil }
func (discardConn) SetWriteDeadline(time.Time) error { return nil }
func (discardConn) RemoteAddr() net.Addr             { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 9)} }
func (discardConn) LocalAddr() net.Addr              { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }
func (discardConn) SetDeadline(time.Time) error      { return nil }
func (discardConn) SetReadDeadline(time.Time) error  { return nil }
func (discardConn) Read([]byte) (int, error)         { return 0, io.EOF }

// countedListener hands out n discardConns, then fails.
type countedListener struct {
	net.Listener
	n int
}

func (l *countedListener) Accept() (net.Conn, error) {
	if l.n == 0 {
		return nil, net.ErrClosed
	}
	l.n--
	return discardConn{}, nil
}

// TestConnLimitRefusalNoRace: a refused Accept decides which limit refused
// it while other connections close (done) at the same time. Run with -race.
func TestConnLimitRefusalNoRace(t *testing.T) {
	l := &connLimit{Listener: &countedListener{n: 2000}, total: 0, perIP: 10, byIP: map[string]int{}}
	stop := make(chan struct{})
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		for {
			select {
			case <-stop:
				return
			default:
			}
			l.mu.Lock()
			l.open++
			l.byIP["127.0.0.7"]++
			l.mu.Unlock()
			l.done("127.0.0.7")
		}
	}()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept over a zero limit: %v, want every connection refused", err)
	}
	close(stop)
	<-closed
}

// TestVouchPending: while a request's sender is being checked, its
// reservations that fit the general share are granted at once; one that
// needs the reserve waits for the check, then draws on the reserve when the
// check verified the sender and is refused when it did not.
func TestVouchPending(t *testing.T) {
	for _, verified := range []bool{true, false} {
		b := newBudget(8<<20, 8<<20, time.Hour)
		general := b.limit(shareGeneral)
		a := &Account{b: b, ip: "builder", ctx: context.Background(), resp: http.Header{}}
		a.ExpectVouch()
		done := make(chan struct{})
		a.VouchPending(done, func() bool { return verified })
		if err := a.grow(general/2, false); err != nil {
			t.Fatalf("within the general share while the check runs: %v", err)
		}
		if !a.SettleVouch() {
			t.Fatal("the check settled before it ended")
		}
		granted := make(chan error, 1)
		go func() { granted <- a.grow(general/2+b.reserved/2, false) }() // past the general share: into the reserve
		select {
		case err := <-granted:
			t.Fatalf("verified=%v: the reserve was drawn on before the check ended: %v", verified, err)
		case <-time.After(20 * time.Millisecond):
		}
		close(done)
		err := <-granted
		switch {
		case verified && err != nil:
			t.Fatalf("verified sender refused the reserve: %v", err)
		case !verified && !errors.Is(err, ErrBusy):
			t.Fatalf("unverified sender: %v, want ErrBusy", err)
		}
		if verified && b.inUse() <= general {
			t.Fatalf("verified sender: %d bytes in use, want past the general share %d", b.inUse(), general)
		}
		a.close()
	}
}

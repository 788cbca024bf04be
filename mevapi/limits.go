package mevapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/metrics"
)

// Defaults of the listener's resource budgets (DESIGN.md section 12).
const (
	DefaultBodyBudget      = 256 << 20 // bytes of request bodies held in memory at once, all clients
	DefaultBodyBudgetPerIP = 64 << 20  // the same, per client IP
	DefaultBudgetWait      = 250 * time.Millisecond
	DefaultMaxConns        = 2048
	DefaultMaxConnsPerIP   = 128
	DefaultMinBodyRate     = 64 << 10 // bytes per second on the wire
	DefaultBodyGrace       = time.Second
)

// Sentinels of the resource budgets.
var (
	// ErrBusy is returned when the bodies in flight already hold the whole
	// memory budget and none was freed within the wait: 503, retry later.
	ErrBusy = errors.New("server busy: request bodies in flight use the whole memory budget, retry later")
	// ErrIPBusy is returned when one client IP's bodies in flight hold its
	// share of the budget: 429.
	ErrIPBusy = errors.New("too many request body bytes in flight from this IP address, retry later")
	// ErrSlowBody is returned when a body arrives slower than the minimum
	// transfer rate: 408.
	ErrSlowBody = errors.New("request body arrived slower than the minimum transfer rate")
)

var (
	budgetBytesGauge    = metrics.NewRegisteredGauge("gavel/mev/listener/body/inflight", nil)
	budgetRefusedMeter  = metrics.NewRegisteredMeter("gavel/mev/listener/body/refused", nil)
	slowBodyMeter       = metrics.NewRegisteredMeter("gavel/mev/listener/body/slow", nil)
	connsGauge          = metrics.NewRegisteredGauge("gavel/mev/listener/conns", nil)
	connsRefusedMeter   = metrics.NewRegisteredMeter("gavel/mev/listener/conns/refused", nil)
	connsIPRefusedMeter = metrics.NewRegisteredMeter("gavel/mev/listener/conns/refusedip", nil)
	connsReclaimedMeter = metrics.NewRegisteredMeter("gavel/mev/listener/conns/reclaimed", nil)
)

// BodyStatus is the HTTP status for an error of a body read: 413 too
// large, 408 too slow, 503 budget exhausted, 429 the IP's share exhausted,
// 400 otherwise.
func BodyStatus(err error) int {
	switch {
	case errors.Is(err, ErrBodyTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, ErrSlowBody):
		return http.StatusRequestTimeout
	case errors.Is(err, ErrBusy):
		return http.StatusServiceUnavailable
	case errors.Is(err, ErrIPBusy):
		return http.StatusTooManyRequests
	}
	return http.StatusBadRequest
}

// budget bounds the bytes of request bodies held in memory, in total and
// per client IP. Readers reserve before they allocate and give back when
// the request ends; a reservation that does not fit waits a little for
// others to finish, then fails.
//
// The last eighth of the total (headroom) is only for small bodies, those
// announced at most one read chunk long and read straight into their
// buffer: bodies of many megabytes, or of unknown length, from many
// addresses can fill the rest, but an honest registration or JSON-RPC call
// still finds room. (To take the headroom too, an attacker needs hundreds
// of connections each trickling a small body at the minimum rate, from at
// least four addresses given the per-IP connection cap.)
//
// Below the headroom, a quarter of the rest (reserve) is only for vouched
// requests: block submissions of builders the relay knows (a bid of theirs
// verified and stored recently, or marked high-priority by the operator)
// whose signature verified (Account.Vouch).
// Anyone can sign with a fresh builder key, so signed submissions from
// many addresses can fill the general share; they cannot fill the reserve.
type budget struct {
	total, perIP int64
	headroom     int64
	reserved     int64
	wait         time.Duration

	mu      sync.Mutex
	used    int64
	peak    int64 // highest use since the last return of memory to the OS
	byIP    map[string]int64
	waiting []*pending // reservations waiting, in arrival order
	freed   time.Time  // last return of memory to the OS
}

// returnAfter is the peak use of the budget after which, once bodies in
// flight are down to nothing again, the memory they held is handed back to
// the OS at once (at most every returnEvery): Go's background scavenger
// would take minutes, and an attack's buffers would stay resident.
const (
	returnAfter = 64 << 20
	returnEvery = 5 * time.Second
)

// connOverhead is what the server holds for an open connection besides
// request bodies and gzip state: its read and write buffers (4 KiB each),
// the goroutine stack, the request and its headers, and the garbage they
// leave until the next collection. Measured: bursts of 1,000 stalled gzip
// connections took RSS 60 to 70 MiB past the bodies and gzip readers
// reserved.
const connOverhead = 64 << 10

// bodyShare is the part of the body budget left for bodies: the budget less
// connOverhead for every connection the caps let in (128 MiB of the default
// 256 MiB), but at least half of it.
func bodyShare(cfg Config) int64 {
	return max(cfg.BodyBudget-int64(cfg.MaxConns)*connOverhead, cfg.BodyBudget/2)
}

func newBudget(total, perIP int64, wait time.Duration) *budget {
	headroom := total / 8
	return &budget{total: total, perIP: perIP, headroom: headroom, reserved: (total - headroom) / 4, wait: wait, byIP: map[string]int64{}}
}

// share is which part of the budget a reservation may use.
type share int

const (
	shareGeneral share = iota // all but the headroom and the reserve
	shareVouched              // the reserve too (and a submission not yet classified, see Account.ExpectVouch)
	shareSmall                // everything: a small body's buffer
)

// limit is the highest use of the budget a reservation of share s may reach.
func (b *budget) limit(s share) int64 {
	switch s {
	case shareSmall:
		return b.total
	case shareVouched:
		return b.total - b.headroom
	}
	return b.total - b.headroom - b.reserved
}

// pending is a reservation waiting for bytes to be released.
type pending struct {
	ip      string
	n       int64
	share   share
	granted bool
	ready   chan struct{}
}

// take grants n bytes of share s to ip when they fit; b.mu is held.
func (b *budget) take(ip string, n int64, s share) bool {
	if b.byIP[ip]+n > b.perIP || b.used+n > b.limit(s) {
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	b.byIP[ip] += n
	budgetBytesGauge.Update(b.used)
	return true
}

// reserve takes n bytes of share s for ip, waiting at most b.wait (or until
// ctx ends). Only a small body's reservation may use the headroom, only a
// vouched one the reserve. Waiting requests
// are woken one by one as released bytes make theirs fit, in arrival order
// (before, every release woke every waiter: a thousand of them at once in
// the 1,000-connection attack).
func (b *budget) reserve(ctx context.Context, ip string, n int64, s share) error {
	b.mu.Lock()
	if b.take(ip, n, s) {
		b.mu.Unlock()
		return nil
	}
	w := &pending{ip: ip, n: n, share: s, ready: make(chan struct{})}
	b.waiting = append(b.waiting, w)
	b.mu.Unlock()
	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	var cause error
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		cause = fmt.Errorf("%w: %v", ErrBusy, ctx.Err())
	case <-timer.C:
	}
	b.mu.Lock()
	if w.granted { // granted while the timer fired
		b.mu.Unlock()
		return nil
	}
	b.waiting = slices.DeleteFunc(b.waiting, func(o *pending) bool { return o == w })
	fitsIP := b.byIP[ip]+n <= b.perIP
	b.mu.Unlock()
	budgetRefusedMeter.Mark(1)
	switch {
	case cause != nil:
		return cause
	case !fitsIP:
		return fmt.Errorf("%w: the limit is %d bytes per IP", ErrIPBusy, b.perIP)
	}
	return fmt.Errorf("%w (%d bytes)", ErrBusy, b.total)
}

// release gives back n bytes of ip and grants what now fits to the
// waiting reservations, in arrival order.
func (b *budget) release(ip string, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	if left := b.byIP[ip] - n; left > 0 {
		b.byIP[ip] = left
	} else {
		delete(b.byIP, ip)
	}
	budgetBytesGauge.Update(b.used)
	b.waiting = slices.DeleteFunc(b.waiting, func(w *pending) bool {
		if !b.take(w.ip, w.n, w.share) {
			return false
		}
		w.granted = true
		close(w.ready)
		return true
	})
	giveBack := b.used == 0 && b.peak >= returnAfter && time.Since(b.freed) >= returnEvery
	if giveBack {
		b.peak, b.freed = 0, time.Now()
	}
	b.mu.Unlock()
	if giveBack {
		// The chunks left the process already (chunkStore); what is
		// returned here are the joined bodies and decoding garbage.
		go debug.FreeOSMemory()
	}
}

// inUse reports the bytes reserved now (for tests and /readyz figures).
func (b *budget) inUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Account is one request's share of the listener's body budget: what its
// readers reserved (see ReadAll), given back in one piece when the request
// ends. A nil *Account is unmetered (requests that did not come through a
// Server, as in tests).
type Account struct {
	b     *budget
	ip    string
	ctx   context.Context
	resp  http.Header // the response's: a refusal closes the connection
	cpu   *cpuTurns   // the request's turns of the node's CPU scheduler
	until time.Time   // the read timeout: no reservation after it (zero: none)
	mu    sync.Mutex
	held  int64
	large int64 // of held, what is not a small body's buffer
	share share // of the reservations that are not a small body's
	// vouching is a check of the sender under way (VouchPending), nil
	// once settled.
	vouching *pendingVouch
}

// pendingVouch is a check of who sent a request, under way: done is closed
// when it ends, and then verified says whether it vouches for the request.
type pendingVouch struct {
	done     <-chan struct{}
	verified func() bool
}

// ExpectVouch marks a request whose body will say who sent it (a block
// submission, its builder in the first bytes): until Vouch or Unvouched,
// its reservations (the gzip state, the first chunk) may use the reserve,
// so that a known builder is not refused before it could be told apart.
func (a *Account) ExpectVouch() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.share = shareVouched
	a.mu.Unlock()
}

// Vouch lets the rest of the request's reservations use the reserve, and
// its CPU turns go ahead of other clients' (getHeader serves what a known
// builder sends): the caller checked who sent it (a known builder, its
// signature verified).
func (a *Account) Vouch() {
	if a == nil {
		return
	}
	a.ExpectVouch()
	if a.cpu != nil {
		a.cpu.first = true
	}
}

// VouchPending ends ExpectVouch for a request whose sender is being checked
// (a known builder's signature in verification) without waiting for the
// check: meanwhile its reservations use the general share and do not wait
// for it; one that does not fit the general share waits for the check
// (done), then draws on the reserve as after Vouch when verified reports
// true, and fails with ErrBusy otherwise. Its CPU turns likewise: one free
// at once is taken, else the check is waited for first, so that a verified
// builder then goes ahead of other clients as after Vouch. The check ending is taken into
// account at the request's next reservation or SettleVouch: reading and
// inflating a known builder's body goes on beside the verification, and
// an unverified sender never holds the reserve.
func (a *Account) VouchPending(done <-chan struct{}, verified func() bool) {
	if a == nil {
		return
	}
	v := &pendingVouch{done: done, verified: verified}
	a.mu.Lock()
	a.share = shareGeneral
	a.vouching = v
	a.mu.Unlock()
	if a.cpu != nil {
		a.cpu.vouching = func() {
			select {
			case <-done:
			case <-a.ctx.Done():
			}
			a.settle(v)
		}
	}
}

// SettleVouch applies the end of a check begun with VouchPending if it has
// ended (Vouch when it verified), and reports whether it is still under way.
// It runs on the request's goroutine (the CPU turns' priority is set here).
func (a *Account) SettleVouch() (pending bool) {
	if a == nil {
		return false
	}
	a.mu.Lock()
	v := a.vouching
	a.mu.Unlock()
	if v == nil {
		return false
	}
	select {
	case <-v.done:
	default:
		return true
	}
	a.settle(v)
	return false
}

// settle ends the check v: the request is vouched for, or left to the
// general share.
func (a *Account) settle(v *pendingVouch) {
	a.mu.Lock()
	a.vouching = nil
	a.mu.Unlock()
	if a.cpu != nil {
		a.cpu.vouching = nil
	}
	if v.verified() {
		a.Vouch()
	}
}

// Unvouched ends ExpectVouch for a request that turned out not vouched
// for: from now on it uses the general share only, and when what it holds
// already took the budget past that share (into the reserve), it fails with
// ErrBusy (503) so that it does not keep the reserve's bytes.
func (a *Account) Unvouched() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	a.share = shareGeneral
	large := a.large
	a.mu.Unlock()
	if large == 0 { // a small body's buffer may use the headroom anyway
		return nil
	}
	a.b.mu.Lock()
	over := a.b.used > a.b.limit(shareGeneral)
	a.b.mu.Unlock()
	if !over {
		return nil
	}
	budgetRefusedMeter.Mark(1)
	if a.resp != nil {
		a.resp.Set("Connection", "close")
	}
	return a.errReserved()
}

type accountKey struct{}

// Reserve takes n bytes of the budget for the rest of the request, for
// memory a handler holds besides the body's bytes (a gzip reader's inflate
// state); it returns the budget's errors (see BodyStatus). A nil Account
// reserves nothing.
func (a *Account) Reserve(n int64) error { return a.grow(n, false) }

// grow reserves n more bytes for the request; small is for the buffer of a
// small body (see budget).
func (a *Account) grow(n int64, small bool) error {
	if a == nil || n <= 0 {
		return nil
	}
	var err error
	if !a.until.IsZero() && time.Now().After(a.until) {
		// The read timeout bounds inflating and waiting for the budget
		// too, not only the network: a request that progresses a chunk at
		// a time through a crowded budget cannot live for a minute.
		slowBodyMeter.Mark(1)
		err = fmt.Errorf("%w: the body was not read (and inflated) within the read timeout", ErrSlowBody)
	} else if !small && a.SettleVouch() {
		err = a.growVouching(n)
	} else {
		s := shareSmall
		if !small {
			a.mu.Lock()
			s = a.share
			a.mu.Unlock()
		}
		err = a.b.reserve(a.ctx, a.ip, n, s)
	}
	if err != nil {
		// The answer closes the connection: net/http would otherwise
		// read the rest of the body first (up to 256 KiB), and a stalled
		// client would hold the request until its read deadline.
		if a.resp != nil {
			a.resp.Set("Connection", "close")
		}
		return err
	}
	a.mu.Lock()
	a.held += n
	if !small {
		a.large += n
	}
	a.mu.Unlock()
	return nil
}

// growVouching reserves n bytes for a request whose sender's check is
// under way: from the general share if they fit now, else once the check
// ended, as its outcome allows.
func (a *Account) growVouching(n int64) error {
	a.b.mu.Lock()
	ok := a.b.take(a.ip, n, shareGeneral)
	a.b.mu.Unlock()
	if ok {
		return nil
	}
	a.mu.Lock()
	v := a.vouching
	a.mu.Unlock()
	if v != nil {
		select {
		case <-v.done:
		case <-a.ctx.Done():
			return fmt.Errorf("%w: %v", ErrBusy, a.ctx.Err())
		}
		a.settle(v)
	}
	a.mu.Lock()
	s := a.share
	a.mu.Unlock()
	if s != shareVouched {
		budgetRefusedMeter.Mark(1)
		return a.errReserved()
	}
	return a.b.reserve(a.ctx, a.ip, n, shareVouched)
}

// shrink gives back n bytes early (a buffer replaced by a larger one).
func (a *Account) shrink(n int64) {
	if a == nil || n <= 0 {
		return
	}
	a.mu.Lock()
	n = min(n, a.held)
	a.held -= n
	a.large = max(a.large-n, 0)
	a.mu.Unlock()
	a.b.release(a.ip, n)
}

func (a *Account) close() {
	a.mu.Lock()
	n := a.held
	a.held, a.large = 0, 0
	a.mu.Unlock()
	a.b.release(a.ip, n)
}

// AccountOf returns the request's budget account (nil outside a Server).
func AccountOf(r *http.Request) *Account {
	a, _ := r.Context().Value(accountKey{}).(*Account)
	return a
}

// ReadAll reads src, at most limit bytes (or exactly size when size >= 0 is
// announced and within limit), within acct's share of the body budget (a
// nil acct reads unmetered). A body announced at most one chunk long is
// read straight into a buffer of its length, reserved first. Others go
// into chunks (outside the Go heap, see chunkStore) as the bytes arrive,
// each reserved first, so an announced length never sizes an allocation;
// once the body is complete they are joined into one buffer of the exact
// length (decoders may alias it: no waste; ReleaseBody gives it back for
// reuse) and the chunks are given back. A released buffer, when there is
// one, takes the first bytes in place of chunks; a body that fits in it is
// returned in it, not copied.
// tooLarge builds the error returned when more than limit bytes come out.
// When onPrefix is set it is called once with the first prefix bytes
// (prefix <= 64 KiB) as soon as they are in; it must not keep the slice, and
// an error it returns ends the read and is returned as it is.
func ReadAll(acct *Account, src io.Reader, limit, size int64, prefix int, onPrefix func([]byte) error, tooLarge func() error) ([]byte, error) {
	exact := size >= 0 && size <= limit
	if exact && size <= readChunk {
		return readSmall(acct, src, size, prefix, onPrefix)
	}
	most := limit
	if exact {
		most = size
	}
	// The bytes go straight into a released body's buffer while it has
	// room (joining chunks into it would copy them once more), then into
	// chunks. Either way each 64 KiB is reserved before it is read.
	into := takeReleased(size)
	inInto := 0 // bytes read into into
	var parts [][]byte
	reserved := int64(0)
	defer func() {
		for _, c := range parts {
			chunks.put(c)
		}
		if into != nil {
			ReleaseBody(into)
		}
		acct.shrink(reserved)
	}()
	total := int64(0)
	for {
		if err := acct.grow(readChunk, false); err != nil {
			return nil, err
		}
		reserved += readChunk
		var c []byte
		if len(parts) == 0 && inInto < cap(into) {
			// The buffer's last piece may be shorter than a chunk: a
			// body that ends in it is not copied into another buffer.
			c = into[inInto:min(inInto+readChunk, cap(into))]
		} else {
			c = chunks.get()
			parts = append(parts, c)
		}
		n := 0
		if total == 0 && onPrefix != nil && prefix > 0 {
			m, err := io.ReadFull(src, c[:prefix])
			n = m
			if err == nil {
				if err := onPrefix(c[:prefix]); err != nil {
					return nil, err
				}
			} else if err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("reading body: %w", err)
			}
		}
		m, err := io.ReadFull(src, c[n:])
		total += int64(n + m)
		if len(parts) == 0 {
			inInto += n + m
		}
		if total > most {
			if exact {
				return nil, fmt.Errorf("reading body: longer than its announced %d bytes", size)
			}
			return nil, tooLarge()
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading body: %w", err)
		}
		if !acct.ahead() {
			yieldBetweenChunks()
		}
	}
	if exact && total != size {
		return nil, fmt.Errorf("reading body: %d bytes, shorter than its announced %d", total, size)
	}
	if err := acct.grow(total, false); err != nil {
		return nil, err
	}
	if len(parts) == 0 && into != nil && total >= bodyPoolMin {
		out := into[:total]
		into = nil // the body's now
		return out, nil
	}
	// Spilled over into chunks, or small enough for an allocation of its
	// own (a small body does not keep a large buffer).
	out := takeBody(total)
	copy(out, into[:inInto])
	for i, c := range parts {
		copy(out[inInto+i*readChunk:], c)
	}
	return out, nil
}

// ahead reports whether the request's sender is a known builder whose
// signature verified or is being verified (Vouch, VouchPending): its body
// is read without yielding between chunks (yieldBetweenChunks), since the
// goroutine it would yield to is as likely that verification, which then
// kept the P for its whole 2 ms while the other P slept and the read, put
// on the global run queue, waited.
func (a *Account) ahead() bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.vouching != nil || a.cpu != nil && a.cpu.first
}

// yieldBetweenChunks lets the other runnable goroutines run between two
// chunks of a large body. A client that sends its body as fast as loopback
// allows never makes the reader wait for the network, so without it the
// reader keeps its P until the runtime preempts it, 10 ms later; with a few
// such readers per P, a cheap request's goroutine (and the accept loop)
// waited behind them for 50-70 ms in the trace of the registration attack
// (docs/security.md). One yield per 64 KiB costs well under a microsecond.
func yieldBetweenChunks() { runtime.Gosched() }

// readSmall reads a body announced at size <= readChunk bytes straight into
// its buffer (ReadAll).
func readSmall(acct *Account, src io.Reader, size int64, prefix int, onPrefix func([]byte) error) ([]byte, error) {
	if err := acct.grow(size, true); err != nil {
		return nil, err
	}
	out := make([]byte, size)
	n := 0
	if onPrefix != nil && prefix > 0 && int64(prefix) <= size {
		m, err := io.ReadFull(src, out[:prefix])
		n = m
		if err == nil {
			if err := onPrefix(out[:prefix]); err != nil {
				return nil, err
			}
		}
	}
	m, err := io.ReadFull(src, out[n:])
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return nil, fmt.Errorf("reading body: %d bytes, shorter than its announced %d", n+m, size)
	case err != nil:
		return nil, fmt.Errorf("reading body: %w", err)
	}
	// The announced length was read: more would be a framing error, which
	// net/http reports itself; an unframed source must end here.
	var one [1]byte
	if k, _ := src.Read(one[:]); k > 0 {
		return nil, fmt.Errorf("reading body: longer than its announced %d bytes", size)
	}
	return out, nil
}

// slowBody enforces a minimum transfer rate on a request body: by the
// time the n-th byte is read, the reader may have waited for bytes at most
// grace + n/rate in all (and the body must be in by the read timeout). It
// counts only the time spent blocked in Read, not the time between reads:
// a handler that reads late (its goroutine starved of CPU, or waiting for
// its turn) finds the client's bytes buffered, and the client is not to
// blame for that. It moves the connection's read deadline ahead of each
// Read, so a stalled or trickling client is cut, and its buffers freed,
// within about grace of falling behind.
type slowBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	start    time.Time
	grace    time.Duration
	rate     float64 // bytes per second
	hard     time.Time
	n        int64
	waited   time.Duration // time blocked in Read so far
	deadline time.Time
}

// lateWake is the slack each Read gets beyond the client's allowance: the
// goroutine of a Read whose bytes arrived in time may wake a little late on
// a busy machine. A client that overdraws its allowance by more is cut.
const lateWake = 50 * time.Millisecond

func (s *slowBody) Read(p []byte) (int, error) {
	t0 := time.Now()
	wait := s.grace + time.Duration(float64(s.n)/s.rate*float64(time.Second)) - s.waited
	if wait < -lateWake {
		return 0, s.slow()
	}
	allowed := max(wait, 0) + lateWake
	n, err := s.readBy(p, t0.Add(allowed))
	// A read is charged at most what it was allowed: the rest was the
	// runtime's delay in waking it.
	s.waited += min(time.Since(t0), allowed)
	s.n += int64(n)
	if err == io.EOF && !s.deadline.Equal(s.hard) {
		// The body is in: back to the request's own deadline, or net/http's
		// background read would hit the rate deadline while the handler
		// works and cancel the request's context.
		s.deadline = s.hard
		s.rc.SetReadDeadline(s.hard)
	}
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		return n, s.slow()
	}
	return n, err
}

// slow is the error of a client behind the minimum rate.
func (s *slowBody) slow() error {
	slowBodyMeter.Mark(1)
	return fmt.Errorf("%w: %d bytes in %s, at least %d bytes/s after the first %s", ErrSlowBody,
		s.n, time.Since(s.start).Round(time.Millisecond), int64(s.rate), s.grace)
}

// readBy reads with the connection's read deadline at d (the read
// timeout's at the latest).
func (s *slowBody) readBy(p []byte, d time.Time) (int, error) {
	if d.After(s.hard) {
		d = s.hard
	}
	if !d.Equal(s.deadline) {
		s.deadline = d
		s.rc.SetReadDeadline(d)
	}
	return s.ReadCloser.Read(p)
}

// connLimit is a listener that refuses connections beyond a total and a
// per-IP count: the refused connection gets a 503 and is closed at once, so
// a client holding many sockets cannot crowd others out. A connection
// waiting for a request holds its place only while no one else needs it:
// when the listener (or the new connection's IP) is at its cap, the one
// waiting the longest (of that IP) is closed to make room, if it is idle
// between requests (keep-alive) or has not sent its first request's header
// within slowHeader. Otherwise one cheap request per connection from a few
// addresses would fill the listener for the idle timeout (two minutes), or
// half a header per connection, renewed every read-header timeout, for as
// long as the attacker likes, and lock every other client out.
type connLimit struct {
	net.Listener
	total, perIP int
	slowHeader   time.Duration

	mu   sync.Mutex
	open int
	byIP map[string]int
	wait map[*limitedConn]waiting // connections waiting for a request
}

// waiting is since when a connection has waited for a request, and whether
// for its first one (StateNew) or a next one (StateIdle).
type waiting struct {
	since time.Time
	first bool
}

var refusedAnswer = func() []byte {
	body := `{"code":503,"message":"too many connections from this address or in total, close idle ones and retry"}` + "\n"
	return fmt.Appendf(nil, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := hostOf(c.RemoteAddr())
		l.reclaimIdle(ip)
		l.mu.Lock()
		// Read under the lock: done() changes open from other goroutines.
		full := l.open >= l.total
		refuse := full || l.byIP[ip] >= l.perIP
		if !refuse {
			l.open++
			l.byIP[ip]++
			connsGauge.Update(int64(l.open))
		}
		l.mu.Unlock()
		if refuse {
			if full {
				connsRefusedMeter.Mark(1)
			} else {
				connsIPRefusedMeter.Mark(1)
			}
			c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
			c.Write(refusedAnswer)
			c.Close()
			continue
		}
		return &limitedConn{Conn: c, l: l, ip: ip}, nil
	}
}

// reclaimIdle makes room for a connection from ip that would not fit, by
// closing a connection waiting for a request: when ip is at its cap, one of
// ip's own; else, when the IP holding the most connections holds more than
// ip, one of that IP's; else any. The one waiting the longest goes, if it is
// idle between requests, or has waited slowHeader for its first request's
// header (an honest client sends it right after connecting) unless it
// belongs to the largest holder. Without the largest-holder rule, a flood of
// new connections from many addresses keeps every place young.
func (l *connLimit) reclaimIdle(ip string) {
	l.mu.Lock()
	var victim *limitedConn
	if full, ipFull := l.open >= l.total, l.byIP[ip] >= l.perIP; full || ipFull {
		from := ""
		if ipFull {
			from = ip
		} else if top, n := l.largestHolder(); n > l.byIP[ip]+1 {
			from = top
		}
		victim = l.longestWaiting(from, from != "" && from != ip)
		if victim == nil && from != "" && !ipFull {
			victim = l.longestWaiting("", false)
		}
		delete(l.wait, victim)
	}
	l.mu.Unlock()
	if victim != nil {
		connsReclaimedMeter.Mark(1)
		victim.Close() // gives its place back (done) before this returns
	}
}

// largestHolder is the IP holding the most connections, and how many.
func (l *connLimit) largestHolder() (string, int) {
	top, n := "", 0
	for ip, k := range l.byIP {
		if k > n {
			top, n = ip, k
		}
	}
	return top, n
}

// longestWaiting is the connection (of ip, or of any IP when ip is "")
// waiting the longest for a request, among those idle between requests and
// those that have waited slowHeader for their first one (any of those when
// anyFirst).
func (l *connLimit) longestWaiting(ip string, anyFirst bool) *limitedConn {
	var victim *limitedConn
	var since time.Time
	slow := time.Now().Add(-l.slowHeader)
	for c, w := range l.wait {
		if (ip == "" || c.ip == ip) && (!w.first || anyFirst || w.since.Before(slow)) && (victim == nil || w.since.Before(since)) {
			victim, since = c, w.since
		}
	}
	return victim
}

// connState follows the server's connections (http.Server.ConnState): only
// a connection waiting for a request may be reclaimed. net/http reports a
// connection active once a request's header is read.
func (l *connLimit) connState(c net.Conn, state http.ConnState) {
	lc, ok := c.(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if state == http.StateIdle || state == http.StateNew {
		if l.wait == nil {
			l.wait = make(map[*limitedConn]waiting)
		}
		l.wait[lc] = waiting{since: time.Now(), first: state == http.StateNew}
	} else {
		delete(l.wait, lc)
	}
}

func (l *connLimit) done(ip string) {
	l.mu.Lock()
	l.open--
	if l.byIP[ip]--; l.byIP[ip] <= 0 {
		delete(l.byIP, ip)
	}
	connsGauge.Update(int64(l.open))
	l.mu.Unlock()
}

type limitedConn struct {
	net.Conn
	l    *connLimit
	ip   string
	once sync.Once
}

func (c *limitedConn) Close() error {
	c.once.Do(func() { c.l.done(c.ip) })
	return c.Conn.Close()
}

func hostOf(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// ClientIP is the client IP of a request: the connection's peer (proxy
// headers are not trusted).
func ClientIP(r *http.Request) string { return remoteIP(r) }

// remoteIP is the client IP of a request (the connection's peer).
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// errReserved is the refusal of a request that would need the share of the
// body budget reserved for known builders.
func (a *Account) errReserved() error {
	return fmt.Errorf("%w (%d bytes; the rest is reserved for builders with a recent accepted bid or the operator's high priority)", ErrBusy, a.b.total)
}

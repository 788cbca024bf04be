package mevapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/gavel-eth/gavel/internal/sched"
)

// The listener's CPU-heavy work on request bodies (inflating gzip,
// decoding large bodies) and every JSON-RPC call and REST simulation take
// turns of the node's scheduler (package internal/sched): at most
// GOMAXPROCS-1 at once, none handed out while the node's slot work runs,
// so whatever clients send, a core stays free for cheap requests (a
// getHeader, a health check, a small registration) and the node's own
// work. In the trace of the 200-address gzip attack both cores inflated
// for 150 ms while new connections' goroutines waited to run.
//
// Turns go to the waiting client (IP address) with the least recent turn
// time, and among one client's requests to the one with the least turn
// time so far: a fresh honest submission is not queued behind attackers
// that already inflated megabytes.

// GateStats is the use of the node's scheduler as the listener sees it.
type GateStats struct {
	Size     int    // client turns that can be taken at once
	Busy     int    // client turns taken now
	Waiting  int    // requests waiting for a turn now
	Peak     int    // most turns taken at once
	Critical int    // the node's slot work running now
	Refused  uint64 // waits that ended without a turn
	Work     int64  // bytes inflated or decoded in the listener's turns
}

// cpuTurns is one request's use of the gate (requests read their body from
// one goroutine at a time).
type cpuTurns struct {
	s      *sched.Scheduler
	work   *atomic.Int64 // the listener's bytes done in turns
	client string
	done   time.Duration // turn time so far
	first  bool          // vouched for (a known builder): ahead of other clients
	// vouching, while the sender's check is under way (Account.VouchPending),
	// waits for that check and settles it: a turn not free at once is
	// waited for only once it is known whether the request goes first.
	vouching func()
	turn     *sched.Turn // held now, or nil
	until    time.Time   // the request's read timeout (zero: the scheduler's wait)
	// refusal is the scheduler's answer when no turn came: ErrOverShare
	// tells the client why.
	refusal error
}

// errNoTurn is returned when a request's read timeout passes while it waits
// for a turn.
var errNoTurn = fmt.Errorf("%w: no turn to inflate or decode the body within the read timeout", ErrSlowBody)

func (t *cpuTurns) take() error { return t.takeBy(t.until) }

// takeBy takes a turn unless one is held, waiting until deadline.
func (t *cpuTurns) takeBy(deadline time.Time) error {
	if t.turn == nil && t.vouching != nil {
		if turn, ok := t.s.TryTake(sched.Request{Client: t.client, Done: t.done, Paced: true}); ok {
			t.turn = turn
			return nil
		}
		t.vouching()
	}
	if t.turn == nil {
		turn, err := t.s.Take(context.Background(), sched.Request{Client: t.client, Done: t.done, Deadline: deadline, First: t.first, Paced: true})
		if err != nil {
			slowBodyMeter.Mark(1)
			t.refusal = err
			return errNoTurn
		}
		t.turn = turn
	}
	return nil
}

func (t *cpuTurns) give() {
	if t.turn != nil {
		t.done += t.turn.Release()
		t.turn = nil
	}
}

func (t *cpuTurns) worked(n int64) {
	if t.work != nil {
		t.work.Add(n)
	}
}

// Heavy runs f, CPU-heavy work of size bytes on the request's body (decoding
// a large body), in a turn of the node's scheduler; a nil Account runs it
// at once. When no turn comes before the request's read timeout, f does not
// run and the error is ErrBusy (503): the scheduler stays the bound under a
// sustained flood.
func (a *Account) Heavy(size int64, f func()) error {
	return a.Run(nil, size, func(context.Context) { f() })
}

// Run is Heavy for work that stops on a context (a JSON-RPC call, a bundle
// simulation): f gets ctx marked as in its turn (sched.InTurn) and ending
// at the scheduler's turn bound, so an endless EVM call gives the turn
// back. A nil Account runs f at once on ctx.
func (a *Account) Run(ctx context.Context, size int64, f func(ctx context.Context)) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if a == nil || a.cpu == nil {
		f(ctx)
		return nil
	}
	// Waiting ends at the scheduler's wait bound, or the read timeout if
	// that comes first.
	wait := a.cpu.s.Config().Wait
	deadline := time.Now().Add(wait)
	if !a.cpu.until.IsZero() && a.cpu.until.Before(deadline) {
		deadline, wait = a.cpu.until, time.Until(a.cpu.until)
	}
	if a.cpu.takeBy(deadline) != nil {
		if a.resp != nil {
			a.resp.Set("Connection", "close")
		}
		if errors.Is(a.cpu.refusal, sched.ErrOverShare) {
			return fmt.Errorf("%w: no CPU turn: %v", ErrBusy, a.cpu.refusal)
		}
		return fmt.Errorf("%w: no CPU turn within %v (the node's slot work and other clients took the CPU)", ErrBusy, wait.Round(time.Millisecond))
	}
	defer a.cpu.give()
	ctx, cancel := context.WithTimeout(sched.InTurn(ctx), a.cpu.s.Config().Turn)
	defer cancel()
	f(ctx)
	a.cpu.worked(size)
	return nil
}

// Inflating returns the reader of an inflater (gzip) and the source it
// should read from, so that inflating holds a turn of the listener's CPU
// gate and waiting for the network does not: wrap the network body with
// net, build the inflater on it, and read from cpu(inflater). Outside a
// Server both return their argument.
func (a *Account) Inflating() (net func(io.Reader) io.Reader, cpu func(io.Reader) io.Reader) {
	if a == nil || a.cpu == nil {
		id := func(r io.Reader) io.Reader { return r }
		return id, id
	}
	return func(r io.Reader) io.Reader { return netReader{r, a.cpu} },
		func(r io.Reader) io.Reader { return cpuReader{r, a.cpu} }
}

// cpuReader holds a turn while reading (inflating) from its reader.
type cpuReader struct {
	r io.Reader
	t *cpuTurns
}

func (c cpuReader) Read(p []byte) (int, error) {
	if err := c.t.take(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.t.give()
	c.t.worked(int64(n))
	return n, err
}

// netReader gives the turn up while it waits for the network.
type netReader struct {
	r io.Reader
	t *cpuTurns
}

func (n netReader) Read(p []byte) (int, error) {
	held := n.t.turn != nil
	n.t.give()
	k, err := n.r.Read(p)
	if held {
		if terr := n.t.take(); terr != nil && err == nil {
			err = terr
		}
	}
	return k, err
}

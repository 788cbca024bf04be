// Package sched is the node's one CPU scheduler: client work (simulation,
// geth's heavy RPC, the relay's data API, inflating and decoding large
// bodies) takes turns in it, and the node's own slot work (payload
// attributes, building, getHeader, getPayload, import, the dev slot step)
// marks itself critical so that no new client turn is handed out while it
// runs.
//
// Client turns are at most GOMAXPROCS-1, so a core is always free for the
// slot's work and for cheap requests; a client waits at most a bound for a
// turn and then gets ErrBusy; a turn of work that can be cancelled (an
// EVM call) runs under a context that ends after a bound, so it cannot
// hold its turn for long. Turns go to the waiting client with the least
// recent turn time, so one client's flood does not queue the others behind
// it. With a Share, a client that held more than its share of one turn
// (beyond a small burst) waits before its next turn, parked at no CPU cost:
// a flood of cheap requests from one address, each served in a turn and
// answered at once, otherwise keeps a core busy in its turns and the other
// with what each request costs outside them (reading, parsing, answering).
package sched

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/metrics"
)

// ErrBusy is returned when no client turn came within the wait bound: the
// node's own work or other clients took the CPU; the client should retry.
var ErrBusy = errors.New("server busy, retry later")

// ErrOverShare is why a client got ErrBusy when it had used more than its
// share of the turns (Config.Share) and could not wait it off in time.
var ErrOverShare = errors.New("this client address used more than its share of the CPU turns")

var (
	busyGauge      = metrics.NewRegisteredGauge("gavel/sched/busy", nil)
	waitingGauge   = metrics.NewRegisteredGauge("gavel/sched/waiting", nil)
	criticalGauge  = metrics.NewRegisteredGauge("gavel/sched/critical", nil)
	refusedMeter   = metrics.NewRegisteredMeter("gavel/sched/refused", nil)
	pacedMeter     = metrics.NewRegisteredMeter("gavel/sched/paced", nil)
	criticalMeter  = metrics.NewRegisteredMeter("gavel/sched/critical/marks", nil)
	clientWaitHist = metrics.NewRegisteredHistogram("gavel/sched/wait", nil, metrics.NewExpDecaySample(1028, 0.015))
)

// Defaults of Config.
const (
	// DefaultWait is how long a client waits for a turn before ErrBusy.
	DefaultWait = 2 * time.Second
	// DefaultTurn bounds one turn of work that runs under a context (an
	// eth_call, a bundle simulation, a trace).
	DefaultTurn = 5 * time.Second
	// DefaultShare is the node's Share: one address holds at most half of
	// one turn's time on average.
	DefaultShare = 0.5
	// DefaultBurst is how much turn time past its share a client may take
	// at once (Config.Burst).
	DefaultBurst = 50 * time.Millisecond
)

// Config sizes a Scheduler. Zero fields take their defaults.
type Config struct {
	// Turns is how many client turns may run at once; default
	// GOMAXPROCS-1, at least one.
	Turns int
	// Wait bounds how long a client waits for a turn (DefaultWait).
	Wait time.Duration
	// Turn bounds one turn of cancellable work (DefaultTurn): its context
	// ends then.
	Turn time.Duration
	// Share is the fraction of one turn's time a client may hold on
	// average in Paced requests (DefaultShare for the node); a client past
	// it by more than Burst waits before its next turn until it is back
	// within. Zero sets no bound.
	Share float64
	// Burst is the turn time a client may take past its share before it
	// waits (DefaultBurst when Share is set).
	Burst time.Duration
}

// TurnsFor is the default number of client turns on procs cores:
// procs-1, at least one, so one core is left to the node's own work.
func TurnsFor(procs int) int { return max(1, procs-1) }

func (c Config) withDefaults() Config {
	if c.Turns <= 0 {
		c.Turns = TurnsFor(runtime.GOMAXPROCS(0))
	}
	if c.Wait <= 0 {
		c.Wait = DefaultWait
	}
	if c.Turn <= 0 {
		c.Turn = DefaultTurn
	}
	if c.Share > 0 && c.Burst <= 0 {
		c.Burst = DefaultBurst
	}
	return c
}

// recentHalfLife is how often every client's recent turn time is halved:
// the order between clients follows the last seconds, not the node's life.
const recentHalfLife = time.Second

// Scheduler hands out client turns. A nil *Scheduler hands out every turn
// at once and ignores critical marks (tests and tools that run no slots).
type Scheduler struct {
	cfg Config

	mu       sync.Mutex
	busy     int
	critical int
	seq      uint64
	waiting  queue
	recent   map[string]time.Duration // turn time per client, halved every recentHalfLife
	decayed  time.Time
	peak     int
	refused  uint64
	marks    uint64
	paced    uint64
	turnTime time.Duration
	owed     map[string]owed // turn time past each client's share (Config.Share)
	now      func() time.Time
}

// owed is a client's turn time not yet covered by its share, as of at.
type owed struct {
	d  time.Duration
	at time.Time
}

// New returns a scheduler sized by cfg.
func New(cfg Config) *Scheduler {
	return &Scheduler{cfg: cfg.withDefaults(), recent: make(map[string]time.Duration), decayed: time.Now(),
		owed: make(map[string]owed), now: time.Now}
}

// Config returns the effective configuration (defaults filled in).
func (s *Scheduler) Config() Config {
	if s == nil {
		return Config{}.withDefaults()
	}
	return s.cfg
}

// Critical marks the node's own slot work as running until the returned
// func is called: no client turn is handed out meanwhile (turns already
// held run on; they are at most Turns, so a core stays free). Marks nest
// and may overlap; call done exactly once.
func (s *Scheduler) Critical() (done func()) {
	if s == nil {
		return func() {}
	}
	s.mu.Lock()
	s.critical++
	s.marks++
	criticalGauge.Update(int64(s.critical))
	s.mu.Unlock()
	criticalMeter.Mark(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.critical--
			criticalGauge.Update(int64(s.critical))
			ready := s.dispatchLocked()
			s.mu.Unlock()
			wake(ready)
		})
	}
}

// CriticalContext is Critical for a request: the mark is carried by the
// returned context, so that the request's handler can lift it while it
// waits for work that is not its own (Idle). done ends the mark.
func (s *Scheduler) CriticalContext(ctx context.Context) (_ context.Context, done func()) {
	m := &criticalMark{s: s, done: s.Critical()}
	return context.WithValue(ctx, criticalKey{}, m), m.end
}

type criticalKey struct{}

// criticalMark is a request's critical mark, lifted while it is Idle.
type criticalMark struct {
	s     *Scheduler
	mu    sync.Mutex
	done  func() // the mark held now; nil while lifted or ended
	ended bool
}

func (m *criticalMark) end() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ended = true
	if m.done != nil {
		m.done()
		m.done = nil
	}
}

// Idle lifts the critical mark ctx carries (CriticalContext) while the
// caller waits for something that uses no CPU of its own: client turns are
// handed out meanwhile, among them those of the work waited for (a
// getHeader waiting for a bid lets the builder's submission be inflated).
// resume marks the request critical again; without a mark in ctx both do
// nothing.
func Idle(ctx context.Context) (resume func()) {
	m, _ := ctx.Value(criticalKey{}).(*criticalMark)
	if m == nil {
		return func() {}
	}
	m.mu.Lock()
	held := m.done
	m.done = nil
	m.mu.Unlock()
	if held == nil {
		return func() {}
	}
	held()
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if !m.ended && m.done == nil {
			m.done = m.s.Critical()
		}
	}
}

// Turn is a client turn; Release ends it.
type Turn struct {
	s      *Scheduler
	client string
	paced  bool // its time counts against the client's share
	start  time.Time
	once   sync.Once
}

// Release ends the turn and returns how long it was held. Calling it again
// does nothing.
func (t *Turn) Release() time.Duration {
	if t == nil || t.s == nil {
		return 0
	}
	var held time.Duration
	t.once.Do(func() {
		s := t.s
		now := s.now()
		held = now.Sub(t.start)
		s.mu.Lock()
		s.busy--
		s.turnTime += held
		s.decayLocked(now)
		s.recent[t.client] += held
		if s.cfg.Share > 0 && t.paced {
			o := s.owedLocked(t.client, now)
			s.owed[t.client] = owed{o + held, now}
		}
		ready := s.dispatchLocked()
		busyGauge.Update(int64(s.busy))
		s.mu.Unlock()
		wake(ready)
	})
	return held
}

// Request is what a client asks a turn with.
type Request struct {
	// Client keys fairness (an IP address, a signer); turns go first to the
	// client with the least recent turn time.
	Client string
	// Done is the turn time this request already had (a body read in
	// several turns): among one client's requests the fresher goes first.
	Done time.Duration
	// Deadline ends the wait (ErrBusy); zero means the Wait bound from now.
	Deadline time.Time
	// First puts the request ahead of every waiter without it: work the
	// slot needs that arrives as a client's (a known builder's submission,
	// which getHeader will serve).
	First bool
	// Paced holds the request to its client's share (Config.Share): the
	// public listener's requests, which anyone can send by the thousand.
	// A request also marked First is not held back.
	Paced bool
}

// Take waits for a client turn until r.Deadline (or the Wait bound), ctx's
// end, whichever comes first. The error is ErrBusy when no turn came in
// time, or wraps ctx's error.
func (s *Scheduler) Take(ctx context.Context, r Request) (*Turn, error) {
	if s == nil {
		return &Turn{}, nil
	}
	now := s.now()
	deadline := r.Deadline
	if deadline.IsZero() {
		deadline = now.Add(s.cfg.Wait)
	}
	paced := s.cfg.Share > 0 && r.Paced && !r.First
	if paced {
		if err := s.pace(ctx, r.Client, now, deadline); err != nil {
			return nil, err
		}
		now = s.now()
	}
	s.mu.Lock()
	if s.critical == 0 && s.busy < s.cfg.Turns && len(s.waiting) == 0 {
		s.busy++
		s.peak = max(s.peak, s.busy)
		busyGauge.Update(int64(s.busy))
		s.mu.Unlock()
		clientWaitHist.Update(0)
		return &Turn{s: s, client: r.Client, paced: paced, start: now}, nil
	}
	s.decayLocked(now)
	w := &waiter{first: r.First, prio: s.recent[r.Client] + r.Done, seq: s.seq, ready: make(chan struct{})}
	s.seq++
	heap.Push(&s.waiting, w)
	waitingGauge.Update(int64(len(s.waiting)))
	s.mu.Unlock()

	var ctxDone <-chan struct{}
	if ctx != nil {
		ctxDone = ctx.Done()
	}
	timer := time.NewTimer(deadline.Sub(now))
	defer timer.Stop()
	var cause error
	select {
	case <-w.ready:
		clientWaitHist.Update(int64(s.now().Sub(now)))
		return &Turn{s: s, client: r.Client, paced: paced, start: s.now()}, nil
	case <-timer.C:
		cause = fmt.Errorf("%w: no CPU turn within %v", ErrBusy, deadline.Sub(now).Round(time.Millisecond))
	case <-ctxDone:
		cause = ctx.Err()
	}
	s.mu.Lock()
	if w.index < 0 { // handed the turn as the wait ended
		s.mu.Unlock()
		return &Turn{s: s, client: r.Client, paced: paced, start: s.now()}, nil
	}
	heap.Remove(&s.waiting, w.index)
	waitingGauge.Update(int64(len(s.waiting)))
	s.refused++
	s.mu.Unlock()
	refusedMeter.Mark(1)
	return nil, cause
}

// TryTake takes a client turn for r only when one is free now: none held by
// the node's slot work, no waiter ahead, and r's client within its share
// when r is paced. It never waits.
func (s *Scheduler) TryTake(r Request) (*Turn, bool) {
	if s == nil {
		return &Turn{}, true
	}
	now := s.now()
	paced := s.cfg.Share > 0 && r.Paced && !r.First
	s.mu.Lock()
	defer s.mu.Unlock()
	if paced && s.owedLocked(r.Client, now) > s.cfg.Burst {
		return nil, false
	}
	if s.critical != 0 || s.busy >= s.cfg.Turns || len(s.waiting) != 0 {
		return nil, false
	}
	s.busy++
	s.peak = max(s.peak, s.busy)
	busyGauge.Update(int64(s.busy))
	clientWaitHist.Update(0)
	return &Turn{s: s, client: r.Client, paced: paced, start: now}, true
}

// pace holds a client that took more than its share back until it is
// within its burst again: parked on a timer, it costs no CPU. When that
// comes after deadline it waits until the deadline and gets ErrBusy: a
// flood answered busy at once would only come back sooner.
func (s *Scheduler) pace(ctx context.Context, client string, now, deadline time.Time) error {
	s.mu.Lock()
	o := s.owedLocked(client, now)
	if o > s.cfg.Burst {
		s.paced++
	}
	s.mu.Unlock()
	if o <= s.cfg.Burst {
		return nil
	}
	pacedMeter.Mark(1)
	need := time.Duration(float64(o-s.cfg.Burst) / s.cfg.Share)
	wait := need
	late := now.Add(need).After(deadline)
	if late {
		wait = deadline.Sub(now)
	}
	var ctxDone <-chan struct{}
	if ctx != nil {
		ctxDone = ctx.Done()
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctxDone:
		return ctx.Err()
	}
	if late {
		s.mu.Lock()
		s.refused++
		s.mu.Unlock()
		refusedMeter.Mark(1)
		return fmt.Errorf("%w: %w (%v to wait off, more than the %v it could wait)",
			ErrBusy, ErrOverShare, need.Round(time.Millisecond), wait.Round(time.Millisecond))
	}
	return nil
}

// owedLocked is the client's turn time past its share at now: what it
// held, less Share of the time since.
func (s *Scheduler) owedLocked(client string, now time.Time) time.Duration {
	o, ok := s.owed[client]
	if !ok {
		return 0
	}
	d := o.d - time.Duration(s.cfg.Share*float64(now.Sub(o.at)))
	if d <= 0 {
		delete(s.owed, client)
		return 0
	}
	return d
}

// Run runs f in a client turn with a context that ends after the Turn
// bound (and with ctx): the EVM, simulation and tracers stop on it, so
// f cannot hold the turn for long. The error is Take's when no turn came.
// On a context already InTurn, f runs at once in that turn.
func (s *Scheduler) Run(ctx context.Context, client string, f func(ctx context.Context) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Value(inTurnKey{}) != nil {
		return f(ctx)
	}
	t, err := s.Take(ctx, Request{Client: client})
	if err != nil {
		return err
	}
	defer t.Release()
	ctx, cancel := context.WithTimeout(InTurn(ctx), s.Config().Turn)
	defer cancel()
	return f(ctx)
}

type inTurnKey struct{}

// InTurn returns ctx marked as running in a client turn taken already: Run
// on it does not wait for a second turn (which, with one turn, would never
// come). A listener that took the turn for a whole request marks the
// request's context so.
func InTurn(ctx context.Context) context.Context {
	return context.WithValue(ctx, inTurnKey{}, true)
}

// dispatchLocked hands free turns to waiters, none while critical work
// runs; it returns the waiters to wake after unlocking.
func (s *Scheduler) dispatchLocked() []*waiter {
	var ready []*waiter
	for s.critical == 0 && s.busy < s.cfg.Turns && len(s.waiting) > 0 {
		w := heap.Pop(&s.waiting).(*waiter)
		s.busy++
		s.peak = max(s.peak, s.busy)
		ready = append(ready, w)
	}
	if len(ready) > 0 {
		busyGauge.Update(int64(s.busy))
		waitingGauge.Update(int64(len(s.waiting)))
	}
	return ready
}

func wake(ready []*waiter) {
	for _, w := range ready {
		close(w.ready)
	}
}

// decayLocked halves every client's recent turn time once per half-life
// and forgets clients whose time fell to nothing, and those whose share
// covered their turn time, so the maps hold only clients of the last
// seconds.
func (s *Scheduler) decayLocked(now time.Time) {
	for now.Sub(s.decayed) >= recentHalfLife {
		s.decayed = s.decayed.Add(recentHalfLife)
		for c, d := range s.recent {
			if d /= 2; d < time.Microsecond {
				delete(s.recent, c)
			} else {
				s.recent[c] = d
			}
		}
		for c := range s.owed {
			s.owedLocked(c, now) // forgets a client whose share covered its time
		}
		if len(s.recent) == 0 {
			s.decayed = now
		}
	}
}

// Stats is the scheduler's state now and since it started.
type Stats struct {
	Turns    int           // client turns that may run at once
	Busy     int           // client turns held now
	Waiting  int           // clients waiting for a turn now
	Critical int           // critical marks held now
	Peak     int           // most client turns held at once
	Refused  uint64        // waits that ended without a turn
	Paced    uint64        // requests held back for their client's share
	Marks    uint64        // critical marks taken
	TurnTime time.Duration // time client turns were held
}

// Stats reports the scheduler's use (for tests, figures and the status page).
func (s *Scheduler) Stats() Stats {
	if s == nil {
		return Stats{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Turns: s.cfg.Turns, Busy: s.busy, Waiting: len(s.waiting), Critical: s.critical, Peak: s.peak, Refused: s.refused, Paced: s.paced, Marks: s.marks, TurnTime: s.turnTime}
}

// waiter is a client waiting for a turn.
type waiter struct {
	first bool          // ahead of those without
	prio  time.Duration // its client's recent turn time plus its own
	seq   uint64
	index int // in the queue, -1 once handed the turn
	ready chan struct{}
}

type queue []*waiter

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].first != q[j].first {
		return q[i].first
	}
	return q[i].prio < q[j].prio || q[i].prio == q[j].prio && q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *queue) Push(x any) {
	w := x.(*waiter)
	w.index = len(*q)
	*q = append(*q, w)
}
func (q *queue) Pop() any {
	old := *q
	w := old[len(old)-1]
	*q = old[:len(old)-1]
	w.index = -1
	return w
}

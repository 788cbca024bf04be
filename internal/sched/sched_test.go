package sched

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond (the scheduler's own state, never wall-clock timing
// of the work) until it holds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestTurnsFor(t *testing.T) {
	for procs, want := range map[int]int{1: 1, 2: 1, 3: 2, 8: 7} {
		if got := TurnsFor(procs); got != want {
			t.Errorf("TurnsFor(%d) = %d, want %d", procs, got, want)
		}
	}
	if got, want := New(Config{}).Stats().Turns, TurnsFor(runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("default turns %d, want GOMAXPROCS-1 = %d", got, want)
	}
}

// TestTurnsNeverExceedSize: many clients at once never hold more than the
// scheduler's turns, and every one of them gets its turn in the end.
func TestTurnsNeverExceedSize(t *testing.T) {
	s := New(Config{Turns: 3, Wait: time.Hour})
	var (
		mu        sync.Mutex
		held, top int
		wg        sync.WaitGroup
	)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			turn, err := s.Take(context.Background(), Request{Client: string(rune('a' + i%8))})
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			held++
			top = max(top, held)
			mu.Unlock()
			time.Sleep(100 * time.Microsecond) // give the others a chance to overlap
			mu.Lock()
			held--
			mu.Unlock()
			turn.Release()
		}()
	}
	wg.Wait()
	st := s.Stats()
	if top > 3 || st.Peak > 3 {
		t.Fatalf("%d turns held at once (scheduler peak %d), want at most 3", top, st.Peak)
	}
	if st.Busy != 0 || st.Waiting != 0 {
		t.Fatalf("after all turns: %+v", st)
	}
}

// TestNoTurnWhileCritical: while the node's slot work is marked, a client
// turn that is free is not handed out; it is once the mark ends.
func TestNoTurnWhileCritical(t *testing.T) {
	s := New(Config{Turns: 2, Wait: time.Hour})
	done := s.Critical()
	got := waitingClient(t, s)
	nested := s.Critical() // marks overlap: the first ending does not free turns
	done()
	done() // a second call of one mark's done is a no-op
	if st := s.Stats(); st.Busy != 0 || st.Waiting != 1 || st.Critical != 1 {
		t.Fatalf("with a critical mark held: %+v, want the client waiting and no turn taken", st)
	}
	nested()
	turn := <-got
	if st := s.Stats(); st.Busy != 1 || st.Critical != 0 || st.Marks != 2 {
		t.Fatalf("after the marks ended: %+v, want the turn taken", st)
	}
	turn.Release()
}

// waitingClient starts a client waiting for a turn of s (none free) and
// returns where its turn will come.
func waitingClient(t *testing.T, s *Scheduler) <-chan *Turn {
	t.Helper()
	got := make(chan *Turn, 1)
	go func() {
		turn, err := s.Take(context.Background(), Request{Client: "c"})
		if err != nil {
			t.Error(err)
		}
		got <- turn
	}()
	waitFor(t, func() bool { return s.Stats().Waiting == 1 })
	return got
}

// TestIdleLiftsTheMark: a request's critical mark (CriticalContext) is
// lifted while it is Idle, so a waiting client gets its turn, and held
// again after resume; ending the request while Idle, or resuming after it
// ended, leaves no mark behind.
func TestIdleLiftsTheMark(t *testing.T) {
	s := New(Config{Turns: 1, Wait: time.Hour})
	ctx, done := s.CriticalContext(context.Background())
	got := waitingClient(t, s)
	resume := Idle(ctx)
	turn := <-got // handed out while the mark is lifted
	turn.Release()
	resume()
	if st := s.Stats(); st.Critical != 1 {
		t.Fatalf("after resume: %+v, want the mark held again", st)
	}
	if _, ok := s.TryTake(Request{Client: "c"}); ok {
		t.Fatal("a turn was handed out with the mark held again")
	}
	resume = Idle(ctx)
	done() // the request ends while Idle
	resume()
	if st := s.Stats(); st.Critical != 0 {
		t.Fatalf("after the request ended: %+v, want no mark", st)
	}
	resume = Idle(context.Background()) // no mark: nothing to lift
	resume()
}

// TestWaiterGetsBusy: a client that gets no turn within the wait bound gets
// ErrBusy and leaves the queue; one whose context ends gets its error.
func TestWaiterGetsBusy(t *testing.T) {
	s := New(Config{Turns: 1, Wait: 20 * time.Millisecond})
	first, err := s.Take(context.Background(), Request{Client: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(context.Background(), Request{Client: "b"}); !errors.Is(err, ErrBusy) || err.Error() != "server busy, retry later: no CPU turn within 20ms" {
		t.Fatalf("waiting past the bound: %v, want ErrBusy naming the wait", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Take(ctx, Request{Client: "c", Deadline: time.Now().Add(time.Hour)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled client: %v, want context.Canceled", err)
	}
	if st := s.Stats(); st.Waiting != 0 || st.Busy != 1 || st.Refused != 2 {
		t.Fatalf("after the refusals: %+v", st)
	}
	first.Release()
	first.Release()
	if st := s.Stats(); st.Busy != 0 {
		t.Fatalf("after the release: %+v", st)
	}
}

// TestFairBetweenClients: with the turn taken, a client that has had no
// turn lately goes before a client that just used the CPU, whatever their
// arrival order; among equals, the earlier goes first.
func TestFairBetweenClients(t *testing.T) {
	s := New(Config{Turns: 1, Wait: time.Hour})
	s.recent["flooder"] = 500 * time.Millisecond
	hold, _ := s.Take(context.Background(), Request{Client: "x"})
	order := make(chan string, 3)
	for i, c := range []string{"flooder", "honest", "late"} {
		go func() {
			turn, err := s.Take(context.Background(), Request{Client: c})
			if err != nil {
				t.Error(err)
			}
			order <- c
			turn.Release()
		}()
		waitFor(t, func() bool { return s.Stats().Waiting == i+1 })
	}
	hold.Release()
	if a, b, c := <-order, <-order, <-order; a != "honest" || b != "late" || c != "flooder" {
		t.Fatalf("turns went to %s, %s, %s; want honest, late, flooder", a, b, c)
	}
}

// TestFirstGoesAhead: a request marked First (a known builder's
// submission) goes before every other waiter, however little they used.
func TestFirstGoesAhead(t *testing.T) {
	s := New(Config{Turns: 1, Wait: time.Hour})
	s.recent["builder"] = time.Second
	hold, _ := s.Take(context.Background(), Request{Client: "x"})
	order := make(chan string, 2)
	for i, r := range []Request{{Client: "fresh"}, {Client: "builder", First: true}} {
		go func() {
			turn, err := s.Take(context.Background(), r)
			if err != nil {
				t.Error(err)
			}
			order <- r.Client
			turn.Release()
		}()
		waitFor(t, func() bool { return s.Stats().Waiting == i+1 })
	}
	hold.Release()
	if a, b := <-order, <-order; a != "builder" || b != "fresh" {
		t.Fatalf("turns went to %s, %s; want the First request ahead", a, b)
	}
}

// TestRunBoundsTheTurn: work run in a turn gets a context that ends at the
// turn bound, so an EVM call that never ends on its own gives the turn back.
func TestRunBoundsTheTurn(t *testing.T) {
	s := New(Config{Turns: 1, Turn: 10 * time.Millisecond})
	err := s.Run(context.Background(), "c", func(ctx context.Context) error {
		if s.Stats().Busy != 1 {
			t.Error("Run's work runs outside a turn")
		}
		<-ctx.Done() // an infinite loop the EVM stops on its context
		return ctx.Err()
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Run of endless work: %v, want the turn bound's deadline", err)
	}
	if st := s.Stats(); st.Busy != 0 {
		t.Fatalf("after Run: %+v", st)
	}
}

// TestRunInTurnTakesNoSecondTurn: work already in a turn (the MEV
// listener's JSON-RPC call reaching a gated service) runs at once, where a
// second Take on a one-turn scheduler would wait for ever.
func TestRunInTurnTakesNoSecondTurn(t *testing.T) {
	s := New(Config{Turns: 1, Wait: 10 * time.Millisecond})
	err := s.Run(context.Background(), "c", func(ctx context.Context) error {
		return s.Run(ctx, "c", func(context.Context) error { return nil })
	})
	if err != nil {
		t.Fatalf("nested Run: %v, want the outer turn used", err)
	}
}

// TestDecayForgetsClients: recent turn time halves with time and clients
// whose time is gone leave the map.
func TestDecayForgetsClients(t *testing.T) {
	s := New(Config{Turns: 1})
	s.recent["a"] = time.Second
	s.recent["b"] = time.Microsecond
	s.decayLocked(s.decayed.Add(recentHalfLife))
	if s.recent["a"] != time.Second/2 {
		t.Fatalf("a's recent time %v, want halved", s.recent["a"])
	}
	if _, ok := s.recent["b"]; ok {
		t.Fatal("a client with no time left stayed in the map")
	}
}

func TestNilScheduler(t *testing.T) {
	var s *Scheduler
	s.Critical()()
	turn, err := s.Take(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	turn.Release()
	if err := s.Run(context.Background(), "", func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// fakeClock is a scheduler clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestShareHoldsFlooderBack: a client that held a turn for longer than its
// share allows (past the burst) waits before its next paced turn, and gets
// busy when the wait would pass its deadline; another client, a request
// marked First and work not marked Paced are not held back; once the time its share covers has
// passed, the client takes turns again at once.
func TestShareHoldsFlooderBack(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	s := New(Config{Turns: 2, Share: 0.5, Burst: 10 * time.Millisecond})
	s.now = clock.Now
	take := func(client string, first bool, wait time.Duration) error {
		turn, err := s.Take(context.Background(), Request{Client: client, First: first, Paced: true, Deadline: clock.Now().Add(wait)})
		if err == nil {
			turn.Release()
		}
		return err
	}

	// The flooder holds a turn 100 ms: 90 ms past its burst, 180 ms of
	// time at half a turn.
	turn, err := s.Take(context.Background(), Request{Client: "flooder", Paced: true})
	if err != nil {
		t.Fatal(err)
	}
	clock.Add(100 * time.Millisecond)
	turn.Release()
	// Work not marked Paced (geth's own RPC) is not held back.
	if err := s.Run(context.Background(), "flooder", func(context.Context) error { return nil }); err != nil {
		t.Fatalf("the flooder's unpaced work: %v", err)
	}

	if err := take("flooder", false, time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("flooder past its share, 1 ms to wait: %v, want ErrBusy", err)
	}
	if st := s.Stats(); st.Paced != 1 || st.Refused != 1 {
		t.Fatalf("stats %+v: want 1 paced, 1 refused", st)
	}
	if err := take("honest", false, time.Millisecond); err != nil {
		t.Fatalf("another client: %v", err)
	}
	if err := take("flooder", true, time.Millisecond); err != nil {
		t.Fatalf("the flooder's request marked First: %v", err)
	}
	// 170 ms later it still owes 15 ms, 5 past the burst: 10 ms to wait,
	// which a 1 s deadline allows (a real 10 ms timer).
	clock.Add(170 * time.Millisecond)
	if err := take("flooder", false, time.Second); err != nil {
		t.Fatalf("flooder 10 ms from its share: %v", err)
	}
	if st := s.Stats(); st.Paced != 2 || st.Refused != 1 {
		t.Fatalf("stats %+v: want 2 paced, 1 refused", st)
	}
	// Its share covers what it held: no wait.
	clock.Add(time.Second)
	if err := take("flooder", false, time.Millisecond); err != nil {
		t.Fatalf("flooder within its share: %v", err)
	}
	if st := s.Stats(); st.Paced != 2 {
		t.Fatalf("stats %+v: want still 2 paced", st)
	}
}

// TestNoShareNoPacing: without a Share, a client takes turn after turn
// however long it held them, Paced or not.
func TestNoShareNoPacing(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	s := New(Config{Turns: 1})
	s.now = clock.Now
	for i := 0; i < 3; i++ {
		turn, err := s.Take(context.Background(), Request{Client: "a", Paced: true, Deadline: clock.Now().Add(time.Millisecond)})
		if err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
		clock.Add(time.Second)
		turn.Release()
	}
	if st := s.Stats(); st.Paced != 0 {
		t.Fatalf("stats %+v: want none paced", st)
	}
}

// TestShareForgetsClients: a client whose share has covered its turn time
// is forgotten at the next decay, whether or not it comes back, so a flood
// from ever new addresses leaves nothing behind.
func TestShareForgetsClients(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	s := New(Config{Turns: 1, Share: 0.5})
	s.now, s.decayed = clock.Now, clock.Now()
	for i := 0; i < 100; i++ {
		turn, err := s.Take(context.Background(), Request{Client: string(rune('a' + i)), Paced: true})
		if err != nil {
			t.Fatal(err)
		}
		clock.Add(time.Millisecond)
		turn.Release()
	}
	s.mu.Lock()
	held := len(s.owed)
	s.mu.Unlock()
	if held != 100 {
		t.Fatalf("%d clients owe turn time, want 100", held)
	}
	clock.Add(2 * time.Second)
	turn, err := s.Take(context.Background(), Request{Client: "last"})
	if err != nil {
		t.Fatal(err)
	}
	turn.Release()
	s.mu.Lock()
	held = len(s.owed)
	s.mu.Unlock()
	if held != 0 {
		t.Fatalf("%d clients remembered after their share covered them, want 0", held)
	}
}

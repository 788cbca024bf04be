package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/metrics"
)

// maxGroup bounds how many writes share one transaction.
const maxGroup = 1024

// When the previous group held more than one write (writers are
// concurrent), the committer keeps gathering a group while writes keep
// arriving less than lingerGap apart, for at most lingerMax: a commit (its
// WAL frames and fsync) costs far more CPU than a write, so bigger groups
// leave more CPU for the requests. A lone writer is committed at once.
const (
	lingerGap = 200 * time.Microsecond
	lingerMax = time.Millisecond
)

var (
	commitMeter = metrics.NewRegisteredMeter("gavel/store/commits", nil)
	writeMeter  = metrics.NewRegisteredMeter("gavel/store/writes", nil)
	commitTimer = metrics.NewRegisteredTimer("gavel/store/commit", nil)
	// queryTimer times the reads (registrations, deliveries, bid traces,
	// beta bundles, user statistics).
	queryTimer = metrics.NewRegisteredTimer("gavel/store/query", nil)
)

// groupCommitter funnels acknowledged writes through one goroutine that
// commits whatever is queued in a single transaction. Under load, hundreds
// of requests share one fsync; with one caller it is a plain commit. Each
// write runs inside its own savepoint, so one failing write is rolled back
// alone and the others of its group still commit.
//
// Every acknowledged write goes through it (beta bundles, the relay's
// registrations, delivered payloads and bid records): a write is just a
// function of a txWriter.
type groupCommitter struct {
	db    *sql.DB
	d     dialect
	stmts map[string]*sql.Stmt // prepared once, used by every group's tx
	reqs  chan *gcReq
	quit  chan struct{}
	done  sync.WaitGroup
	mu    sync.RWMutex // held for reading by submitters, for writing by close
	shut  bool
}

// writeFunc is one acknowledged write.
type writeFunc func(ctx context.Context, w *txWriter) error

type gcReq struct {
	fn   writeFunc
	beta bool // takes the dialect's betaLock first
	err  error
	done chan struct{}
}

func newGroupCommitter(db *sql.DB, d dialect) *groupCommitter {
	g := &groupCommitter{db: db, d: d, stmts: map[string]*sql.Stmt{}, reqs: make(chan *gcReq, maxGroup), quit: make(chan struct{})}
	g.done.Add(1)
	go g.loop()
	return g
}

// submit queues fn and returns once its group is committed (or fn failed).
func (g *groupCommitter) submit(ctx context.Context, fn writeFunc) error {
	return g.enqueue(ctx, &gcReq{fn: fn, done: make(chan struct{})})
}

// submitBeta is submit for a write that checks beta bundle quotas: its
// group's transaction first takes the dialect's betaLock, so that the
// counts it reads are not changed by another process until it commits.
// The lock comes before any other statement of the group, so a group
// never holds a row lock while it waits for it (no lock cycle).
func (g *groupCommitter) submitBeta(ctx context.Context, fn writeFunc) error {
	return g.enqueue(ctx, &gcReq{fn: fn, beta: true, done: make(chan struct{})})
}

// queue is submit split in two: it queues fn and returns a function that
// waits until fn's group is committed. Writes queued one after another
// commit in that order (one queue, one committer), so a caller can queue
// under its own lock and wait after releasing it.
func (g *groupCommitter) queue(ctx context.Context, fn writeFunc) (wait func() error) {
	r := &gcReq{fn: fn, done: make(chan struct{})}
	if err := g.put(ctx, r); err != nil {
		return func() error { return err }
	}
	return func() error {
		<-r.done
		return r.err
	}
}

// put queues r.
func (g *groupCommitter) put(ctx context.Context, r *gcReq) error {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.shut {
		return ErrClosed
	}
	select {
	case g.reqs <- r:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *groupCommitter) enqueue(ctx context.Context, r *gcReq) error {
	if err := g.put(ctx, r); err != nil {
		return err
	}
	// Once queued the write happens; wait for it even if ctx ends, so the
	// caller never answers "failed" for a write that was committed.
	<-r.done
	return r.err
}

func (g *groupCommitter) loop() {
	defer g.done.Done()
	defer g.closeStmts()
	batch := make([]*gcReq, 0, maxGroup)
	linger := time.NewTimer(lingerGap)
	linger.Stop()
	last := 0 // size of the previous group
	for {
		select {
		case r := <-g.reqs:
			batch = append(batch[:0], r)
		drain:
			for len(batch) < maxGroup {
				select {
				case r := <-g.reqs:
					batch = append(batch, r)
				default:
					break drain
				}
			}
			if last > 1 {
				batch = g.gather(batch, linger)
			}
			g.commit(batch)
			last = len(batch)
		case <-g.quit:
			// Commit what was queued before close.
			batch = batch[:0]
			for {
				select {
				case r := <-g.reqs:
					batch = append(batch, r)
				default:
					if len(batch) > 0 {
						g.commit(batch)
					}
					return
				}
			}
		}
	}
}

// gather adds writes to batch while more keep arriving: it sleeps lingerGap
// at a time, taking what was queued meanwhile, until a gap brings nothing or
// lingerMax has passed. Sleeping rather than waking for every write keeps
// the committer's own scheduling cost per group, not per write.
func (g *groupCommitter) gather(batch []*gcReq, t *time.Timer) []*gcReq {
	end := time.Now().Add(lingerMax)
	for len(batch) < maxGroup {
		wait := min(lingerGap, time.Until(end))
		if wait <= 0 {
			break
		}
		t.Reset(wait)
		<-t.C
		n := len(batch)
	drain:
		for len(batch) < maxGroup {
			select {
			case r := <-g.reqs:
				batch = append(batch, r)
			default:
				break drain
			}
		}
		if len(batch) == n {
			break
		}
	}
	return batch
}

func (g *groupCommitter) commit(batch []*gcReq) {
	commitMeter.Mark(1)
	writeMeter.Mark(int64(len(batch)))
	defer commitTimer.UpdateSince(time.Now())
	ctx := context.Background()
	finish := func(err error) {
		for _, r := range batch {
			if err != nil && r.err == nil {
				r.err = err
			}
			close(r.done)
		}
	}
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		finish(fmt.Errorf("store: begin: %w", err))
		return
	}
	w := &txWriter{tx: tx, g: g}
	if g.d.betaLock != "" && slices.ContainsFunc(batch, func(r *gcReq) bool { return r.beta }) {
		if _, err := w.exec(ctx, g.d.betaLock); err != nil {
			tx.Rollback()
			finish(fmt.Errorf("store: beta bundle lock: %w", err))
			return
		}
	}
	for _, r := range batch {
		if err := w.savepoint(ctx, "SAVEPOINT w"); err != nil {
			tx.Rollback()
			finish(fmt.Errorf("store: savepoint: %w", err))
			return
		}
		if r.err = r.fn(ctx, w); r.err != nil {
			if err := w.savepoint(ctx, "ROLLBACK TO SAVEPOINT w"); err != nil {
				tx.Rollback()
				finish(fmt.Errorf("store: rollback to savepoint: %w", err))
				return
			}
		}
		if err := w.savepoint(ctx, "RELEASE SAVEPOINT w"); err != nil {
			tx.Rollback()
			finish(fmt.Errorf("store: release savepoint: %w", err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		finish(fmt.Errorf("store: commit: %w", err))
		return
	}
	finish(nil)
}

func (g *groupCommitter) close() {
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
	close(g.quit)
	g.done.Wait()
}

// stmt returns query prepared on the database, preparing it the first time.
// Only the committer's goroutine calls it.
func (g *groupCommitter) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st := g.stmts[query]; st != nil {
		return st, nil
	}
	st, err := g.db.PrepareContext(ctx, g.d.rebind(query))
	if err != nil {
		return nil, err
	}
	g.stmts[query] = st
	return st, nil
}

func (g *groupCommitter) closeStmts() {
	for _, st := range g.stmts {
		st.Close()
	}
}

// txWriter runs a group's statements in its transaction. Statements are
// prepared once per connection and reused by later groups.
type txWriter struct {
	tx *sql.Tx
	g  *groupCommitter
}

// exec runs query (with ? placeholders) with args.
func (w *txWriter) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := w.g.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return w.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

// queryRow runs query (with ? placeholders) with args and returns its row.
func (w *txWriter) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := w.g.stmt(ctx, query)
	if err != nil {
		// A failed prepare shows as the row's error.
		return w.tx.QueryRowContext(ctx, w.g.d.rebind(query), args...)
	}
	return w.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
}

func (w *txWriter) savepoint(ctx context.Context, q string) error {
	_, err := w.exec(ctx, q)
	return err
}

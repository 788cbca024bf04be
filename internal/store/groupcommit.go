package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// maxGroup bounds how many writes share one transaction.
const maxGroup = 1024

// groupCommitter funnels acknowledged writes through one goroutine that
// commits whatever is queued in a single transaction. Under load, hundreds
// of requests share one fsync; with one caller it is a plain commit. Each
// write runs inside its own savepoint, so one failing write is rolled back
// alone and the others of its group still commit.
//
// Any domain's acknowledged writes go through it (beta bundles now; the
// relay's registrations and delivered payloads later): a write is just a
// function of a txWriter.
type groupCommitter struct {
	db   *sql.DB
	d    dialect
	reqs chan *gcReq
	quit chan struct{}
	done sync.WaitGroup
	mu   sync.RWMutex // held for reading by submitters, for writing by close
	shut bool
}

// writeFunc is one acknowledged write.
type writeFunc func(ctx context.Context, w *txWriter) error

type gcReq struct {
	fn   writeFunc
	err  error
	done chan struct{}
}

func newGroupCommitter(db *sql.DB, d dialect) *groupCommitter {
	g := &groupCommitter{db: db, d: d, reqs: make(chan *gcReq, maxGroup), quit: make(chan struct{})}
	g.done.Add(1)
	go g.loop()
	return g
}

// submit queues fn and returns once its group is committed (or fn failed).
func (g *groupCommitter) submit(ctx context.Context, fn writeFunc) error {
	r := &gcReq{fn: fn, done: make(chan struct{})}
	g.mu.RLock()
	if g.shut {
		g.mu.RUnlock()
		return ErrClosed
	}
	select {
	case g.reqs <- r:
	case <-ctx.Done():
		g.mu.RUnlock()
		return ctx.Err()
	}
	g.mu.RUnlock()
	// Once queued the write happens; wait for it even if ctx ends, so the
	// caller never answers "failed" for a write that was committed.
	<-r.done
	return r.err
}

func (g *groupCommitter) loop() {
	defer g.done.Done()
	batch := make([]*gcReq, 0, maxGroup)
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
			g.commit(batch)
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

func (g *groupCommitter) commit(batch []*gcReq) {
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
	w := &txWriter{tx: tx, d: g.d, stmts: map[string]*sql.Stmt{}}
	defer w.close()
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

// txWriter runs a group's statements, preparing each distinct query once
// per group transaction.
type txWriter struct {
	tx    *sql.Tx
	d     dialect
	stmts map[string]*sql.Stmt
}

// exec runs query (with ? placeholders) with args.
func (w *txWriter) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st := w.stmts[query]
	if st == nil {
		var err error
		if st, err = w.tx.PrepareContext(ctx, w.d.rebind(query)); err != nil {
			return nil, err
		}
		w.stmts[query] = st
	}
	return st.ExecContext(ctx, args...)
}

func (w *txWriter) savepoint(ctx context.Context, q string) error {
	_, err := w.exec(ctx, q)
	return err
}

func (w *txWriter) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

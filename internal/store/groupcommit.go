package store

import (
	"context"
	"fmt"
	"sync"
)

// maxGroup bounds how many writes share one transaction.
const maxGroup = 1024

// groupCommitter funnels acknowledged writes through one goroutine that
// commits whatever is queued in a single transaction. Under load, hundreds
// of requests share one fsync; with one caller it is a plain commit.
type groupCommitter struct {
	s    *sqlStore
	reqs chan *gcReq
	quit chan struct{}
	done sync.WaitGroup
	mu   sync.RWMutex // held for reading by submitters, for writing by close
	shut bool
}

type gcReq struct {
	w       betaWrite
	created bool
	err     error
	done    chan struct{}
}

func newGroupCommitter(s *sqlStore) *groupCommitter {
	g := &groupCommitter{s: s, reqs: make(chan *gcReq, maxGroup), quit: make(chan struct{})}
	g.done.Add(1)
	go g.loop()
	return g
}

func (g *groupCommitter) submit(ctx context.Context, w betaWrite) (bool, error) {
	r := &gcReq{w: w, done: make(chan struct{})}
	g.mu.RLock()
	if g.shut {
		g.mu.RUnlock()
		return false, ErrClosed
	}
	select {
	case g.reqs <- r:
	case <-ctx.Done():
		g.mu.RUnlock()
		return false, ctx.Err()
	}
	g.mu.RUnlock()
	// Once queued the write happens; wait for it even if ctx ends, so the
	// caller never answers "failed" for a write that was committed.
	<-r.done
	return r.created, r.err
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
			// Drain what was queued before close.
			for {
				select {
				case r := <-g.reqs:
					g.commit([]*gcReq{r})
				default:
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
			if err != nil {
				r.created, r.err = false, err
			}
			close(r.done)
		}
	}
	tx, err := g.s.db.BeginTx(ctx, nil)
	if err != nil {
		finish(fmt.Errorf("store: begin: %w", err))
		return
	}
	st, err := g.s.prepareBeta(ctx, tx)
	if err != nil {
		tx.Rollback()
		finish(fmt.Errorf("store: prepare: %w", err))
		return
	}
	defer st.close()
	for _, r := range batch {
		if r.created, err = st.writeBeta(ctx, r.w); err != nil {
			tx.Rollback()
			finish(fmt.Errorf("store: writing beta bundle %s: %w", r.w.hash.Hex(), err))
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

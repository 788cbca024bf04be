package jsonrpc

import (
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/gavel-eth/gavel/mevapi"
)

// keyedLimiter is a token bucket per key (client IP or signer address).
// Idle buckets are swept so a stream of distinct keys cannot grow it forever.
type keyedLimiter struct {
	r     rate.Limit
	burst int

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

const sweepEvery, idleAfter = time.Minute, 10 * time.Minute

func newKeyedLimiter(perSecond float64, burst int) *keyedLimiter {
	if perSecond <= 0 {
		return nil
	}
	return &keyedLimiter{r: rate.Limit(perSecond), burst: burst, buckets: map[string]*bucket{}, lastSweep: time.Now()}
}

// allow reports whether key may make a request now. A nil limiter allows all.
func (k *keyedLimiter) allow(key string) bool { return k.allowN(key, 1) }

// allowRest reports whether key may make the rest of a request that counts
// as total requests (a batch of total calls) and whose first was taken by
// allow, taking their tokens if so. A total above the burst counts as the
// burst: a full bucket lets the largest batch through.
func (k *keyedLimiter) allowRest(key string, total int) bool {
	if k == nil {
		return true
	}
	return k.allowN(key, min(total, k.burst)-1)
}

// allowN takes n tokens from key's bucket if it holds them.
func (k *keyedLimiter) allowN(key string, n int) bool {
	if k == nil || n <= 0 {
		return true
	}
	now := time.Now()
	k.mu.Lock()
	defer k.mu.Unlock()
	if now.Sub(k.lastSweep) > sweepEvery {
		for key, b := range k.buckets {
			if now.Sub(b.seen) > idleAfter {
				delete(k.buckets, key)
			}
		}
		k.lastSweep = now
	}
	b := k.buckets[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(k.r, k.burst)}
		k.buckets[key] = b
	}
	b.seen = now
	return b.lim.AllowN(now, n)
}

// LimitIP wraps a REST handler of the MEV listener (the bundle simulation
// routes) in the per-IP request rate limit of the JSON-RPC calls: one bucket
// per client IP for both, so that a client cannot get around the limit by
// switching transport. Over the limit it answers 429 {"code","message"}.
func (s *Server) LimitIP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.ipLimit.allow(clientIP(r)) {
			rateLimitedMeter.Mark(1)
			mevapi.WriteError(w, http.StatusTooManyRequests, "rate limit exceeded for this IP address, retry later")
			return
		}
		next.ServeHTTP(w, r)
	})
}

package relay

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

type clientKey struct{}

// WithClient tags ctx with the client (its IP address) a request came from:
// per-client allowances (BLS checks of registrations) are charged to it.
// Requests without one share the allowance of the empty client.
func WithClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientKey{}, client)
}

func clientOf(ctx context.Context) string {
	c, _ := ctx.Value(clientKey{}).(string)
	return c
}

// clientRates is a token bucket per client; idle buckets are swept, so a
// stream of distinct clients cannot grow it forever.
type clientRates struct {
	r     rate.Limit
	burst int

	mu        sync.Mutex
	buckets   map[string]*rate.Limiter
	lastSweep time.Time
}

func newClientRates(perSecond float64, burst int) *clientRates {
	return &clientRates{r: rate.Limit(perSecond), burst: burst, buckets: map[string]*rate.Limiter{}, lastSweep: time.Now()}
}

// take takes up to n tokens of client's bucket and returns how many it got.
func (c *clientRates) take(client string, n int) int {
	if n == 0 {
		return 0
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.lastSweep) > time.Minute {
		for k, b := range c.buckets {
			if b.TokensAt(now) >= float64(c.burst) {
				delete(c.buckets, k)
			}
		}
		c.lastSweep = now
	}
	b := c.buckets[client]
	if b == nil {
		b = rate.NewLimiter(c.r, c.burst)
		c.buckets[client] = b
	}
	got := min(n, int(b.TokensAt(now)))
	if got > 0 {
		b.AllowN(now, got)
	}
	return got
}

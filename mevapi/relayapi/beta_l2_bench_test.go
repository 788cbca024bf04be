package relayapi_test

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// slowL2 is an L2 that answers every read after delay (never, when delay is
// 0): each slot's auction sells 1,000,000 gas and nothing is paid.
type slowL2 struct{ delay time.Duration }

func (l slowL2) wait(ctx context.Context) error {
	if l.delay == 0 {
		<-ctx.Done()
		return ctx.Err()
	}
	t := time.NewTimer(l.delay)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (l slowL2) Bundles(ctx context.Context, _ uint64) ([]auction.Bundle, error) {
	return nil, l.wait(ctx)
}

func (l slowL2) ItemsForSale(ctx context.Context, _ uint64) (*big.Int, error) {
	if err := l.wait(ctx); err != nil {
		return nil, err
	}
	return big.NewInt(1_000_000), nil
}

// BenchmarkBetaL2 serves GET /relay/v1/builder/validators, getHeader and a
// submission (10 transfers, SSZ+gzip, simulated in full) over loopback
// HTTP, with beta off and with the beta service reading, in the background
// every second, an L2 that answers in 500 ms or never: the request paths
// read the service's memory, so the three cases take the same time.
func BenchmarkBetaL2(b *testing.B) {
	for _, c := range []struct {
		name string
		l2   betapool.L2
	}{{"beta-off", nil}, {"l2-500ms", slowL2{500 * time.Millisecond}}, {"l2-never", slowL2{}}} {
		b.Run(c.name, func(b *testing.B) {
			holder := &relaytest.BetaHolder{}
			var opts relaytest.Options
			if c.l2 != nil {
				opts.Configure = func(cfg *relay.Config) { cfg.Beta = holder }
			}
			e, base := serverWith(b, opts)
			if c.l2 != nil {
				svc, err := betapool.NewService(betapool.ServiceConfig{
					Store: e.Store, ChainID: e.Chain.ChainID(), CurrentSlot: e.Relay.HeadSlot, Chain: e.Chain, L2: c.l2,
					Settlement: betapool.SettlementConfig{Refresh: time.Second, Timeout: time.Second},
					Changed:    func(ctx context.Context, slot uint64) { e.Relay.RemergeSlot(ctx, slot) },
				})
				if err != nil {
					b.Fatal(err)
				}
				holder.Service = svc
				svc.Start()
				b.Cleanup(func() { svc.Stop() })
				if c.name == "l2-500ms" {
					for deadline := time.Now().Add(30 * time.Second); ; {
						if _, known := svc.Gas(1); known {
							break
						}
						if time.Now().After(deadline) {
							b.Fatal("the slow L2 was never read")
						}
						time.Sleep(50 * time.Millisecond)
					}
				}
			}
			registerHTTP(b, e, base, true)
			sub := e.Submission(e.BuildBlock(1, 10, nil))
			raw, _ := sub.MarshalSSZ()
			body := gz(raw)
			hdrs := map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}
			if code, _, out := do(b, "POST", base+relayapi.PathBuilderBlocks+"?cancellations=1", body, hdrs); code != 200 {
				b.Fatalf("submit: %d %s", code, out)
			}
			pk := e.Proposer(1).Key.PublicKey()
			header := base + "/eth/v1/builder/header/1/" + sub.Fulu.Message.ParentHash.String() + "/" + pk.String()

			b.Run("validators", func(b *testing.B) {
				for b.Loop() {
					if code, _, out := do(b, "GET", base+relayapi.PathBuilderValidators, nil, nil); code != 200 || !strings.Contains(string(out), `"slot":"1"`) {
						b.Fatalf("validators: %d %s", code, out)
					}
				}
			})
			b.Run("getHeader", func(b *testing.B) {
				for b.Loop() {
					if code, _, out := do(b, "GET", header, nil, nil); code != 200 {
						b.Fatalf("getHeader: %d %s", code, out)
					}
				}
			})
			b.Run("submission", func(b *testing.B) {
				for b.Loop() {
					if code, _, out := do(b, "POST", base+relayapi.PathBuilderBlocks+"?cancellations=1", body, hdrs); code != 200 {
						b.Fatalf("submit: %d %s", code, out)
					}
				}
			})
		})
	}
}

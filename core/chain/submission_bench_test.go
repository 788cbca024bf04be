package chain_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/internal/workload"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// The end-to-end benchmark of the relay lives here rather than in the relay's
// packages because its baseline is geth's own import path, which only this
// package may call (export_test.go).

// sample is a series of timings (wall and CPU) of one kind.
type sample struct{ wall, cpu []time.Duration }

func (s *sample) time(f func()) {
	c0, t0 := testutil.CPUTime(), time.Now()
	f()
	s.wall = append(s.wall, time.Since(t0))
	s.cpu = append(s.cpu, testutil.CPUTime()-c0)
}

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p+0.5)]
}

func mean(d []time.Duration) time.Duration {
	var t time.Duration
	for _, x := range d {
		t += x
	}
	return t / time.Duration(max(len(d), 1))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkSubmissionToBid is a builder's submission on the workload's
// on-disk state (internal/workload, GAVEL_WORKLOAD=full for the million
// accounts): "safe" posts each mainnet-like block (about 30 M gas of
// transfers, token transfers and swaps) SSZ+gzip over loopback HTTP to the
// relay and times until a getHeader in the same process serves its bid,
// beside geth's import of the same block on the same state (senders on
// every core, Process, ValidateState; without writes) and one BLS
// verification, in alternating order in every iteration. "resubmit" is a
// builder's stream of 20 blocks a slot, each changing a few bundles of the
// last (new ones anywhere or at the end, moves, drops, reverting txs),
// verified incrementally (core/chain.PrefixCache) and in full.
func BenchmarkSubmissionToBid(b *testing.B) {
	log.SetDefault(log.NewLogger(log.DiscardHandler()))
	size, err := workload.SizeFromEnv()
	if err != nil {
		b.Fatal(err)
	}
	w := workload.New(size)
	c := workload.Open(b, w)
	b.Run("safe", func(b *testing.B) { benchSafe(b, w, c) })
	b.Run("resubmit", func(b *testing.B) { benchResubmit(b, w, c, false) })
	b.Run("resubmit-tail", func(b *testing.B) { benchResubmit(b, w, c, true) })
	b.Run("first", func(b *testing.B) { benchFirst(b, w, c) })
	b.Run("optimistic", func(b *testing.B) { benchOptimistic(b, w, c, false, false) })
	b.Run("optimistic-stream", func(b *testing.B) { benchOptimistic(b, w, c, true, false) })
	b.Run("optimistic-header", func(b *testing.B) { benchOptimistic(b, w, c, false, true) })
}

// benchOptimistic is "safe" for a builder the relay serves optimistically
// (its collateral covers every bid): from the POST to the relay's answer
// serving the bid to a waiting getHeader, before its simulation, against
// one BLS verification (run alone, once the simulation ended). Each iteration bids in an auction of its own (slot
// benchSlot+i, the slot before passed) and announces the build (Relay.ExpectBid, as the in-process
// builder does); the getHeader is sent first and waits in the relay for
// the bid, as a proposer's does (Relay.HeaderWaiting), so the observer's
// request is not on the path it times. A getHeader that does not answer
// with the bid is followed by polling (counted in "polled"). Each
// iteration then waits, untimed, for the background simulation to end, so
// that it does not run under the next submission's timing. Without stream
// every block is new (a generator's seed of its own); with stream the
// blocks are a builder's successive ones, each changing a few bundles of
// the last (resubmitter.mutate, streamBlocks blocks a builder), as the
// relay sees them over a slot. With headerFirst the builder posts the
// block's header submission (relayapi.PathBuilderHeaders, SSZ+gzip) and
// that is what is timed; the block follows, untimed, once the header was
// served, and is simulated before the next iteration as above.
func benchOptimistic(b *testing.B, w *workload.Workload, c *chain.Chain, stream, headerFirst bool) {
	r := newBenchRelay(b, c, relaytest.Options{Chain: c, OptimisticCollateral: new(uint256.Int).Mul(uint256.NewInt(1e18), uint256.NewInt(100))})
	e := r.e
	ctx := context.Background()
	domain := beacon.BuilderDomain(e.Beacon)
	pending := func() int {
		n := 0
		if err := e.Store.PendingSimulations(ctx, func(*store.PendingSimulation) error { n++; return nil }); err != nil {
			b.Fatal(err)
		}
		return n
	}

	var opt, bls sample
	var answers, reads []time.Duration
	var rs *resubmitter // the stream's builder
	i, early, polled := 0, 0, 0
	var allocs uint64
	for b.Loop() {
		b.StopTimer()
		slot := uint64(benchSlot + i)
		// The slot before has passed, as in production: its auction is
		// pruned with the rest of the relay's per-slot state, and the
		// known builders are read again, here while the block is built.
		e.Relay.SetHeadSlot(slot - 1)
		v := e.Proposer(slot)
		e.Relay.SetDuties([]relay.Duty{{Slot: slot, ValidatorIndex: v.Index, Pubkey: v.Key.PublicKey()}})
		var built *workload.Built
		var value *uint256.Int
		if stream {
			if i%streamBlocks == 0 {
				rs = newResubmitter(b, c, w, freshSeed())
				rs.bundles = rs.gen.Bundles(relaytest.GasLimit + 2_000_000)
			} else {
				rs.mutate(3, false)
			}
			built, value = r.blockOf(b, c, slot, rs.bundles, i)
		} else {
			built, value = r.blockAt(b, w, c, slot, freshSeed(), i)
		}
		sub := e.Submission(&relaytest.Block{Slot: slot, Built: built.BuiltBlock, Value: value})
		z := gzipSSZ(b, sub)
		path, body := relayapi.PathBuilderBlocks, z.Bytes()
		if headerFirst {
			h, err := beacon.NewHeaderSubmission(sub)
			if err != nil {
				b.Fatal(err)
			}
			path, body = relayapi.PathBuilderHeaders, gzipSSZ(b, h).Bytes()
		}
		hash := []byte(sub.BidTrace().BlockHash.String())
		trace, sig := sub.BidTrace(), sub.Signature()
		url := r.headerURLAt(slot)
		ended := e.Relay.ExpectBid(slot, c.Head().Hash())
		// The proposer's getHeader is sent first and waits in the relay
		// for the bid of the build in flight, as a proposer's does once
		// its slot began; the relay's answer to it is the bid served.
		observed := make(chan bool, 1)
		go func() { observed <- r.servedBy(b, url, hash) }()
		for e.Relay.HeaderWaiting() == 0 {
			time.Sleep(20 * time.Microsecond)
		}
		r.clock.arm(hash)
		// The harness's own garbage (the block just built, in production
		// another process's work) is collected before the timed part;
		// what the path allocates is reported (alloc-kb).
		runtime.GC()
		a0 := heapAllocs()
		b.StartTimer()

		// Servable is what counts: from the POST's start (its bytes
		// written to a kept-alive connection, rawPoster) until the relay
		// wrote the waiting getHeader's answer with the bid (read by the
		// proposer's client, read-p50-ms); the builder's answer (after
		// the pending simulation is committed) is timed apart.
		post := r.poster(b).request(path, body)
		c0, t0 := testutil.CPUTime(), time.Now()
		r.poster(b).send(b, post)
		if !<-observed {
			polled++
			r.awaitServedAt(b, url, hash)
		}
		reads = append(reads, time.Since(t0))
		opt.cpu = append(opt.cpu, testutil.CPUTime()-c0)
		opt.wall = append(opt.wall, r.clock.written().Sub(t0))
		err := r.poster(b).answer()
		answer := time.Since(t0)
		allocs += heapAllocs() - a0
		ended()
		if err != nil {
			b.Fatal(fmt.Errorf("submission %d: %w", i, err))
		}
		answers = append(answers, answer)
		b.StopTimer()
		if headerFirst {
			r.poster(b).send(b, r.poster(b).request(relayapi.PathBuilderBlocks, z.Bytes()))
			if err := r.poster(b).answer(); err != nil {
				b.Fatal(fmt.Errorf("block %d after its header: %w", i, err))
			}
		}
		if pending() > 0 {
			// Served while its simulation is still owed: the bid was not
			// simulated first.
			early++
		}
		for pending() > 0 {
			time.Sleep(time.Millisecond)
		}
		// The baseline, one BLS verification, runs alone as it would on
		// a quiet node: after the simulation, not beside it (which made
		// it 10-30 % slower, and the ratio better than the path earned).
		bls.time(func() {
			if err := beacon.Verify(trace.BuilderPubkey, trace, domain, sig); err != nil {
				b.Fatal(err)
			}
		})
		b.StartTimer()
		i++
	}
	b.ReportMetric(float64(pct(opt.wall, 0.5))/float64(pct(bls.wall, 0.5)), "optimistic-p50/bls")
	b.ReportMetric(ms(pct(opt.wall, 0.5)), "optimistic-p50-ms")
	b.ReportMetric(ms(pct(opt.wall, 0.99)), "optimistic-p99-ms")
	b.ReportMetric(ms(pct(bls.wall, 0.5)), "bls-p50-ms")
	b.ReportMetric(ms(mean(opt.cpu)), "optimistic-cpu-ms")
	b.ReportMetric(ms(pct(answers, 0.5)), "answered-p50-ms")
	b.ReportMetric(ms(pct(reads, 0.5)), "read-p50-ms")
	b.ReportMetric(float64(early)/float64(max(i, 1)), "served-before-simulation")
	b.ReportMetric(float64(polled)/float64(max(i, 1)), "polled")
	b.ReportMetric(float64(allocs)/1024/float64(max(i, 1)), "alloc-kb")
}

// seeds numbers the workload generator's seeds: every block a benchmark
// builds is new to the process (its transactions too), in every run of
// -count, so that no run finds the relay's caches (transaction roots,
// senders) warm from the blocks of the run before.
var seeds atomic.Uint64

func freshSeed() uint64 { return 1000 + seeds.Add(1) }

// streamBlocks is how many successive blocks one builder of the
// optimistic stream submits before another takes over.
const streamBlocks = 20

// heapAllocs is the bytes the process has allocated on the heap so far.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func benchSafe(b *testing.B, w *workload.Workload, c *chain.Chain) {
	r := newBenchRelay(b, c, relaytest.Options{Chain: c})
	e, hs, client := r.e, r.hs, r.client
	ctx := context.Background()
	domain := beacon.BuilderDomain(e.Beacon)

	var safe, imp, bls sample
	var txs, gas int
	i := 0
	for b.Loop() {
		b.StopTimer()
		built, value := r.block(b, w, c, freshSeed(), i)
		txs, gas = len(built.Block.Transactions()), int(built.Block.GasUsed())
		sub := e.Submission(&relaytest.Block{Slot: benchSlot, Built: built.BuiltBlock, Value: value})
		z := gzipSSZ(b, sub)
		hash := []byte(sub.BidTrace().BlockHash.String())
		beaconRoot := e.Attrs(benchSlot).ParentBeaconRoot
		payload := &chain.BuilderPayload{
			Payload: built.Envelope.ExecutionPayload, VersionedHashes: []common.Hash{}, ParentBeaconRoot: &beaconRoot,
			Requests: built.Requests, RegisteredGasLimit: relaytest.GasLimit, ProposerFeeRecipient: e.Proposer(benchSlot).FeeRecipient, Value: value,
		}
		trace, sig := sub.BidTrace(), sub.Signature()
		b.StartTimer()

		submit := func() {
			req, _ := http.NewRequest("POST", hs.URL+relayapi.PathBuilderBlocks, bytes.NewReader(z.Bytes()))
			req.Header.Set("Content-Type", "application/octet-stream")
			req.Header.Set("Content-Encoding", "gzip")
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			out, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Fatalf("submission %d: %d %s", i, res.StatusCode, out)
			}
			r.awaitServed(b, hash)
		}
		gethImport := func() {
			cp := *payload
			d := *payload.Payload // decoded afresh: cold sender caches
			cp.Payload = &d
			if err := c.GethImport(ctx, &cp); err != nil {
				b.Fatal(err)
			}
		}
		verify := func() {
			if err := beacon.Verify(trace.BuilderPubkey, trace, domain, sig); err != nil {
				b.Fatal(err)
			}
		}
		if i%2 == 0 {
			safe.time(submit)
			imp.time(gethImport)
		} else {
			imp.time(gethImport)
			safe.time(submit)
		}
		bls.time(verify)
		i++
	}
	b.ReportMetric(float64(pct(safe.wall, 0.5))/float64(pct(imp.wall, 0.5)), "safe-p50/import")
	b.ReportMetric(float64(pct(safe.wall, 0.99))/float64(pct(imp.wall, 0.99)), "safe-p99/import")
	b.ReportMetric(ms(pct(safe.wall, 0.5)), "safe-p50-ms")
	b.ReportMetric(ms(pct(safe.wall, 0.99)), "safe-p99-ms")
	b.ReportMetric(ms(pct(imp.wall, 0.5)), "import-p50-ms")
	b.ReportMetric(ms(pct(imp.wall, 0.99)), "import-p99-ms")
	b.ReportMetric(ms(pct(bls.wall, 0.5)), "bls-p50-ms")
	b.ReportMetric(ms(mean(safe.cpu)), "safe-cpu-ms")
	b.ReportMetric(ms(mean(imp.cpu)), "import-cpu-ms")
	b.ReportMetric(float64(mean(safe.cpu))/float64(mean(imp.cpu)), "safe/import-cpu")
	b.ReportMetric(float64(txs), "txs")
	b.ReportMetric(float64(gas)/1e6, "Mgas")
}

// benchResubmit is one slot per iteration: a builder's 20 blocks, each
// verified incrementally and in full (alternating which goes first); the
// ratio is of the summed times, so of the mean verification cost. With
// tail the changes are in the last quarter of the block.
func benchResubmit(b *testing.B, w *workload.Workload, c *chain.Chain, tail bool) {
	const submissions, changes = 20, 3
	pc := chain.NewPrefixCache(chain.DefaultPrefixBlocks, chain.DefaultPrefixPoints)
	proposer := common.Address{0x9f}
	var inc, full sample
	i := 0
	for b.Loop() {
		b.StopTimer()
		seed := freshSeed()
		if tail {
			seed += 1 << 20
		}
		r := newResubmitter(b, c, w, seed)
		r.attrs.Random = common.Hash{byte(i), byte(i >> 8), 1} // a block environment of its own: no prefix from the last iteration
		r.bundles = r.gen.Bundles(workload.GasLimit + 2_000_000)
		b.StartTimer()
		for s := 0; s < submissions; s++ {
			b.StopTimer()
			if s > 0 {
				r.mutate(changes, tail)
			}
			p, _ := r.payload(b, proposer, nil)
			b.StartTimer()
			run := func(pc *chain.PrefixCache) func() { return verifyWith(b, c, p, pc) }
			// Labelled for profiles: go tool pprof -tagfocus side=inc.
			lab := func(side string, f func()) func() {
				return func() { pprof.Do(context.Background(), pprof.Labels("side", side), func(context.Context) { f() }) }
			}
			if s%2 == 0 {
				inc.time(lab("inc", run(pc)))
				full.time(lab("full", run(nil)))
			} else {
				full.time(lab("full", run(nil)))
				inc.time(lab("inc", run(pc)))
			}
		}
		i++
	}
	st := pc.Stats()
	b.ReportMetric(float64(mean(inc.wall))/float64(mean(full.wall)), "resubmit/full")
	b.ReportMetric(float64(mean(inc.cpu))/float64(mean(full.cpu)), "resubmit/full-cpu")
	b.ReportMetric(ms(mean(inc.wall)), "resubmit-ms")
	b.ReportMetric(ms(mean(full.wall)), "full-ms")
	b.ReportMetric(ms(mean(inc.cpu)), "resubmit-cpu-ms")
	b.ReportMetric(ms(mean(full.cpu)), "full-cpu-ms")
	b.ReportMetric(float64(st.Skipped)/float64(st.Hits+st.Misses), "skipped-txs/block")
	b.ReportMetric(float64(st.Replayed)/float64(st.Hits+st.Misses), "replayed-txs/block")
	b.ReportMetric(float64(st.Rehashed)/float64(st.Hits+st.Misses), "rehashed/block")
}

// benchFirst is what keeping points costs a block that finds none: each
// mainnet-like block verified with an empty PrefixCache and without one,
// alternating.
func benchFirst(b *testing.B, w *workload.Workload, c *chain.Chain) {
	var with, without sample
	i := 0
	for b.Loop() {
		b.StopTimer()
		r := newResubmitter(b, c, w, freshSeed())
		r.bundles = r.gen.Bundles(workload.GasLimit + 2_000_000)
		p, _ := r.payload(b, common.Address{0x9f}, nil)
		b.StartTimer()
		run := func(pc *chain.PrefixCache) func() { return verifyWith(b, c, p, pc) }
		if i%2 == 0 {
			with.time(run(chain.NewPrefixCache(1, chain.DefaultPrefixPoints)))
			without.time(run(nil))
		} else {
			without.time(run(nil))
			with.time(run(chain.NewPrefixCache(1, chain.DefaultPrefixPoints)))
		}
		i++
	}
	b.ReportMetric(float64(mean(with.wall))/float64(mean(without.wall)), "points/none")
	b.ReportMetric(float64(mean(with.cpu))/float64(mean(without.cpu)), "points/none-cpu")
	b.ReportMetric(ms(mean(with.cpu)), "points-cpu-ms")
	b.ReportMetric(ms(mean(without.cpu)), "none-cpu-ms")
}

// benchRelay is the relay of the end-to-end benchmarks over loopback HTTP,
// every proposer registered, and the auction of slot 1 on the chain's head.
type benchRelay struct {
	e         *relaytest.Env
	hs        *httptest.Server
	clock     *answerClock
	client    *http.Client
	headerURL string
	raw       *rawPoster
}

// poster is r's kept-alive connection for timed submissions, dialled on
// first use.
func (r *benchRelay) poster(b *testing.B) *rawPoster {
	if r.raw == nil {
		conn, err := net.Dial("tcp", r.hs.Listener.Addr().String())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		r.raw = &rawPoster{conn: conn, br: bufio.NewReader(conn), host: r.hs.Listener.Addr().String()}
	}
	return r.raw
}

// rawPoster sends a timed submission as a builder's kept-alive client
// does, its request (head and body) written to the connection in one
// write by the timing goroutine. Go's http.Client would hand the request
// to a writer goroutine of its own and write the body in 4 KiB pieces:
// goroutine wake-ups of the benchmark's client, not of the relay, that
// took 0.1-0.2 ms of the path timed.
type rawPoster struct {
	conn net.Conn
	br   *bufio.Reader
	host string
}

// request is the bytes of a gzip SSZ POST of body to path.
func (p *rawPoster) request(path string, body []byte) []byte {
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", path, p.host, len(body))
	return append([]byte(head), body...)
}

// send writes req.
func (p *rawPoster) send(b *testing.B, req []byte) {
	if _, err := p.conn.Write(req); err != nil {
		b.Fatal(err)
	}
}

// answer reads the relay's answer to the request sent last: nil for a 200.
func (p *rawPoster) answer() error {
	res, err := http.ReadResponse(p.br, nil)
	if err != nil {
		return err
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("%d %s", res.StatusCode, out)
	}
	return nil
}

func newBenchRelay(b *testing.B, c *chain.Chain, opts relaytest.Options) *benchRelay {
	e := relaytest.New(b, opts)
	e.RegisterAll()
	// The node's listener: its CPU scheduler, getHeader as the slot's
	// critical work (relayapi.Scheduled).
	srv := mevapi.New(mevapi.Config{}, nil)
	mux := relayapi.Scheduled(srv, srv)
	relayapi.MountBuilder(mux, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(mux, e.Relay)
	hs := httptest.NewUnstartedServer(srv.Handler())
	clock := &answerClock{Listener: hs.Listener}
	hs.Listener = clock
	hs.Start()
	b.Cleanup(hs.Close)
	r := &benchRelay{e: e, hs: hs, clock: clock, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
	r.headerURL = r.headerURLAt(benchSlot)
	return r
}

// benchSlot is the slot the end-to-end benchmarks bid in.
const benchSlot = 1

// block builds the i-th mainnet-like block of benchSlot on the head: the
// generator's seed picks its senders, so blocks of different seeds share
// no prefix; its payment grows with i, so that each becomes the top bid.
func (r *benchRelay) block(b *testing.B, w *workload.Workload, c *chain.Chain, seed uint64, i int) (*workload.Built, *uint256.Int) {
	return r.blockAt(b, w, c, benchSlot, seed, i)
}

// blockAt is block for slot.
func (r *benchRelay) blockAt(b *testing.B, w *workload.Workload, c *chain.Chain, slot, seed uint64, i int) (*workload.Built, *uint256.Int) {
	nonce := func(addr common.Address) uint64 { n, _, _ := c.HeadAccount(addr); return n }
	g := w.NewGen(seed, types.LatestSigner(c.Config()), nonce)
	return r.blockOf(b, c, slot, g.Bundles(relaytest.GasLimit), i)
}

// blockOf builds bundles (as many as fit) into slot's block on the head,
// its payment growing with i.
func (r *benchRelay) blockOf(b *testing.B, c *chain.Chain, slot uint64, bundles []workload.Bundle, i int) (*workload.Built, *uint256.Int) {
	a, proposer := r.e.Attrs(slot), r.e.Proposer(slot)
	value := new(uint256.Int).Add(uint256.NewInt(1e18), uint256.NewInt(uint64(i)*1e9))
	built, err := workload.Build(context.Background(), c, c.Head(), chain.BuildAttrs{
		Timestamp: a.Timestamp, Random: a.PrevRandao, BeaconRoot: &a.ParentBeaconRoot, Withdrawals: types.Withdrawals{}, GasLimit: relaytest.GasLimit,
	}, workload.Flatten(bundles), workload.Payment{Builder: r.e.Coinbase, To: proposer.FeeRecipient, Value: value})
	if err != nil {
		b.Fatal(err)
	}
	return built, value
}

// awaitServed polls getHeader of benchSlot every 100 µs until its bid is
// the block of hash (the block hash in hex).
func (r *benchRelay) awaitServed(b *testing.B, hash []byte) { r.awaitServedAt(b, r.headerURL, hash) }

// awaitServedAt is awaitServed for the getHeader at url.
func (r *benchRelay) awaitServedAt(b *testing.B, url string, hash []byte) {
	for !r.servedBy(b, url, hash) {
		time.Sleep(100 * time.Microsecond)
	}
}

// servedBy is one getHeader at url: whether it served the block of hash.
func (r *benchRelay) servedBy(b *testing.B, url string, hash []byte) bool {
	res, err := r.client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res.StatusCode == 200 && bytes.Contains(body, hash)
}

// headerURLAt is the getHeader of slot's proposer on the head.
func (r *benchRelay) headerURLAt(slot uint64) string {
	return fmt.Sprintf("%s/eth/v1/builder/header/%d/%s/%s", r.hs.URL, slot, r.e.Chain.Head().Hash().Hex(), r.e.Proposer(slot).Key.PublicKey())
}

// verifyWith is a verification of a fresh copy of p with the prefix cache
// pc (none when nil), to be timed.
func verifyWith(b *testing.B, c *chain.Chain, p *chain.BuilderPayload, pc *chain.PrefixCache) func() {
	return func() {
		cp := fresh(p)
		cp.Prefixes = pc
		if _, err := c.ValidatePayload(context.Background(), cp); err != nil {
			b.Fatal(err)
		}
	}
}

// gzipSSZ is sub as a builder sends it: SSZ, gzip-compressed.
func gzipSSZ(b *testing.B, sub interface{ MarshalSSZ() ([]byte, error) }) *bytes.Buffer {
	raw, err := sub.MarshalSSZ()
	if err != nil {
		b.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(raw)
	zw.Close()
	return &z
}

// answerClock is the relay's listener, noting when the relay first wrote
// an answer holding the awaited block hash (arm): the moment a bid was
// served, on the relay's side of loopback.
type answerClock struct {
	net.Listener
	mu   sync.Mutex
	want []byte
	at   time.Time
}

// arm awaits the answer holding hash (the block hash in hex).
func (l *answerClock) arm(hash []byte) {
	l.mu.Lock()
	l.want, l.at = hash, time.Time{}
	l.mu.Unlock()
}

// written is when the awaited answer was written (zero: not yet).
func (l *answerClock) written() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.at
}

func (l *answerClock) wrote(p []byte) {
	now := time.Now()
	l.mu.Lock()
	if l.want != nil && l.at.IsZero() && bytes.Contains(p, l.want) {
		l.at = now
	}
	l.mu.Unlock()
}

// Accept returns the next connection, its writes watched.
func (l *answerClock) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return clockedConn{c, l}, nil
}

type clockedConn struct {
	net.Conn
	l *answerClock
}

func (c clockedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.l.wrote(p[:n])
	return n, err
}

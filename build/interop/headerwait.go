package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// gavel's log line for a getHeader answered after waiting for the bid of
// the in-process builder's build in flight (eth/relay/headerwait.go).
var headerWaitLine = regexp.MustCompile(`Relay answered getHeader after waiting for a bid in flight.*\bslot=(\d+).*\bwaited=(\S+).*\bbid=(\w+)`)

// gavel's log line for the builder's first submission of a slot, with the
// time since the slot's attributes (eth/builder/slots.go).
var firstBidLine = regexp.MustCompile(`Builder submitted the slot's first bid.*\bslot=(\d+).*\bsinceattrs=(\S+)`)

// printHeaderWaits reports which getHeaders gavel answered after a wait
// (from its log) and the proxy's getHeader latency of the asks that did
// not wait apart from those that did: a waited ask's latency is mostly the
// wait, and its bid was not ready before the ask.
func (r *run) printHeaderWaits() {
	type wait struct {
		took time.Duration
		bid  bool
	}
	waits := map[uint64]wait{}
	var firstBids []time.Duration
	var slowest uint64 // slot of the slowest first bid
	var slowestTook time.Duration
	if f, err := os.Open(filepath.Join(r.work, "gavel.log")); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if m := firstBidLine.FindStringSubmatch(sc.Text()); m != nil {
				if d, err := time.ParseDuration(m[2]); err == nil {
					firstBids = append(firstBids, d)
					if d > slowestTook {
						slowest, slowestTook = parseSlot(m[1]), d
					}
				}
				continue
			}
			m := headerWaitLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			slot, _ := strconv.ParseUint(m[1], 10, 64)
			took, _ := time.ParseDuration(m[2])
			waits[slot] = wait{took, m[3] == "true"}
		}
		f.Close()
	}
	var plain, waited, waitTimes []time.Duration
	withBid := 0
	r.calls.mu.Lock()
	for _, c := range r.calls.calls {
		if c.method != "GET" || !strings.HasPrefix(c.path, "/eth/v1/builder/header/") {
			continue
		}
		slot, err := strconv.ParseUint(strings.Split(strings.TrimPrefix(c.path, "/eth/v1/builder/header/"), "/")[0], 10, 64)
		if w, ok := waits[slot]; err == nil && ok {
			waited, waitTimes = append(waited, c.took), append(waitTimes, w.took)
			if w.bid {
				withBid++
			}
		} else {
			plain = append(plain, c.took)
		}
	}
	r.calls.mu.Unlock()
	for _, s := range [][]time.Duration{plain, waited, waitTimes, firstBids} {
		sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	}
	fmt.Printf("  first bid after attributes p50 %s, p99 %s, max %s at slot %d (%d slots from the start; gavel's builder, attributes to the in-process relay's answer)\n",
		pct(firstBids, 50), pct(firstBids, 99), pct(firstBids, 100), slowest, len(firstBids))
	fmt.Printf("  getHeader after a wait     %d of %d asks (%d then with a bid; gavel waited p50 %s, max %s)\n",
		len(waited), len(waited)+len(plain), withBid, pct(waitTimes, 50), pct(waitTimes, 100))
	fmt.Printf("  getHeader latency, no wait p50 %s, p99 %s, max %s (%d calls)\n", pct(plain, 50), pct(plain, 99), pct(plain, 100), len(plain))
	fmt.Printf("  getHeader latency, waited  p50 %s, p99 %s, max %s (%d calls)\n", pct(waited, 50), pct(waited, 99), pct(waited, 100), len(waited))
}

func parseSlot(s string) uint64 {
	n, _ := strconv.ParseUint(s, 10, 64)
	return n
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

var crashRuns = flag.Int("hostile.kills", 2, "SIGKILL and restart cycles of TestDevSurvivesSIGKILL")

// killableDev is a running `gavel --dev` built from this test binary.
type killableDev struct {
	cmd    *exec.Cmd
	rpc    string
	mev    string
	stderr *bytes.Buffer
}

// startDev starts `gavel --dev --datadir dir` and reads its URLs from the
// banner.
func startKillableDev(t *testing.T, ctx context.Context, dir string) *killableDev {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "--dev", "--datadir", dir, "--dev.period", "1s", "--ipcdisable",
		"--http.port", "0", "--authrpc.port", "0", "--mev.addr", "127.0.0.1:0", "--verbosity", "2")
	cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &killableDev{cmd: cmd, stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lineRe := regexp.MustCompile(`^\s+(JSON-RPC \(HTTP\)|MEV listener)\s+(\S+)`)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := lineRe.FindStringSubmatch(sc.Text()); m != nil {
			if m[1] == "MEV listener" {
				p.mev = m[2]
			} else {
				p.rpc = m[2]
			}
		}
		if p.rpc != "" && p.mev != "" {
			break
		}
	}
	if p.rpc == "" || p.mev == "" {
		t.Fatalf("no URLs in the banner; stderr:\n%s", p.stderr)
	}
	go func() { // keep draining stdout so the process never blocks
		for sc.Scan() {
		}
	}()
	return p
}

// waitBlock polls the head until it reaches n (the node's wall clock makes
// the blocks; the context bounds the wait).
func waitBlock(t *testing.T, ctx context.Context, c *ethclient.Client, n uint64, p *killableDev) uint64 {
	t.Helper()
	for {
		head, err := c.BlockNumber(ctx)
		if err == nil && head >= n {
			return head
		}
		select {
		case <-ctx.Done():
			t.Fatalf("head %d, waiting for block %d: %v; stderr:\n%s", head, n, ctx.Err(), tail(p.stderr.String()))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return s[len(s)-4000:]
	}
	return s
}

// TestDevSurvivesSIGKILL is finding 6: `gavel --dev --datadir` killed with
// SIGKILL at a random point comes back from its last head (not genesis),
// keeps making blocks, has its auction contracts, and its relay data API
// lists deliveries only of blocks the chain holds. -hostile.kills sets the
// number of kill and restart cycles (2 in `go test`).
func TestDevSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the gavel binary for about half a minute")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*crashRuns+1)*60*time.Second)
	defer cancel()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 14))
	var before uint64
	for run := 0; run <= *crashRuns; run++ {
		p := startKillableDev(t, ctx, dir)
		c, err := ethclient.DialContext(ctx, p.rpc)
		if err != nil {
			t.Fatal(err)
		}
		head, err := c.BlockNumber(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if head < before {
			t.Fatalf("run %d: restarted at block %d, the killed node had reached %d; stderr:\n%s", run, head, before, tail(p.stderr.String()))
		}
		// The chain moves on from there, with state for its head.
		head = waitBlock(t, ctx, c, head+2, p)
		if _, err := c.BalanceAt(ctx, common.Address{}, nil); err != nil {
			t.Fatalf("run %d: no state at the head: %v", run, err)
		}
		checkAuction(t, ctx, p)
		checkDeliveries(t, ctx, c, p)
		if run == *crashRuns {
			c.Close()
			break
		}
		// Kill it at a random point: a random number of blocks on, as soon as
		// the poll sees the block (anywhere in the slot's second).
		target := head + 1 + uint64(rng.IntN(4))
		before = waitBlock(t, ctx, c, target, p)
		c.Close()
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
	}
}

// checkAuction waits for mev_auctionContracts to say deployed.
func checkAuction(t *testing.T, ctx context.Context, p *killableDev) {
	t.Helper()
	rc, err := rpc.DialContext(ctx, p.rpc)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	for {
		var res struct {
			Deployed bool `json:"deployed"`
		}
		if err := rc.CallContext(ctx, &res, "mev_auctionContracts"); err != nil {
			t.Fatalf("mev_auctionContracts: %v", err)
		}
		if res.Deployed {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("auction contracts never deployed; stderr:\n%s", tail(p.stderr.String()))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkDeliveries checks that every delivery the data API lists is a block
// of the chain.
func checkDeliveries(t *testing.T, ctx context.Context, c *ethclient.Client, p *killableDev) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.mev+"/relay/v1/data/bidtraces/proposer_payload_delivered?limit=200", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list []struct {
		Slot        string `json:"slot"`
		BlockNumber string `json:"block_number"`
		BlockHash   string `json:"block_hash"`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatalf("data API: %v", err)
	}
	t.Logf("%d deliveries listed, each a block of the chain", len(list))
	for _, d := range list {
		n, _ := strconv.ParseUint(d.BlockNumber, 10, 64)
		h, err := c.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
		if err != nil || !strings.EqualFold(h.Hash().Hex(), d.BlockHash) {
			t.Fatalf("slot %s: delivered block %s (%d) is not the chain's (%v); stderr:\n%s", d.Slot, d.BlockHash, n, err, tail(p.stderr.String()))
		}
	}
}

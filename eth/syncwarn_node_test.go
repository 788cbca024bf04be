package eth_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"
)

// lockedBuffer is a log sink safe for the node's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string { b.mu.Lock(); defer b.mu.Unlock(); return b.buf.String() }

// syncAdvice is the start of the warning a node that cannot follow its
// consensus client logs.
const syncAdvice = "The consensus client keeps asking this node to sync to a head it does not have, and it cannot"

// TestSnapSyncWithoutPeersWarnsOnce: a node on a custom genesis (chain
// 32382, gavel init's kind), in snap sync (the default) with no peers,
// whose consensus client keeps sending forkchoiceUpdated to a head it does
// not have over the authenticated engine API, says once, at WARN, what is
// happening and to restart with --syncmode full; a few SYNCING answers in
// a row (a node that is about to catch up) say nothing.
func TestSnapSyncWithoutPeersWarnsOnce(t *testing.T) {
	stack, _ := networkNode(t, "")
	logs := new(lockedBuffer)
	log.SetDefault(log.NewLogger(log.NewTerminalHandlerWithLevel(logs, log.LevelWarn, false)))
	t.Cleanup(func() { log.SetDefault(log.NewLogger(log.DiscardHandler())) })
	if err := stack.Start(); err != nil {
		t.Fatal(err)
	}
	secret, err := node.ObtainJWTSecret(stack.ResolvePath("jwtsecret"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := rpc.DialOptions(ctx, stack.HTTPAuthEndpoint(), rpc.WithHTTPAuth(node.NewJWTAuth([32]byte(secret))))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	forkchoice := func(head common.Hash) {
		t.Helper()
		var res engine.ForkChoiceResponse
		state := engine.ForkchoiceStateV1{HeadBlockHash: head}
		if err := client.CallContext(ctx, &res, "engine_forkchoiceUpdatedV2", state, nil); err != nil {
			t.Fatalf("engine_forkchoiceUpdatedV2: %v", err)
		}
		if res.PayloadStatus.Status != engine.SYNCING {
			t.Fatalf("forkchoice to an unknown head: %s, want SYNCING", res.PayloadStatus.Status)
		}
	}
	unknown := func(i int) common.Hash {
		return common.BytesToHash(hexutil.MustDecode("0xabcdef0" + string(rune('0'+i))))
	}

	// Two slots asking to sync: not yet stuck.
	forkchoice(unknown(1))
	forkchoice(unknown(2))
	if strings.Contains(logs.String(), syncAdvice) {
		t.Fatalf("warned after two SYNCING answers:\n%s", logs)
	}
	// It keeps asking, slot after slot: one warning, whatever follows.
	for i := 3; i < 9; i++ {
		forkchoice(unknown(i))
	}
	out := logs.String()
	if n := strings.Count(out, syncAdvice); n != 1 {
		t.Fatalf("%d warnings over 8 SYNCING answers, want 1:\n%s", n, out)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, syncAdvice) {
			line = l
		}
	}
	t.Log(line)
	for _, want := range []string{"WARN", "snap sync with no peers", "restart gavel with --syncmode full", "peers=0", "chainid=32382", "local=0"} {
		if !strings.Contains(line, want) {
			t.Errorf("the warning lacks %q: %s", want, line)
		}
	}
}

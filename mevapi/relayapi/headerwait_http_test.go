package relayapi_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestHeaderWaitLetsSubmissionIn: a getHeader waiting for the bid of a
// build in flight (the slot's critical work, relayapi.Scheduled) does not
// hold the node's CPU turns while it waits: a known builder's gzip
// submission, inflated in turns, lands and the waiting getHeader serves
// it. With the critical mark held through the wait, the inflate waited
// for the getHeader's whole wait and the getHeader answered 204.
func TestHeaderWaitLetsSubmissionIn(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, true)
	ssz := map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}
	// The builder's block of slot 1 makes it known for slot 2.
	first, _ := e.Submission(e.BuildBlock(1, 2, nil)).MarshalSSZ()
	if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, gz(first), ssz); code != 200 {
		t.Fatalf("first submission: %d %s", code, out)
	}
	sub := e.Submission(e.BuildBlock(2, 2, nil))
	parent := sub.Fulu.Message.ParentHash
	ended := e.Relay.ExpectBid(2, common.Hash(parent))
	defer ended()
	type answer struct {
		code int
		body []byte
	}
	got := make(chan answer, 1)
	go func() {
		code, _, out := do(t, "GET", fmt.Sprintf("%s/eth/v1/builder/header/2/%s/%s", base, parent, e.Proposer(2).Key.PublicKey()), nil, nil)
		got <- answer{code, out}
	}()
	for deadline := time.Now().Add(5 * time.Second); e.Relay.HeaderWaiting() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the getHeader did not wait for the build in flight")
		}
	}
	raw, _ := sub.MarshalSSZ()
	if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, gz(raw), ssz); code != 200 {
		t.Fatalf("submission while a getHeader waits: %d %s", code, out)
	}
	a := <-got
	if hash := sub.BidTrace().BlockHash.String(); a.code != 200 || !bytes.Contains(a.body, []byte(hash)) {
		t.Fatalf("the waiting getHeader answered %d %s, want the bid of %s", a.code, a.body, hash)
	}
}

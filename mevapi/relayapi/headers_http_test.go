package relayapi_test

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestHeaderFirstHTTP: an optimistic builder's header submission, in each
// encoding, is served by getHeader before its block is sent; the block
// then completes it. A builder that is not optimistic is refused with a
// message saying where to send the block.
func TestHeaderFirstHTTP(t *testing.T) {
	collateral := new(uint256.Int).Mul(uint256.NewInt(1e18), uint256.NewInt(10))
	e, base := serverWith(t, relaytest.Options{OptimisticCollateral: collateral})
	registerHTTP(t, e, base, true)
	for i, enc := range bodyEncodings {
		slot := uint64(i + 1)
		sub := e.Submission(e.BuildBlock(slot, 2, nil))
		h, err := beacon.NewHeaderSubmission(sub)
		if err != nil {
			t.Fatal(err)
		}
		body, hdr := enc.encode(t, h)
		if code, _, out := do(t, "POST", base+relayapi.PathBuilderHeaders, body, hdr); code != 200 || len(out) != 0 {
			t.Fatalf("%s: %d %q", enc.name, code, out)
		}
		url := base + "/eth/v1/builder/header/" + strconv.FormatUint(slot, 10) + "/" + e.Chain.Head().Hash().Hex() + "/" + e.Proposer(slot).Key.PublicKey().String()
		code, _, out := do(t, "GET", url, nil, nil)
		if code != 200 || !bytes.Contains(out, []byte(sub.BidTrace().BlockHash.String())) {
			t.Fatalf("%s: getHeader after the header: %d %s", enc.name, code, out)
		}
		raw, _ := sub.MarshalSSZ()
		if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
			t.Fatalf("%s: the header's block: %d %s", enc.name, code, out)
		}
	}
}

// TestHeaderFirstErrorsHTTP: a header submission's failures answer with
// the status and a message that says what was wrong.
func TestHeaderFirstErrorsHTTP(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, true)
	sub := e.Submission(e.BuildBlock(1, 2, nil))
	h, _ := beacon.NewHeaderSubmission(sub)
	body, _ := h.MarshalSSZ()
	ssz := map[string]string{"Content-Type": "application/octet-stream"}
	cases := []struct {
		name    string
		body    []byte
		header  map[string]string
		query   string
		code    int
		message string
	}{
		{"not optimistic", body, ssz, "", 400, "header submissions are taken only from optimistic builders within their collateral: builder"},
		{"cancellable", body, ssz, "?cancellations=1", 400, "header submissions cannot be cancellable"},
		{"truncated", body[:150], ssz, "", 400, "invalid SSZ"},
		{"pre-Deneb fork", body, map[string]string{"Content-Type": "application/octet-stream", "Eth-Consensus-Version": "capella"}, "", 400, "invalid fork version: header submissions are Deneb or later"},
		{"content type", body, map[string]string{"Content-Type": "text/plain"}, "", 415, "unsupported Content-Type"},
		{"bad gzip", body, map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}, "", 400, "invalid gzip body"},
		{"too large", gz(make([]byte, relayapi.MaxHeaderSubmissionBytes+1)), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"}, "", 413, "submission too large"},
		{"json garbage", []byte(`{"message":`), map[string]string{"Content-Type": "application/json"}, "", 400, "invalid JSON"},
	}
	for _, c := range cases {
		code, _, out := do(t, "POST", base+relayapi.PathBuilderHeaders+c.query, c.body, c.header)
		if code != c.code || !strings.Contains(errorMessage(t, out), c.message) {
			t.Errorf("%s: %d %s, want %d with %q", c.name, code, out, c.code, c.message)
		}
	}
	// Nothing of it is served.
	if bid, err := e.Relay.GetHeader(context.Background(), 1, beacon.Root(e.Chain.Head().Hash()), e.Proposer(1).Key.PublicKey()); err != nil || bid != nil {
		t.Fatalf("getHeader after refused headers: %v, %v", bid, err)
	}
}

package relayapi_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// server serves the builder and proposer APIs of a real relay over loopback
// HTTP, behind the MEV listener's handler chain, the routes in their place
// in its scheduler as the node mounts them (relayapi.Scheduled).
func server(t testing.TB) (*relaytest.Env, string) {
	t.Helper()
	return serverWith(t, relaytest.Options{})
}

// serverWith is server over a relay made with opts.
func serverWith(t testing.TB, opts relaytest.Options) (*relaytest.Env, string) {
	t.Helper()
	e := relaytest.New(t, opts)
	srv := mevapi.New(mevapi.Config{}, nil)
	mux := relayapi.Scheduled(srv, srv)
	relayapi.MountBuilder(mux, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(mux, e.Relay)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return e, hs.URL
}

// startListener serves e's relay on a real loopback listener made with cfg
// (the hostile tests need real connections and the listener's limits) and
// registers e's validators over it.
func startListener(t testing.TB, e *relaytest.Env, cfg mevapi.Config) *mevapi.Server {
	t.Helper()
	srv := mevapi.New(cfg, nil)
	mux := relayapi.Scheduled(srv, srv)
	relayapi.MountBuilder(mux, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(mux, e.Relay)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	registerHTTP(t, e, srv.URL(), true)
	return srv
}

func do(t testing.TB, method, url string, body []byte, header map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, out
}

// announce POSTs to path on a raw connection a request announcing length
// bytes of body, sends only first of them and reads the answer: for
// requests refused from their announced length before they are read.
func announce(t testing.TB, base, path, ctype string, length int, first []byte) (int, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", path, ctype, length)
	conn.Write(first)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("POST %s announcing %d bytes: %v", path, length, err)
	}
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func errorMessage(t testing.TB, body []byte) string {
	t.Helper()
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	return e.Message
}

func registerHTTP(t testing.TB, e *relaytest.Env, base string, ssz bool) {
	t.Helper()
	var regs []beacon.SignedValidatorRegistration
	for _, v := range e.Validators {
		regs = append(regs, e.Registration(v, relaytest.GasLimit, e.Beacon.GenesisTime+1))
	}
	var body []byte
	ct := "application/json"
	if ssz {
		body, _ = beacon.EncodeRegistrationsSSZ(regs)
		ct = "application/octet-stream"
	} else {
		body, _ = beacon.EncodeRegistrationsJSON(regs)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, body, map[string]string{"Content-Type": ct}); code != 200 {
		t.Fatalf("register: %d %s", code, out)
	}
}

// bodyEncodings are the encodings of the builder API's bodies.
var bodyEncodings = []bodyEncoding{{"json", false, false}, {"ssz", true, false}, {"json+gzip", false, true}, {"ssz+gzip", true, true}}

type bodyEncoding struct {
	name      string
	ssz, gzip bool
}

// encode is v as a body of the encoding, with its headers.
func (enc bodyEncoding) encode(t testing.TB, v interface {
	MarshalSSZ() ([]byte, error)
	MarshalJSON() ([]byte, error)
}) ([]byte, map[string]string) {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json"}
	marshal := v.MarshalJSON
	if enc.ssz {
		marshal, h["Content-Type"] = v.MarshalSSZ, "application/octet-stream"
	}
	body, err := marshal()
	if err != nil {
		t.Fatal(err)
	}
	if enc.gzip {
		body, h["Content-Encoding"] = gz(body), "gzip"
	}
	return body, h
}

// TestSubmissionEncodings submits four blocks, one per encoding, each
// accepted with 200 and an empty body, then reads the validators list.
func TestSubmissionEncodings(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, true)
	for i, enc := range bodyEncodings {
		slot := uint64(i + 1)
		sub := e.Submission(e.BuildBlock(slot, 2, nil))
		body, h := enc.encode(t, sub)
		code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, body, h)
		if code != 200 || len(out) != 0 {
			t.Fatalf("%s: %d %q", enc.name, code, out)
		}
		// Again: at the floor, 202 with the reference relay's message.
		code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, body, h)
		if code != 202 || !strings.Contains(string(out), `{"message":"accepted bid below floor, skipped validation"}`) {
			t.Fatalf("%s again: %d %q", enc.name, code, out)
		}
	}
	var duties []map[string]json.RawMessage
	code, _, out := do(t, "GET", base+relayapi.PathBuilderValidators, nil, nil)
	if code != 200 || json.Unmarshal(out, &duties) != nil || len(duties) == 0 {
		t.Fatalf("validators: %d %s", code, out)
	}
	// The whole current epoch, from its first slot (0, the head's).
	if string(duties[0]["slot"]) != `"0"` || string(duties[0]["beta_gas"]) != `"0"` || duties[0]["entry"] == nil {
		t.Fatalf("validators entry: %s", out)
	}
}

// TestSubmissionErrors checks the HTTP statuses and bodies of failures.
func TestSubmissionErrors(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, false)
	sub := e.Submission(e.BuildBlock(1, 1, nil))
	body, _ := sub.MarshalSSZ()
	ssz := map[string]string{"Content-Type": "application/octet-stream"}

	// A check's failure: 400 {"code":400,"message":...}.
	bad, _ := e.SubmissionWith(e.BuildBlock(1, 1, nil), func(t *beacon.BidTrace) { t.ProposerFeeRecipient[0] ^= 1 })
	raw, _ := bad.MarshalSSZ()
	code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, raw, ssz)
	if code != 400 || string(out) != `{"code":400,"message":"fee recipient does not match"}`+"\n" {
		t.Fatalf("fee recipient: %d %q", code, out)
	}
	// Decoding errors say what was wrong.
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, body[:100], ssz)
	if code != 400 || !strings.Contains(errorMessage(t, out), "invalid") {
		t.Fatalf("truncated: %d %s", code, out)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, body, map[string]string{"Content-Type": "application/octet-stream", "Eth-Consensus-Version": "gloas"})
	if code != 400 || errorMessage(t, out) != "invalid fork version" {
		t.Fatalf("fork header: %d %s", code, out)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, body, map[string]string{"Content-Type": "a/b; ==="})
	if code != 415 || !strings.HasPrefix(errorMessage(t, out), "failed to parse Content-Type header: ") {
		t.Fatalf("content type: %d %s", code, out)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, body, map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"})
	if code != 400 || !strings.HasPrefix(errorMessage(t, out), "invalid gzip body") {
		t.Fatalf("bad gzip: %d %s", code, out)
	}
	// JSON labelled octet-stream is decoded as JSON, as the reference relay does.
	js, _ := sub.MarshalJSON()
	if code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, js, ssz); code != 200 {
		t.Fatalf("json as octet-stream: %d %s", code, out)
	}
}

// TestGzipBomb: a small gzip body that inflates past the limit is cut off
// there with 413, never inflated whole.
func TestGzipBomb(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, true)
	// A real submission's bid trace and signature, so the checks on the
	// message pass and the rest is inflated.
	head, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	zeros := func(n int) []byte { b := make([]byte, n); copy(b, head[:344]); return b }
	bomb := gz(zeros(relayapi.DefaultMaxSubmissionBytes + 1))
	if len(bomb) > 100_000 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, bomb, map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"})
	if code != 413 || errorMessage(t, out) != "submission too large: more than 15728640 bytes after decompression" {
		t.Fatalf("bomb: %d %s", code, out)
	}
	// Exactly at the limit it is decoded (and fails decoding, not the limit).
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, gz(zeros(relayapi.DefaultMaxSubmissionBytes)), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"})
	if code != 400 {
		t.Fatalf("at the limit: %d %s", code, out)
	}
}

// TestRealVectors posts the reference relay's real submissions: each gets
// through decoding and fails on a slot or duty check.
func TestRealVectors(t *testing.T) {
	_, base := server(t)
	files, _ := filepath.Glob("../../core/beacon/testdata/submitBlockPayload*.gz")
	if len(files) < 8 {
		t.Fatalf("found %d vectors", len(files))
	}
	slotChecks := []string{"not fulu payload", "incorrect timestamp", "submission for past slot", "could not find slot duty"}
	for _, f := range files {
		if filepath.Base(f) == "submitBlockPayload.json.gz" {
			continue // a fragment (slot and parent hash only), not a submission
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h := map[string]string{"Content-Encoding": "gzip", "Content-Type": "application/json"}
		if strings.HasSuffix(f, ".ssz.gz") {
			h["Content-Type"] = "application/octet-stream"
		}
		for _, fork := range []string{"bellatrix", "capella", "deneb", "electra", "fulu"} {
			if strings.Contains(strings.ToLower(filepath.Base(f)), fork) {
				h["Eth-Consensus-Version"] = fork
			}
		}
		code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, raw, h)
		msg := errorMessage(t, out)
		ok := false
		for _, m := range slotChecks {
			ok = ok || strings.HasPrefix(msg, m)
		}
		if code != 400 || !ok {
			t.Errorf("%s: %d %q, want a slot or duty check", filepath.Base(f), code, msg)
		}
	}
}

// TestProposerFlowHTTP runs registration, getHeader (JSON, SSZ, 204, bad
// arguments, 406) and getPayload v1 (SSZ and JSON) and v2 over HTTP.
func TestProposerFlowHTTP(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, false)
	if code, _, _ := do(t, "GET", base+relayapi.PathStatus, nil, nil); code != 200 {
		t.Fatalf("status: %d", code)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, nil, nil); code != 400 || errorMessage(t, out) != "empty request" {
		t.Fatalf("empty registration: %d %s", code, out)
	}
	sub := e.Submission(e.BuildBlock(1, 2, nil))
	raw, _ := sub.MarshalSSZ()
	if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
		t.Fatalf("submit: %d %s", code, out)
	}
	pk := e.Proposer(1).Key.PublicKey().String()
	parent := sub.Fulu.Message.ParentHash.String()
	hdr := base + "/eth/v1/builder/header/1/" + parent + "/" + pk

	code, h, out := do(t, "GET", hdr, nil, nil)
	if code != 200 || h.Get("Eth-Consensus-Version") != "fulu" {
		t.Fatalf("getHeader json: %d %s", code, out)
	}
	var versioned struct {
		Version string          `json:"version"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(out, &versioned); err != nil || versioned.Version != "fulu" {
		t.Fatalf("getHeader json: %v %s", err, out)
	}
	bid, err := beacon.DecodeSignedBuilderBidJSON(beacon.MainnetSpec, params.ForkFulu, versioned.Data)
	if err != nil || bid.VerifySignature(beacon.BuilderDomain(e.Beacon)) != nil {
		t.Fatalf("getHeader bid: %v", err)
	}
	code, h, out = do(t, "GET", hdr, nil, map[string]string{"Accept": "application/octet-stream;q=1.0,application/json;q=0.9"})
	if code != 200 || h.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("getHeader ssz: %d", code)
	}
	if sszBid, err := beacon.DecodeSignedBuilderBidSSZ(beacon.MainnetSpec, params.ForkFulu, out); err != nil || sszBid.Value() != bid.Value() {
		t.Fatalf("getHeader ssz: %v", err)
	}
	for _, c := range []struct {
		path, accept string
		code         int
		msg          string
	}{
		{"/eth/v1/builder/header/2/" + parent + "/" + pk, "", 204, ""},
		{"/eth/v1/builder/header/x/" + parent + "/" + pk, "", 400, "invalid slot"},
		{"/eth/v1/builder/header/1/" + parent + "/" + pk[:90], "", 400, "invalid pubkey"},
		{"/eth/v1/builder/header/1/" + parent[:60] + "/" + pk, "", 400, "invalid hash"},
		{"/eth/v1/builder/header/1/" + parent + "/" + pk, "text/html", 406, "not acceptable"},
	} {
		code, _, out := do(t, "GET", base+c.path, nil, map[string]string{"Accept": c.accept})
		if code != c.code || (c.msg != "" && errorMessage(t, out) != c.msg) {
			t.Errorf("%s: %d %s", c.path, code, out)
		}
	}

	blk := e.BlindedBlock(1, bid)
	blkSSZ, _ := blk.MarshalSSZ()
	blkJSON, _ := blk.MarshalJSON()
	// The reference relay's "failed to decode payload", then what was wrong.
	if code, _, out := do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, map[string]string{"Content-Type": "application/json", "Eth-Consensus-Version": "nofork"}); code != 400 ||
		!strings.HasPrefix(errorMessage(t, out), `failed to decode payload: Eth-Consensus-Version: unknown consensus fork: "nofork", expected one of`) {
		t.Fatalf("unknown version header: %d %s", code, out)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, map[string]string{"Content-Type": "text/plain"}); code != 415 ||
		errorMessage(t, out) != `failed to decode payload: unsupported Content-Type "text/plain", expected application/json or application/octet-stream` {
		t.Fatalf("text/plain blinded block: %d %s", code, out)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkSSZ[:50], map[string]string{"Content-Type": "application/octet-stream"}); code != 400 || !strings.HasPrefix(errorMessage(t, out), "failed to decode payload: ") {
		t.Fatalf("truncated SSZ without version header: %d %s", code, out)
	}
	if code, _, _ := do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, nil); code != 415 {
		t.Fatalf("no content type: %d", code)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkSSZ, map[string]string{
		"Content-Type": "application/octet-stream", "Accept": "application/octet-stream", "Eth-Consensus-Version": "fulu"})
	if code != 200 {
		t.Fatalf("getPayload ssz: %d %s", code, out)
	}
	var resp beacon.ExecutionPayloadAndBlobsBundleFulu
	if err := resp.UnmarshalSSZ(out); err != nil || resp.ExecutionPayload.BlockHash != bid.Header().BlockHash() {
		t.Fatalf("getPayload answer: %v", err)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, map[string]string{"Content-Type": "application/json", "Eth-Consensus-Version": "fulu"})
	if code != 200 || !strings.HasPrefix(string(out), `{"version":"fulu","data":{"execution_payload":`) {
		t.Fatalf("getPayload json: %d %.200s", code, out)
	}
	// As consensus clients send it (Lodestar 1.5): JSON without
	// Eth-Consensus-Version, the fork taken from the slot. SSZ too.
	code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkJSON, map[string]string{"Content-Type": "application/json"})
	if code != 200 || !strings.HasPrefix(string(out), `{"version":"fulu","data":{"execution_payload":`) {
		t.Fatalf("getPayload json without version header: %d %.200s", code, out)
	}
	code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, blkSSZ, map[string]string{"Content-Type": "application/octet-stream", "Accept": "application/octet-stream"})
	if code != 200 || resp.UnmarshalSSZ(out) != nil {
		t.Fatalf("getPayload ssz without version header: %d %.200s", code, out)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathBlindedBlocksV2, blkSSZ, map[string]string{"Content-Type": "application/octet-stream", "Eth-Consensus-Version": "fulu"}); code != 202 || len(out) != 0 {
		t.Fatalf("getPayload v2: %d %s", code, out)
	}
	// A second beacon block (other graffiti, so another proposer
	// signature) over the delivered execution header: keyed on the block
	// hash, as the reference relay, it gets the payload (docs/relay-proposers.md).
	msg := blk.Electra.Message
	copy(msg.Body.Graffiti[:], "second")
	second, _ := e.BlindedBlockFrom(1, msg).MarshalSSZ()
	code, _, out = do(t, "POST", base+relayapi.PathBlindedBlocksV1, second, map[string]string{"Content-Type": "application/octet-stream", "Accept": "application/octet-stream"})
	if code != 200 || resp.UnmarshalSSZ(out) != nil || resp.ExecutionPayload.BlockHash != bid.Header().BlockHash() {
		t.Fatalf("second beacon block, v1: %d %.200s", code, out)
	}
	if code, _, out := do(t, "POST", base+relayapi.PathBlindedBlocksV2, second, map[string]string{"Content-Type": "application/octet-stream"}); code != 202 || len(out) != 0 {
		t.Fatalf("second beacon block, v2: %d %s", code, out)
	}
	if n := e.Publisher.Count(); n != 1 {
		t.Fatalf("%d blocks published, want 1", n)
	}
}

// TestCancellationsBelowFloorHTTP: with ?cancellations=1 a bid strictly
// below the floor gets 202 with a bare JSON string, as the reference relay.
func TestCancellationsBelowFloorHTTP(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, false)
	b := e.BuildBlock(1, 2, nil)
	high, _ := e.Submission(b).MarshalSSZ()
	ssz := map[string]string{"Content-Type": "application/octet-stream"}
	if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, high, ssz); code != 200 {
		t.Fatalf("high: %d %s", code, out)
	}
	lowSub, _ := e.SubmissionWith(b, func(t *beacon.BidTrace) { t.Value = beacon.U256FromUint64(1) })
	low, _ := lowSub.MarshalSSZ()
	code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks+"?cancellations=1", low, ssz)
	if code != 202 || string(out) != `"accepted bid below floor, skipped validation"`+"\n" {
		t.Fatalf("below floor with cancellations: %d %q", code, out)
	}
}

// TestInternalErrorHTTP: a storage failure is a 500 with the fixed message,
// never the details.
func TestInternalErrorHTTP(t *testing.T) {
	e, base := server(t)
	e.Store.Close()
	regs, _ := beacon.EncodeRegistrationsJSON([]beacon.SignedValidatorRegistration{e.Registration(e.Validators[0], 1, e.Beacon.GenesisTime)})
	code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, regs, map[string]string{"Content-Type": "application/json"})
	if code != 500 || string(out) != `{"code":500,"message":"internal server error"}`+"\n" {
		t.Fatalf("closed store: %d %q", code, out)
	}
}

// TestGoerliVectorsBySlot: on a relay configured for Goerli, the real Goerli
// submissions, sent without Eth-Consensus-Version, are decoded as their
// slot's fork and pass the fork and timestamp checks: they fail on the duty
// check (this relay has no duties for Goerli slots).
func TestGoerliVectorsBySlot(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Beacon = params.GoerliBeaconConfig }})
	srv := mevapi.New(mevapi.Config{}, nil)
	relayapi.MountBuilder(srv, e.Relay, relayapi.BuilderConfig{})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	for _, f := range []string{"submitBlockPayloadCapella_Goerli.ssz.gz", "submitBlockPayloadCapella_Goerli.json.gz", "submitBlockPayloadDeneb_Goerli.ssz.gz", "submitBlockPayloadDeneb_Goerli.json.gz"} {
		raw, err := os.ReadFile("../../core/beacon/testdata/" + f)
		if err != nil {
			t.Fatal(err)
		}
		ct := "application/json"
		if strings.Contains(f, ".ssz") {
			ct = "application/octet-stream"
		}
		code, _, out := do(t, "POST", hs.URL+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": ct, "Content-Encoding": "gzip"})
		if code != 400 || errorMessage(t, out) != "could not find slot duty" {
			t.Errorf("%s: %d %s", f, code, out)
		}
	}
}

// TestRegistrationCopiesHTTP: a registration request of many exact copies
// is decoded into its distinct entries (beacon.DecodeRegistrationsSSZUnique)
// and still answered as the relay decides on the whole request: over the
// per-request cap, "too many registrations"; 60,000 copies of a bad one,
// one signature checked and the signature error.
func TestRegistrationCopiesHTTP(t *testing.T) {
	e, base := server(t)
	bad := e.Registration(e.Validators[0], 12, e.Beacon.GenesisTime+1)
	bad.Message.GasLimit = 13 // the signature no longer matches
	send := func(n int) (int, []byte) {
		copies := make([]beacon.SignedValidatorRegistration, n)
		for i := range copies {
			copies[i] = bad
		}
		body, _ := beacon.EncodeRegistrationsSSZ(copies)
		if n > relay.DefaultMaxRegistrations {
			// Refused from its length before it is read: the client may
			// still be writing when the connection closes, so only the
			// head and the first bytes are sent.
			return announce(t, base, relayapi.PathRegisterValidator, "application/octet-stream", len(body), body[:4096])
		}
		code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, body, map[string]string{"Content-Type": "application/octet-stream"})
		return code, out
	}
	verified := func() int64 {
		return metrics.DefaultRegistry.Get("gavel/relay/registrations/verified").(*metrics.Meter).Snapshot().Count()
	}
	before := verified()
	if code, out := send(relay.DefaultMaxRegistrations + 1); code != 413 || !strings.Contains(string(out), "at most 65536 registrations") {
		t.Fatalf("copies over the cap: %d %s", code, out)
	}
	if verified() != before {
		t.Fatal("copies over the cap: a signature was checked")
	}
	if code, out := send(60_000); code != 400 || !strings.Contains(string(out), relay.ErrValidatorSignature.Error()) {
		t.Fatalf("60,000 copies of a bad registration: %d %s", code, out)
	}
	if n := verified() - before; n != 1 {
		t.Fatalf("60,000 copies of a bad registration: %d signatures checked, want 1", n)
	}
}

// TestRegistrationBodyOverCap: a registrations body announced longer than
// the most registrations a request may carry (65,536 of 180 bytes in SSZ,
// of at most 1,024 bytes in JSON) is answered 413 naming the limit before
// any of it is read; one at the limit is read and decoded; a body without
// a length is cut at the limit.
func TestRegistrationBodyOverCap(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.MaxRegistrations = 4 }})
	srv := startListener(t, e, mevapi.Config{Addr: "127.0.0.1:0"})
	reg := e.Registration(e.Validators[0], 30_000_000, e.Beacon.GenesisTime+1)
	regs := make([]beacon.SignedValidatorRegistration, 5)
	for i := range regs {
		regs[i] = reg
	}
	ssz, _ := beacon.EncodeRegistrationsSSZ(regs)
	js, _ := beacon.EncodeRegistrationsJSON(regs)
	url := srv.URL() + relayapi.PathRegisterValidator

	// Announced one registration past the cap, nothing of it sent: the
	// answer comes at once (a read would wait for the read timeout).
	for _, c := range []struct {
		name, ctype string
		length      int
		limit       string
	}{
		{"SSZ", "application/octet-stream", 4*180 + 1, "the limit is 720 bytes (SSZ: at most 4 registrations of 180 bytes each)"},
		{"JSON", "application/json", 4*1024 + 3, "the limit is 4098 bytes (JSON: at most 4 registrations of at most 1024 bytes each)"},
	} {
		code, out := announce(t, srv.URL(), relayapi.PathRegisterValidator, c.ctype, c.length, []byte("["))
		if code != 413 || !strings.Contains(string(out), c.limit) {
			t.Fatalf("%s over the cap: %d %s, want 413 naming %q", c.name, code, out, c.limit)
		}
	}
	// At the cap: read, decoded, registered.
	if code, _, out := do(t, "POST", url, ssz[:4*180], map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
		t.Fatalf("4 SSZ registrations: %d %s", code, out)
	}
	// Without a length (chunked): cut once past the limit.
	req, _ := http.NewRequest("POST", url, io.MultiReader(bytes.NewReader(ssz)))
	req.Header.Set("Content-Type", "application/octet-stream")
	req.ContentLength = -1
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 413 || !strings.Contains(string(out), "the body is longer, the limit is 720 bytes") {
		t.Fatalf("5 SSZ registrations without a length: %d %s", res.StatusCode, out)
	}
	if len(js) <= 4*1024+2 {
		// Five canonical JSON registrations fit the JSON bound of four:
		// the relay's own count refuses them.
		if code, _, out := do(t, "POST", url, js, map[string]string{"Content-Type": "application/json"}); code != 400 || !strings.Contains(string(out), relay.ErrTooManyRegistration.Error()) {
			t.Fatalf("5 JSON registrations: %d %s", code, out)
		}
	}
}

package conformance

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// conformingRelay serves a real relay (relaytest: in-process chain, BLS,
// SQLite) with the proposer, builder and data APIs on a loopback listener.
func conformingRelay(t *testing.T) (*relaytest.Env, string) {
	t.Helper()
	e := relaytest.New(t, relaytest.Options{Traces: true})
	srv := mevapi.New(mevapi.Config{Addr: "127.0.0.1:0"}, nil)
	relayapi.MountBuilder(srv, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(srv, e.Relay)
	relayapi.MountData(srv, relay.NewData(e.Store))
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return e, srv.URL()
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func call(t *testing.T, method, url string, body []byte, header map[string]string) answer {
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
	return answer{res.StatusCode, res.Header, out}
}

// conforms checks a JSON answer's status, Content-Type and body.
func conforms(t *testing.T, name string, a answer, status int, s Schema) {
	t.Helper()
	if a.status != status {
		t.Errorf("%s: status %d, want %d: %.300s", name, a.status, status, a.body)
		return
	}
	if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q, want application/json", name, ct)
	}
	for _, p := range Check(s, a.body) {
		t.Errorf("%s: %s", name, p)
	}
}

// fails checks an error answer: the status, builder-specs' ErrorMessage
// body, and its code equal to the status.
func fails(t *testing.T, name string, a answer, status int) {
	t.Helper()
	conforms(t, name, a, status, ErrorMessage)
	if a.status == status && !bytes.Contains(a.body, []byte(`"code":`+strconv.Itoa(status)+",")) {
		t.Errorf("%s: body %s does not carry code %d", name, a.body, status)
	}
}

// empty checks an answer with no body (200 submissions, 204, 202).
func empty(t *testing.T, name string, a answer, status int) {
	t.Helper()
	if a.status != status || len(a.body) != 0 {
		t.Errorf("%s: %d %.200q, want %d with no body", name, a.status, a.body, status)
	}
}

// TestRelaySpecConformance walks the relay's endpoints as a proposer, a
// builder and a data consumer do, and checks every JSON answer against the
// specs' schemas and every error's status and body.
func TestRelaySpecConformance(t *testing.T) {
	e, base := conformingRelay(t)
	jsonCT := map[string]string{"Content-Type": "application/json"}

	// builder-specs status: 200.
	if a := call(t, "GET", base+relayapi.PathStatus, nil, nil); a.status != 200 {
		t.Errorf("status: %d", a.status)
	}

	// registerValidator: 200 without a body; 400 and 415 with ErrorMessage.
	var regs []beacon.SignedValidatorRegistration
	for _, v := range e.Validators {
		regs = append(regs, e.Registration(v, relaytest.GasLimit, e.Beacon.GenesisTime+1))
	}
	regJSON, _ := beacon.EncodeRegistrationsJSON(regs)
	empty(t, "registerValidator", call(t, "POST", base+relayapi.PathRegisterValidator, regJSON, jsonCT), 200)
	fails(t, "registerValidator malformed", call(t, "POST", base+relayapi.PathRegisterValidator, []byte(`[{"message":1}]`), jsonCT), 400)
	fails(t, "registerValidator text/plain", call(t, "POST", base+relayapi.PathRegisterValidator, regJSON, map[string]string{"Content-Type": "text/plain"}), 415)

	// getValidators (relay-specs).
	conforms(t, "validators", call(t, "GET", base+relayapi.PathBuilderValidators, nil, nil), 200, Array(ValidatorsEntry, 1))

	// submitBlock: 200 with no body; 400 and 415 with ErrorMessage.
	sub1 := e.Submission(e.BuildBlock(1, 2, nil))
	raw1, _ := sub1.MarshalJSON()
	empty(t, "submitBlock", call(t, "POST", base+relayapi.PathBuilderBlocks, raw1, jsonCT), 200)
	fails(t, "submitBlock malformed", call(t, "POST", base+relayapi.PathBuilderBlocks, []byte(`{"message":`), jsonCT), 400)
	fails(t, "submitBlock text/plain", call(t, "POST", base+relayapi.PathBuilderBlocks, raw1, map[string]string{"Content-Type": "text/plain"}), 415)

	// getHeader: 200 versioned SignedBuilderBid; 204 without a bid; 400
	// for bad path values; 406 for an unsatisfiable Accept.
	pk := e.Proposer(1).Key.PublicKey().String()
	parent := sub1.Fulu.Message.ParentHash.String()
	hdr := call(t, "GET", base+"/eth/v1/builder/header/1/"+parent+"/"+pk, nil, map[string]string{"Accept": "application/json"})
	conforms(t, "getHeader", hdr, 200, GetHeaderResponse)
	if v := hdr.header.Get("Eth-Consensus-Version"); v != "fulu" {
		t.Errorf("getHeader: Eth-Consensus-Version %q, want fulu", v)
	}
	empty(t, "getHeader without bid", call(t, "GET", base+"/eth/v1/builder/header/3/"+parent+"/"+pk, nil, nil), 204)
	fails(t, "getHeader bad slot", call(t, "GET", base+"/eth/v1/builder/header/x/"+parent+"/"+pk, nil, nil), 400)
	fails(t, "getHeader bad pubkey", call(t, "GET", base+"/eth/v1/builder/header/1/"+parent+"/"+pk[:20], nil, nil), 400)
	fails(t, "getHeader bad parent", call(t, "GET", base+"/eth/v1/builder/header/1/"+parent[:20]+"/"+pk, nil, nil), 400)
	fails(t, "getHeader Accept text/html", call(t, "GET", base+"/eth/v1/builder/header/1/"+parent+"/"+pk, nil, map[string]string{"Accept": "text/html"}), 406)

	// submitBlindedBlock v1: 200 versioned ExecutionPayloadAndBlobsBundle;
	// 415 without or with another Content-Type; 400 for a bad body.
	bid1, err := e.Relay.GetHeader(context.Background(), 1, sub1.Fulu.Message.ParentHash, e.Proposer(1).Key.PublicKey())
	if err != nil || bid1 == nil {
		t.Fatalf("bid: %v", err)
	}
	blk1, _ := e.BlindedBlock(1, bid1).MarshalJSON()
	fulu := map[string]string{"Content-Type": "application/json", "Eth-Consensus-Version": "fulu"}
	fails(t, "blinded v1 without Content-Type", call(t, "POST", base+relayapi.PathBlindedBlocksV1, blk1, nil), 415)
	fails(t, "blinded v1 text/plain", call(t, "POST", base+relayapi.PathBlindedBlocksV1, blk1, map[string]string{"Content-Type": "text/plain"}), 415)
	fails(t, "blinded v1 malformed", call(t, "POST", base+relayapi.PathBlindedBlocksV1, []byte(`{}`), fulu), 400)
	conforms(t, "blinded v1", call(t, "POST", base+relayapi.PathBlindedBlocksV1, blk1, fulu), 200, GetPayloadResponse)

	// submitBlindedBlock v2 (slot 2): 202 without a body.
	e.Clock.Set(time.Unix(int64(e.Beacon.SlotTime(2)), 0))
	sub2 := e.Submission(e.BuildBlock(2, 1, nil))
	raw2, _ := sub2.MarshalJSON()
	empty(t, "submitBlock slot 2", call(t, "POST", base+relayapi.PathBuilderBlocks, raw2, jsonCT), 200)
	bid2, err := e.Relay.GetHeader(context.Background(), 2, sub2.Fulu.Message.ParentHash, e.Proposer(2).Key.PublicKey())
	if err != nil || bid2 == nil {
		t.Fatalf("bid 2: %v", err)
	}
	blk2, _ := e.BlindedBlock(2, bid2).MarshalJSON()
	fails(t, "blinded v2 text/plain", call(t, "POST", base+relayapi.PathBlindedBlocksV2, blk2, map[string]string{"Content-Type": "text/plain"}), 415)
	empty(t, "blinded v2", call(t, "POST", base+relayapi.PathBlindedBlocksV2, blk2, fulu), 202)

	// The data API (relay-specs): the three endpoints and their errors.
	if err := e.Traces.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	conforms(t, "proposer_payload_delivered", call(t, "GET", base+relayapi.PathDataPayloadDelivered, nil, nil), 200, Array(BidTraceV2, 1))
	conforms(t, "builder_blocks_received", call(t, "GET", base+relayapi.PathDataBuilderBlocks+"?slot=1", nil, nil), 200, Array(BidTraceV2WithTimestamp, 1))
	conforms(t, "validator_registration", call(t, "GET", base+relayapi.PathDataValidatorRegistation+"?pubkey="+pk, nil, nil), 200, SignedValidatorRegistration)
	for _, q := range []string{
		relayapi.PathDataPayloadDelivered + "?slot=x",
		relayapi.PathDataPayloadDelivered + "?block_hash=0x12",
		relayapi.PathDataPayloadDelivered + "?limit=201",
		relayapi.PathDataPayloadDelivered + "?slot=1&cursor=1",
		relayapi.PathDataBuilderBlocks,
		relayapi.PathDataBuilderBlocks + "?slot=1&cursor=1",
		relayapi.PathDataBuilderBlocks + "?builder_pubkey=0x12",
		relayapi.PathDataValidatorRegistation,
		relayapi.PathDataValidatorRegistation + "?pubkey=0x12",
	} {
		fails(t, q, call(t, "GET", base+q, nil, nil), 400)
	}
}

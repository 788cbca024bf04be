package relayapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
)

func pk(b byte) beacon.BLSPubkey { var p beacon.BLSPubkey; p[0], p[47] = 0xa0, b; return p }
func hash(b byte) beacon.Root    { var r beacon.Root; r[0], r[31] = 0xbb, b; return r }

func trace(slot uint64, h, builder, proposer byte, value uint64) beacon.BidTraceV2 {
	var t beacon.BidTraceV2
	t.Slot = slot
	t.ParentHash = hash(h + 100)
	t.BlockHash = hash(h)
	t.BuilderPubkey = pk(builder)
	t.ProposerPubkey = pk(proposer)
	t.ProposerFeeRecipient[19] = proposer
	t.GasLimit, t.GasUsed = 30_000_000, 21_000
	t.Value = beacon.U256FromUint64(value)
	t.BlockNumber = slot + 1000
	t.NumTx = 1
	return t
}

// dataServer serves the data API over loopback HTTP from a real SQLite store.
func dataServer(t testing.TB) (store.Store, string) {
	t.Helper()
	s, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	mux := http.NewServeMux()
	MountData(mux, relay.NewData(s))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func get(t *testing.T, u string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

func TestDataErrors(t *testing.T) {
	_, base := dataServer(t)
	long := strings.Repeat("ab", 48)
	d, b, v := PathDataPayloadDelivered, PathDataBuilderBlocks, PathDataValidatorRegistation
	cases := []struct {
		path, query, msg string
	}{
		// proposer_payload_delivered
		{d, "block_hash=0x1234", "invalid block_hash argument"}, // SEED.md sample
		{d, "block_hash=" + strings.Repeat("11", 32), "invalid block_hash argument"},
		{d, "block_hash=0x" + strings.Repeat("zz", 32), "invalid block_hash argument"},
		{d, "slot=1&cursor=2", "cannot specify both slot and cursor"},
		{d, "slot=abc", "invalid slot argument"},
		{d, "slot=-1", "invalid slot argument"},
		{d, "slot=18446744073709551616", "invalid slot argument"},
		{d, "cursor=1.5", "invalid cursor argument"},
		{d, "block_number=0x10", "invalid block_number argument"},
		{d, "proposer_pubkey=0x" + long[:94], "invalid proposer_pubkey argument"},
		{d, "builder_pubkey=" + long, "invalid builder_pubkey argument"},
		{d, "limit=x", "invalid limit argument"},
		{d, "limit=-1", "invalid limit argument"},
		{d, "limit=201", "maximum limit is 200"},
		// builder_blocks_received
		{b, "slot=1&cursor=2", "cannot specify both slot and cursor"}, // SEED.md sample
		{b, "cursor=2", "cursor argument not supported"},
		{b, "cursor=2&builder_pubkey=0x" + long, "cursor argument not supported"},
		{b, "", "need to query for specific slot or block_hash or block_number or builder_pubkey"},
		{b, "limit=10", "need to query for specific slot or block_hash or block_number or builder_pubkey"},
		{b, "slot=0", "need to query for specific slot or block_hash or block_number or builder_pubkey"},
		{b, "slot=x", "invalid slot argument"},
		{b, "block_hash=0x00", "invalid block_hash argument"},
		{b, "block_number=-5", "invalid block_number argument"},
		{b, "builder_pubkey=0xzz", "invalid builder_pubkey argument"},
		{b, "slot=5&limit=abc", "invalid limit argument"},
		{b, "slot=5&limit=501", "maximum limit is 500"},
		// validator_registration
		{v, "", "missing pubkey argument"}, // SEED.md sample
		{v, "pubkey=", "missing pubkey argument"},
		{v, "pubkey=0x12", "invalid pubkey"},
		{v, "pubkey=" + long, "invalid pubkey"},
		{v, "pubkey=0x" + long, "no registration found for validator 0x" + long},
	}
	for _, c := range cases {
		status, body := get(t, base+c.path+"?"+c.query)
		want := fmt.Sprintf(`{"code":400,"message":%q}`+"\n", c.msg)
		if status != http.StatusBadRequest || string(body) != want {
			t.Errorf("GET %s?%s: %d %s, want 400 %s", c.path, c.query, status, body, want)
		}
	}
}

func TestDataStoreFailureIs500(t *testing.T) {
	s, base := dataServer(t)
	s.Close()
	for _, q := range []string{
		PathDataPayloadDelivered,
		PathDataBuilderBlocks + "?slot=1",
		PathDataValidatorRegistation + "?pubkey=" + pk(1).String(),
	} {
		status, body := get(t, base+q)
		if status != 500 || string(body) != `{"code":500,"message":"internal server error"}`+"\n" {
			t.Errorf("GET %s on a failed store: %d %s", q, status, body)
		}
	}
}

func TestDataMethodNotAllowed(t *testing.T) {
	_, base := dataServer(t)
	resp, err := http.Post(base+PathDataPayloadDelivered, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: %d", resp.StatusCode)
	}
}

func TestDataPayloadDelivered(t *testing.T) {
	s, base := dataServer(t)
	ctx := context.Background()
	// 250 slots so the default limit shows; value = slot except slot 100.
	for slot := uint64(1); slot <= 250; slot++ {
		v := slot
		if slot == 100 {
			v = 1_000_000
		}
		if _, err := s.PutDelivered(ctx, &store.DeliveredPayload{BidTraceV2: trace(slot, byte(slot), byte(slot%3), byte(slot), v)}); err != nil {
			t.Fatal(err)
		}
	}
	slots := func(query string) []uint64 {
		t.Helper()
		status, body := get(t, base+PathDataPayloadDelivered+"?"+query)
		if status != 200 {
			t.Fatalf("%s: %d %s", query, status, body)
		}
		// The reference fields, and gavel's beta fields beside them.
		var got []struct {
			Slot           string `json:"slot"`
			BlockHash      string `json:"block_hash"`
			AlphaBlockHash string `json:"alpha_block_hash"`
			BetaGasUsed    string `json:"beta_gas_used"`
		}
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		out := []uint64{}
		for _, g := range got {
			s, err := strconv.ParseUint(g.Slot, 10, 64)
			if err != nil || g.AlphaBlockHash != g.BlockHash || g.BetaGasUsed != "0" {
				t.Fatalf("%s: row %+v", query, g)
			}
			out = append(out, s)
		}
		return out
	}
	check := func(query string, n int, first ...uint64) {
		t.Helper()
		got := slots(query)
		if len(got) != n {
			t.Errorf("%q: %d rows, want %d", query, len(got), n)
			return
		}
		for i, f := range first {
			if got[i] != f {
				t.Errorf("%q: row %d is slot %d, want %d (rows %v)", query, i, got[i], f, got[:len(first)])
			}
		}
	}
	check("", 200, 250, 249)                                                          // default limit, newest first
	check("limit=3", 3, 250, 249, 248)                                                // limit
	check("limit=200", 200)                                                           // the maximum is allowed
	check("limit=0", 0)                                                               // nothing asked, nothing given
	check("cursor=10&limit=3", 3, 10, 9, 8)                                           // cursor is inclusive, going down
	check("cursor=0&limit=1", 1, 250)                                                 // cursor 0 is no cursor
	check("slot=42", 1, 42)                                                           // slot
	check("slot=0&limit=1", 1, 250)                                                   // slot 0 is no filter
	check("slot=9999", 0)                                                             // unknown slot: []
	check("block_number=1007", 1, 7)                                                  // block number
	check("block_hash="+hash(33).String(), 1, 33)                                     // block hash
	check("block_hash=0x"+strings.ToUpper(hash(33).String()[2:])+"&unknown=1", 1, 33) // hex case does not matter
	check("proposer_pubkey="+pk(77).String(), 1, 77)
	check("builder_pubkey="+pk(1).String()+"&limit=2", 2, 250, 247) // slot%3 == 1
	check("builder_pubkey="+pk(1).String()+"&cursor=248&limit=2", 2, 247, 244)
	check("order_by=-value&limit=2", 2, 100, 250) // value DESC
	check("order_by=value&limit=2", 2, 1, 2)      // value ASC
	check("order_by=slot&limit=1", 1, 250)        // anything else: the default
	check("proposer_pubkey="+strings.Replace(pk(77).String(), "a0", "A0", 1), 1, 77)

	// The item shape: BidTraceV2 with every number a decimal string, then
	// the beta fields (a block delivered as submitted is its own alpha).
	status, body := get(t, base+PathDataPayloadDelivered+"?slot=100")
	tr := trace(100, 100, 1, 100, 1_000_000)
	want := fmt.Sprintf(`[{"slot":"100","parent_hash":"%s","block_hash":"%s","builder_pubkey":"%s","proposer_pubkey":"%s",`+
		`"proposer_fee_recipient":"%s","gas_limit":"30000000","gas_used":"21000","value":"1000000","block_number":"1100","num_tx":"1",`+
		`"alpha_block_hash":"%s","beta_gas_used":"0","beta_bundle_count":"0"}]`+"\n",
		tr.ParentHash, tr.BlockHash, tr.BuilderPubkey, tr.ProposerPubkey, tr.ProposerFeeRecipient, tr.BlockHash)
	if status != 200 || string(body) != want {
		t.Fatalf("item shape:\n got %s\nwant %s", body, want)
	}
	// Once the relay checked its chain, "canonical" follows.
	if err := s.SetDeliveredCanonical(ctx, 100, tr.BlockHash, false); err != nil {
		t.Fatal(err)
	}
	status, body = get(t, base+PathDataPayloadDelivered+"?slot=100")
	if want := strings.TrimSuffix(want, "}]\n") + `,"canonical":false}]` + "\n"; status != 200 || string(body) != want {
		t.Fatalf("item shape, not canonical:\n got %s\nwant %s", body, want)
	}
}

func TestDataBuilderBlocksReceived(t *testing.T) {
	s, base := dataServer(t)
	ctx := context.Background()
	var subs []store.BlockSubmission
	for i := range 6 {
		subs = append(subs, store.BlockSubmission{
			BidTraceV2: trace(10+uint64(i/3), byte(i), 7, 1, uint64(i)), ReceivedAt: 1_700_000_000_123 + int64(i), SimSuccess: i != 4,
		})
	}
	subs = append(subs, store.BlockSubmission{BidTraceV2: trace(12, 9, 8, 1, 9), ReceivedAt: 1_700_000_001_000, Optimistic: true})
	if err := s.PutBlockSubmissions(ctx, subs); err != nil {
		t.Fatal(err)
	}
	hashes := func(query string) []byte {
		t.Helper()
		status, body := get(t, base+PathDataBuilderBlocks+"?"+query)
		if status != 200 {
			t.Fatalf("%s: %d %s", query, status, body)
		}
		var got []beacon.BidTraceV2WithTimestamp
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatalf("%s: %v in %s", query, err, body)
		}
		out := []byte{}
		for _, g := range got {
			out = append(out, g.BlockHash[31])
		}
		return out
	}
	for _, c := range []struct {
		query string
		want  []byte
	}{
		{"slot=10", []byte{2, 1, 0}},
		{"slot=10&limit=1", []byte{2, 1, 0}}, // a slot filter returns every match
		{"slot=11", []byte{5, 3}},            // the failed one (4) is not listed
		{"block_number=1011&limit=1", []byte{5, 3}},
		{"block_hash=" + hash(3).String() + "&limit=0", []byte{3}},
		{"builder_pubkey=" + pk(7).String(), []byte{5, 3, 2, 1, 0}},
		{"builder_pubkey=" + pk(7).String() + "&limit=2", []byte{5, 3}},
		{"builder_pubkey=" + pk(7).String() + "&limit=0", []byte{}},
		{"builder_pubkey=" + pk(8).String(), []byte{9}}, // optimistic, not yet verified
		{"slot=99", []byte{}},
		{"slot=10&proposer_pubkey=garbage", []byte{2, 1, 0}}, // proposer_pubkey is not a filter here
	} {
		if got := hashes(c.query); string(got) != string(c.want) {
			t.Errorf("%q: got %v, want %v", c.query, got, c.want)
		}
	}
	status, body := get(t, base+PathDataBuilderBlocks+"?block_hash="+hash(9).String())
	tr := trace(12, 9, 8, 1, 9)
	want := fmt.Sprintf(`[{"slot":"12","parent_hash":"%s","block_hash":"%s","builder_pubkey":"%s","proposer_pubkey":"%s",`+
		`"proposer_fee_recipient":"%s","gas_limit":"30000000","gas_used":"21000","value":"9","block_number":"1012","num_tx":"1",`+
		`"timestamp":"1700000001","timestamp_ms":"1700000001000","optimistic_submission":true}]`+"\n",
		tr.ParentHash, tr.BlockHash, tr.BuilderPubkey, tr.ProposerPubkey, tr.ProposerFeeRecipient)
	if status != 200 || string(body) != want {
		t.Fatalf("item shape:\n got %s\nwant %s", body, want)
	}
}

func TestDataValidatorRegistration(t *testing.T) {
	s, base := dataServer(t)
	var r store.Registration
	r.Message.Pubkey = pk(5)
	r.Message.FeeRecipient[0] = 0xfe
	r.Message.GasLimit, r.Message.Timestamp = 36_000_000, 1_700_000_000
	r.Signature[0] = 0x99
	if _, err := s.PutRegistrations(context.Background(), []store.Registration{r}); err != nil {
		t.Fatal(err)
	}
	status, body := get(t, base+PathDataValidatorRegistation+"?pubkey="+url.QueryEscape(pk(5).String()))
	want := fmt.Sprintf(`{"message":{"fee_recipient":"%s","gas_limit":"36000000","timestamp":"1700000000","pubkey":"%s"},"signature":"%s"}`+"\n",
		r.Message.FeeRecipient, r.Message.Pubkey, r.Signature)
	if status != 200 || string(body) != want {
		t.Fatalf("registration:\n got %d %s\nwant %s", status, body, want)
	}
}

func FuzzDataQueries(f *testing.F) {
	for _, seed := range []string{
		"", "slot=1&cursor=2", "limit=201", "block_hash=0x12", "order_by=-value&limit=0",
		"builder_pubkey=0x" + strings.Repeat("00", 48), "slot=18446744073709551615", "cursor=%zz", "slot=1&slot=2",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		check := func(err error) {
			if err != nil && !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%q: error %v is not an ErrInvalidArgument", raw, err)
			}
		}
		q, none, err := parseDeliveredQuery(args)
		check(err)
		if err == nil && !none && (q.Limit == 0 || q.Limit > MaxDeliveredLimit) {
			t.Fatalf("%q: delivered limit %d", raw, q.Limit)
		}
		sq, none, err := parseSubmissionQuery(args)
		check(err)
		if err == nil && !none && sq.Limit > MaxSubmissionsLimit {
			t.Fatalf("%q: submissions limit %d", raw, sq.Limit)
		}
	})
}

// traceFromBytes fills a BidTraceV2WithTimestamp from arbitrary bytes.
func traceFromBytes(seed []byte) beacon.BidTraceV2WithTimestamp {
	buf := make([]byte, 400)
	for i := range buf {
		if len(seed) > 0 {
			buf[i] = seed[i%len(seed)] ^ byte(i*31)
		}
	}
	u := func(o int) uint64 {
		var v uint64
		for _, c := range buf[o : o+8] {
			v = v<<8 | uint64(c)
		}
		return v
	}
	var t beacon.BidTraceV2WithTimestamp
	t.Slot, t.GasLimit, t.GasUsed, t.BlockNumber, t.NumTx = u(0), u(8), u(16), u(24), u(32)
	t.Timestamp, t.TimestampMs, t.OptimisticSubmission = u(40), u(48), buf[56]&1 == 1
	copy(t.ParentHash[:], buf[60:])
	copy(t.BlockHash[:], buf[92:])
	copy(t.BuilderPubkey[:], buf[124:])
	copy(t.ProposerPubkey[:], buf[172:])
	copy(t.ProposerFeeRecipient[:], buf[220:])
	copy(t.Value[:], buf[240:])
	return t
}

func FuzzBidTraceJSON(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0xff})
	f.Add([]byte("gavel relay data api"))
	f.Fuzz(func(t *testing.T, seed []byte) {
		tr := traceFromBytes(seed)
		want, err := beacon.MarshalJSONCompact(&tr)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendBidTraceV2WithTimestamp(nil, &tr); string(got) != string(want) {
			t.Fatalf("BidTraceV2WithTimestamp:\n got %s\nwant %s", got, want)
		}
		want, err = beacon.MarshalJSONCompact(&tr.BidTraceV2)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendBidTraceV2(nil, &tr.BidTraceV2); string(got) != string(want) {
			t.Fatalf("BidTraceV2:\n got %s\nwant %s", got, want)
		}
	})
}

func TestDataSurvivesRestart(t *testing.T) {
	path := t.TempDir() + "/gavel/" + store.FileName
	s, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var r store.Registration
	r.Message.Pubkey, r.Message.Timestamp, r.Message.GasLimit = pk(9), 1_700_000_000, 30_000_000
	if _, err := s.PutRegistrations(ctx, []store.Registration{r}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutDelivered(ctx, &store.DeliveredPayload{BidTraceV2: trace(77, 7, 1, 9, 123)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mux := http.NewServeMux()
	MountData(mux, relay.NewData(s))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	if status, body := get(t, srv.URL+PathDataPayloadDelivered+"?slot=77"); status != 200 || !strings.Contains(string(body), `"slot":"77"`) || !strings.Contains(string(body), `"value":"123"`) {
		t.Fatalf("delivered payload after restart: %d %s", status, body)
	}
	if status, body := get(t, srv.URL+PathDataValidatorRegistation+"?pubkey="+pk(9).String()); status != 200 || !strings.Contains(string(body), `"timestamp":"1700000000"`) {
		t.Fatalf("registration after restart: %d %s", status, body)
	}
}

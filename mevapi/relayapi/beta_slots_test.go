package relayapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// TestBetaSlotsBadInput: every bad argument answers 400 with the message
// the other data endpoints use, limit one past its maximum included.
func TestBetaSlotsBadInput(t *testing.T) {
	_, base := dataServer(t)
	for _, c := range []struct{ query, msg string }{
		{"slot=1&cursor=2", "cannot specify both slot and cursor"},
		{"slot=abc", "invalid slot argument"},
		{"slot=-1", "invalid slot argument"},
		{"slot=18446744073709551616", "invalid slot argument"},
		{"cursor=0x10", "invalid cursor argument"},
		{"limit=201", "maximum limit is 200"},
		{"limit=ten", "invalid limit argument"},
	} {
		status, body := get(t, base+PathDataBetaSlots+"?"+c.query)
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(body, &e); err != nil || status != http.StatusBadRequest || e.Code != 400 || e.Message != c.msg {
			t.Errorf("%s: %d %s, want 400 %q", c.query, status, body, c.msg)
		}
	}
	if status, body := get(t, base+PathDataBetaSlots+"?limit=200"); status != 200 || string(body) != "[]\n" {
		t.Errorf("limit=200: %d %s", status, body)
	}
	if status, _ := get(t, base+PathDataBetaSlots+"?slot=1&limit=5&unknown=x"); status != 200 {
		t.Errorf("unknown argument: %d, want it ignored as the other endpoints do", status)
	}
}

// TestParseBetaSlotsLimit goes one past the limit and checks the defaults.
func TestParseBetaSlotsLimit(t *testing.T) {
	for _, c := range []struct {
		query string
		limit uint64
		none  bool
		err   bool
	}{
		{"", MaxBetaSlotsLimit, false, false},
		{"limit=0", 0, true, false},
		{"limit=1", 1, false, false},
		{"limit=" + strconv.Itoa(MaxBetaSlotsLimit), MaxBetaSlotsLimit, false, false},
		{"limit=" + strconv.Itoa(MaxBetaSlotsLimit+1), 0, false, true},
		{"cursor=9&limit=3", 3, false, false},
	} {
		args, _ := url.ParseQuery(c.query)
		q, none, err := parseBetaSlotsQuery(args)
		if (err != nil) != c.err || (err != nil && !errors.Is(err, ErrInvalidArgument)) {
			t.Errorf("%q: error %v, want error %v", c.query, err, c.err)
			continue
		}
		if err == nil && (q.Limit != c.limit || none != c.none) {
			t.Errorf("%q: limit %d none %v, want %d %v", c.query, q.Limit, none, c.limit, c.none)
		}
	}
}

// FuzzBetaSlotsQuery: no query string panics the parser; what it accepts
// stays within the limit, what it refuses is a client error.
func FuzzBetaSlotsQuery(f *testing.F) {
	for _, s := range []string{"", "slot=1", "cursor=5&limit=10", "limit=201", "slot=1&cursor=1", "limit=%zz", "slot=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, _, err := parseBetaSlotsQuery(args)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%q: error %v is not a client error", raw, err)
			}
			return
		}
		if q.Limit > MaxBetaSlotsLimit || (q.Slot != 0 && q.Cursor != 0) {
			t.Fatalf("%q: accepted %+v", raw, q)
		}
	})
}

// TestBetaSlotsServed: a recorded beta slot is served with its settlement,
// alpha, merged block and outcomes; builder_blocks_received shows the
// relay-built block's signature and alpha beside the reference fields.
func TestBetaSlotsServed(t *testing.T) {
	s, base := dataServer(t)
	ctx := context.Background()
	merged := hash(2)
	rec := &store.BetaSlotRecord{
		Slot: 12, L2Block: 345,
		Entries:            []store.BetaSlotEntry{{Gas: 100_000, Hashes: []common.Hash{{0xa}, {0xb}}}},
		AlphaBlockHash:     hash(1),
		AlphaBuilderPubkey: pk(7),
		AlphaValue:         beacon.U256FromUint64(5555),
		BlockHash:          &merged,
		Bundles: []store.BetaSlotBundle{
			{Hash: common.Hash{0xa}, State: store.BetaIncluded, TxHashes: []common.Hash{{0x1}, {0x2}}, Total: 2},
			{Hash: common.Hash{0xb}, State: store.BetaMissed, Total: 1, Reason: "entry gas budget used up"},
		},
	}
	if err := s.PutBetaSlot(ctx, rec); err != nil {
		t.Fatal(err)
	}
	status, body := get(t, base+PathDataBetaSlots+"?slot=12")
	var got []struct {
		Slot       string `json:"slot"`
		L2Block    string `json:"l2_block"`
		Settlement []struct {
			Order        string        `json:"order"`
			AmountOfGas  string        `json:"amount_of_gas"`
			BundleHashes []common.Hash `json:"bundle_hashes"`
		} `json:"settlement"`
		Alpha struct {
			BlockHash     beacon.Root      `json:"block_hash"`
			BuilderPubkey beacon.BLSPubkey `json:"builder_pubkey"`
			Value         string           `json:"value"`
		} `json:"alpha"`
		BlockHash *beacon.Root `json:"block_hash"`
		Bundles   []struct {
			Hash     common.Hash   `json:"bundle_hash"`
			State    string        `json:"state"`
			Included string        `json:"included"`
			TxHashes []common.Hash `json:"tx_hashes"`
			Reason   string        `json:"reason"`
		} `json:"bundles"`
	}
	if err := json.Unmarshal(body, &got); err != nil || status != 200 || len(got) != 1 {
		t.Fatalf("%d %s (%v)", status, body, err)
	}
	g := got[0]
	if g.Slot != "12" || g.L2Block != "345" || len(g.Settlement) != 1 || g.Settlement[0].AmountOfGas != "100000" || len(g.Settlement[0].BundleHashes) != 2 ||
		g.Alpha.BlockHash != hash(1) || g.Alpha.BuilderPubkey != pk(7) || g.Alpha.Value != "5555" || g.BlockHash == nil || *g.BlockHash != merged {
		t.Fatalf("beta slot %s", body)
	}
	if b := g.Bundles; len(b) != 2 || b[0].State != "included" || b[0].Included != "2 of 2" || len(b[0].TxHashes) != 2 ||
		b[1].State != "missed" || b[1].Reason == "" || b[1].TxHashes == nil {
		t.Fatalf("bundles %s", body)
	}
	if strings.Contains(string(body), "canonical") {
		t.Fatalf("canonical sent while unknown: %s", body)
	}
	if _, body := get(t, base+PathDataBetaSlots+"?cursor=11"); string(body) != "[]\n" {
		t.Fatalf("cursor below the slot: %s", body)
	}

	var sig beacon.BLSSignature
	sig[0] = 0xc0
	alpha, builder := hash(1), pk(7)
	tr := trace(12, 2, 99, 3, 5555)
	if err := s.PutBlockSubmissions(ctx, []store.BlockSubmission{{BidTraceV2: tr, ReceivedAt: 1, SimSuccess: true, Signature: &sig, AlphaBlockHash: &alpha, AlphaBuilderPubkey: &builder}}); err != nil {
		t.Fatal(err)
	}
	_, body = get(t, base+PathDataBuilderBlocks+"?block_hash="+merged.String())
	for _, want := range []string{`"builder_pubkey":"` + pk(99).String(), `"signature":"` + sig.String(), `"alpha_block_hash":"` + alpha.String(), `"alpha_builder_pubkey":"` + builder.String()} {
		if !strings.Contains(string(body), want) {
			t.Errorf("builder_blocks_received lacks %s: %s", want, body)
		}
	}
	var rows []map[string]any
	if err := json.Unmarshal(body, &rows); err != nil || len(rows) != 1 {
		t.Fatalf("not a JSON list of one: %s", body)
	}
}

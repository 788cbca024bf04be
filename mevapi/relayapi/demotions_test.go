package relayapi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// TestBuilderDemotions: demotions are served newest slot first, filtered by
// slot and builder; a delivered block owes the proposer its value, one
// never delivered owes 0; bad arguments are 400s naming what was expected.
func TestBuilderDemotions(t *testing.T) {
	s, base := dataServer(t)
	ctx := context.Background()
	if _, err := s.PutDelivered(ctx, &store.DeliveredPayload{BidTraceV2: trace(10, 1, 7, 1, 5)}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []store.Demotion{
		{Slot: 10, BuilderPubkey: pk(7), BlockHash: hash(1), Value: beacon.U256FromUint64(5), Reason: "simulation failed: invalid block", DemotedAt: 1_700_000_000_123},
		{Slot: 11, BuilderPubkey: pk(8), BlockHash: hash(2), Value: beacon.U256FromUint64(9), Reason: "simulation lost at restart", DemotedAt: 1_700_000_012_000},
	} {
		if err := s.DemoteBuilder(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	p := PathDataBuilderDemotions
	want10 := `{"slot":"10","builder_pubkey":"` + pk(7).String() + `","block_hash":"` + hash(1).String() + `","value":"5","reason":"simulation failed: invalid block","delivered":true,"proposer_owed":"5","demoted_at_ms":"1700000000123"}`
	want11 := `{"slot":"11","builder_pubkey":"` + pk(8).String() + `","block_hash":"` + hash(2).String() + `","value":"9","reason":"simulation lost at restart","delivered":false,"proposer_owed":"0","demoted_at_ms":"1700000012000"}`
	for _, c := range []struct{ query, want string }{
		{"", "[" + want11 + "," + want10 + "]\n"},
		{"?slot=10", "[" + want10 + "]\n"},
		{"?builder_pubkey=" + pk(8).String(), "[" + want11 + "]\n"},
		{"?limit=1", "[" + want11 + "]\n"},
		{"?limit=0", "[]\n"},
		{"?slot=12", "[]\n"},
		{"?slot=18446744073709551615", "[]\n"},
	} {
		code, body := get(t, base+p+c.query)
		if code != http.StatusOK || string(body) != c.want {
			t.Errorf("%s: %d %s\nwant %s", c.query, code, body, c.want)
		}
	}
	for _, c := range []struct{ query, msg string }{
		{"?slot=x", "invalid slot argument: expected a decimal slot number"},
		{"?builder_pubkey=0x12", "invalid builder_pubkey argument: expected 0x and 96 hex digits"},
		{"?limit=201", "maximum limit is 200"},
		{"?limit=-1", "invalid limit argument: expected a decimal number up to 200"},
	} {
		code, body := get(t, base+p+c.query)
		if code != http.StatusBadRequest || string(body) != `{"code":400,"message":"`+c.msg+`"}`+"\n" {
			t.Errorf("%s: %d %s, want 400 %q", c.query, code, body, c.msg)
		}
	}
}

// FuzzDemotionsQuery: no query string panics the parser; what it accepts
// stays within the limit, what it refuses is a client error.
func FuzzDemotionsQuery(f *testing.F) {
	for _, s := range []string{"", "slot=1", "builder_pubkey=0x12", "limit=201", "limit=0", "slot=99999999999999999999", "limit=%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		args, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q, _, err := parseDemotionsQuery(args)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("%q: error %v is not a client error", raw, err)
			}
			return
		}
		if q.Limit > MaxDemotionsLimit || q.Limit < 0 {
			t.Fatalf("%q: accepted %+v", raw, q)
		}
	})
}

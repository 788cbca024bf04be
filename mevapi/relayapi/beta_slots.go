package relayapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// PathDataBetaSlots is the public record of delivered beta slots.
const PathDataBetaSlots = "/relay/v1/data/beta_slots"

// MaxBetaSlotsLimit is the default and largest limit of beta_slots (as
// proposer_payload_delivered's).
const MaxBetaSlotsLimit = MaxDeliveredLimit

// parseBetaSlotsQuery turns beta_slots' query string into a store query;
// none reports an explicit limit=0 (the answer is []). slot, cursor and
// limit mean, and are refused with the same messages, as on
// proposer_payload_delivered.
func parseBetaSlotsQuery(args url.Values) (q store.BetaSlotQuery, none bool, err error) {
	q.Limit = MaxBetaSlotsLimit
	if args.Get("slot") != "" && args.Get("cursor") != "" {
		return q, false, errBadArg(msgSlotAndCursor)
	}
	if q.Slot, _, err = uintArg(args, "slot"); err != nil {
		return q, false, err
	}
	if q.Cursor, _, err = uintArg(args, "cursor"); err != nil {
		return q, false, err
	}
	if l, ok, err := limitArg(args, MaxBetaSlotsLimit); err != nil {
		return q, false, err
	} else if ok {
		q.Limit, none = l, l == 0
	}
	return q, none, nil
}

func (d *dataAPI) betaSlots(w http.ResponseWriter, r *http.Request) {
	q, none, err := parseBetaSlotsQuery(r.URL.Query())
	if err != nil {
		writeDataError(w, err)
		return
	}
	out := []betaSlotJSON{}
	if !none {
		rows, err := d.q.BetaSlots(r.Context(), q)
		if err != nil {
			writeDataError(w, err)
			return
		}
		for i := range rows {
			out = append(out, newBetaSlotJSON(&rows[i]))
		}
	}
	body, err := json.Marshal(out)
	if err != nil {
		writeDataError(w, err)
		return
	}
	writeRawJSON(w, append(body, '\n'))
}

// betaSlotJSON is one slot of beta_slots. Numbers are decimal strings, as
// in the other data endpoints.
type betaSlotJSON struct {
	Slot string `json:"slot"`
	// L2Block is the L2 block the settlement was read at ("0": unknown).
	L2Block    string           `json:"l2_block"`
	Settlement []betaEntryJSON  `json:"settlement"`
	Alpha      betaAlphaJSON    `json:"alpha"`
	BlockHash  *beacon.Root     `json:"block_hash"` // the merged block; null: the alpha was delivered alone
	Bundles    []betaBundleJSON `json:"bundles"`
	// Canonical says whether the delivered block became canonical: the
	// delivered-payload record's field, omitted while unknown.
	Canonical *bool `json:"canonical,omitempty"`
}

type betaEntryJSON struct {
	Order        string        `json:"order"`
	AmountOfGas  string        `json:"amount_of_gas"`
	BundleHashes []common.Hash `json:"bundle_hashes"`
}

type betaAlphaJSON struct {
	BlockHash     beacon.Root      `json:"block_hash"`
	BuilderPubkey beacon.BLSPubkey `json:"builder_pubkey"`
	Value         string           `json:"value"`
}

type betaBundleJSON struct {
	Hash     common.Hash   `json:"bundle_hash"`
	Entry    string        `json:"entry"`
	State    string        `json:"state"`              // included or missed
	Included string        `json:"included,omitempty"` // "k of n" when included
	TxHashes []common.Hash `json:"tx_hashes"`
	Reason   string        `json:"reason,omitempty"`
}

func newBetaSlotJSON(r *store.BetaSlotRecord) betaSlotJSON {
	out := betaSlotJSON{
		Slot:       strconv.FormatUint(r.Slot, 10),
		L2Block:    strconv.FormatUint(r.L2Block, 10),
		Settlement: []betaEntryJSON{},
		Alpha:      betaAlphaJSON{BlockHash: r.AlphaBlockHash, BuilderPubkey: r.AlphaBuilderPubkey, Value: r.AlphaValue.String()},
		BlockHash:  r.BlockHash,
		Bundles:    []betaBundleJSON{},
		Canonical:  r.Canonical,
	}
	for i, e := range r.Entries {
		hashes := e.Hashes
		if hashes == nil {
			hashes = []common.Hash{}
		}
		out.Settlement = append(out.Settlement, betaEntryJSON{Order: strconv.Itoa(i), AmountOfGas: strconv.FormatUint(e.Gas, 10), BundleHashes: hashes})
	}
	for _, b := range r.Bundles {
		j := betaBundleJSON{Hash: b.Hash, Entry: strconv.FormatUint(b.Entry, 10), State: b.State, TxHashes: b.TxHashes, Reason: b.Reason}
		if j.TxHashes == nil {
			j.TxHashes = []common.Hash{}
		}
		if b.State == store.BetaIncluded {
			j.Included = fmt.Sprintf("%d of %d", len(b.TxHashes), b.Total)
		}
		out.Bundles = append(out.Bundles, j)
	}
	return out
}

// appendSubmission appends a builder_blocks_received row: the reference
// fields, and for a block the relay built (a beta block) its signature over
// the BidTrace and the alpha it was merged from.
func appendSubmission(b []byte, row *store.BlockSubmission) []byte {
	t := row.WithTimestamp()
	b = appendBidTraceV2WithTimestamp(b, &t)
	if row.Signature == nil {
		return b
	}
	b = b[:len(b)-1] // reopen the object
	b = append(b, `,"signature":`...)
	b = beacon.AppendHexJSON(b, row.Signature[:])
	if row.AlphaBlockHash != nil {
		b = append(b, `,"alpha_block_hash":`...)
		b = beacon.AppendHexJSON(b, row.AlphaBlockHash[:])
	}
	if row.AlphaBuilderPubkey != nil {
		b = append(b, `,"alpha_builder_pubkey":`...)
		b = beacon.AppendHexJSON(b, row.AlphaBuilderPubkey[:])
	}
	return append(b, '}')
}

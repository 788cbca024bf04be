package relayapi

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// PathDataBuilderDemotions lists the optimistic builders demoted for a
// block that failed its simulation after the relay served it.
const PathDataBuilderDemotions = "/relay/v1/data/builder_demotions"

// MaxDemotionsLimit is the default and largest limit of builder_demotions.
const MaxDemotionsLimit = MaxDeliveredLimit

// parseDemotionsQuery turns builder_demotions' query string into a store
// query; none reports an explicit limit=0 (the answer is []).
func parseDemotionsQuery(args url.Values) (q store.DemotionQuery, none bool, err error) {
	q.Limit = MaxDemotionsLimit
	if q.Slot, _, err = uintArg(args, "slot"); err != nil {
		return q, false, errBadArg("invalid slot argument: expected a decimal slot number")
	}
	if q.Builder, err = pubkeyArg(args, "builder_pubkey"); err != nil {
		return q, false, errBadArg("invalid builder_pubkey argument: expected 0x and 96 hex digits")
	}
	if l, ok, err := limitArg(args, MaxDemotionsLimit); err != nil {
		if errBad, isBad := err.(errBadArg); isBad && errBad == invalidArg("limit") {
			return q, false, errBadArg("invalid limit argument: expected a decimal number up to " + strconv.Itoa(MaxDemotionsLimit))
		}
		return q, false, err
	} else if ok {
		q.Limit, none = int(l), l == 0
	}
	return q, none, nil
}

func (d *dataAPI) builderDemotions(w http.ResponseWriter, r *http.Request) {
	q, none, err := parseDemotionsQuery(r.URL.Query())
	if err != nil {
		writeDataError(w, err)
		return
	}
	out := []demotionJSON{}
	if !none {
		rows, err := d.q.Demotions(r.Context(), q)
		if err != nil {
			writeDataError(w, err)
			return
		}
		for i := range rows {
			out = append(out, newDemotionJSON(&rows[i]))
		}
	}
	body, err := json.Marshal(out)
	if err != nil {
		writeDataError(w, err)
		return
	}
	writeRawJSON(w, append(body, '\n'))
}

// demotionJSON is one demotion of builder_demotions. Numbers are decimal
// strings, as in the other data endpoints.
type demotionJSON struct {
	Slot          string           `json:"slot"`
	BuilderPubkey beacon.BLSPubkey `json:"builder_pubkey"`
	BlockHash     beacon.Root      `json:"block_hash"`
	Value         string           `json:"value"`
	Reason        string           `json:"reason"`
	// Delivered says a getPayload served the block (the delivery record).
	Delivered bool `json:"delivered"`
	// ProposerOwed is what the builder's collateral owes the proposer, wei
	// (store.DemotionRecord.ProposerOwed).
	ProposerOwed string `json:"proposer_owed"`
	DemotedAtMs  string `json:"demoted_at_ms"`
}

func newDemotionJSON(r *store.DemotionRecord) demotionJSON {
	owed := r.ProposerOwed()
	return demotionJSON{
		Slot: strconv.FormatUint(r.Slot, 10), BuilderPubkey: r.BuilderPubkey, BlockHash: r.BlockHash, Value: r.Value.String(),
		Reason: r.Reason, Delivered: r.Delivered, ProposerOwed: owed.String(), DemotedAtMs: strconv.FormatInt(r.DemotedAt, 10),
	}
}

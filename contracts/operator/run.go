package operator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/params"
)

// Run ticks the loop at the start of every slot, with the slot before it as
// the one that is over, until ctx ends; it then returns ctx's error. Errors of
// single ticks are logged (Tick logs each slot's) and the loop goes on.
func (o *Operator) Run(ctx context.Context, clock params.SlotClock) error {
	if clock.SecondsPerSlot == 0 {
		return fmt.Errorf("%w: the slot clock has no slot time", ErrConfig)
	}
	for {
		next := clock.Now() + 1
		timer := time.NewTimer(time.Until(time.Unix(int64(clock.SlotTime(next)), 0)))
		select {
		case <-ctx.Done():
			timer.Stop()
			return ctx.Err()
		case <-timer.C:
		}
		tctx, cancel := context.WithTimeout(ctx, time.Duration(clock.SecondsPerSlot)*time.Second)
		if err := o.Tick(tctx, next-1); err != nil && ctx.Err() == nil {
			log.Warn("Auction operator tick", "slot", next-1, "err", err)
		}
		cancel()
	}
}

// PathDelivered is the relay data API's delivered-payloads query.
const PathDelivered = "/relay/v1/data/bidtraces/proposer_payload_delivered"

// ErrRelay is returned when the relay's data API answers something other
// than a delivered-payloads list.
var ErrRelay = errors.New("relay data API")

// RelayDeliveries judges slots for `gavel auction operate`, from the L1
// gavel node or from a relay's data API.
//
// With L1 set it reads the node's account of the slot's beta merges
// (mev_deliveredBeta) and the canonical L1 block at the slot, and applies
// Judge: the same rules as the in-process dev operator. A node without
// that method (not a gavel relay) falls back to the data API.
//
// With the data API (URL; any relay that serves proposer_payload_delivered)
// a slot counts as honoured only when the relay delivered its block and
// says the block is canonical ("canonical": true, which gavel's relay sets
// once its chain is past the slot); a delivered block that is not canonical
// is refunded, and a slot without that answer stays unknown until its
// grace has passed and is then refunded. The data API does not tell a block
// delivered without its beta part from one with it.
type RelayDeliveries struct {
	// L1 is the L1 gavel node's JSON-RPC (nil: the data API only).
	L1 *rpc.Client
	// Clock is the L1 slot clock, to find a slot's block.
	Clock params.SlotClock
	// URL is the relay's base URL, e.g. http://127.0.0.1:9062.
	URL    string
	Client *http.Client // nil: a client with a 10 s timeout
}

// deliveredRecord is the part of a delivered-payload record the operator reads.
type deliveredRecord struct {
	Slot      string `json:"slot"`
	BlockHash string `json:"block_hash"`
	Canonical *bool  `json:"canonical"`
}

// Verdict implements Deliveries.
func (r RelayDeliveries) Verdict(ctx context.Context, slot uint64) (Verdict, error) {
	if r.L1 != nil {
		var acct SlotAccount
		err := r.L1.CallContext(ctx, &acct, "mev_deliveredBeta", hexutil.Uint64(slot))
		var rerr rpc.Error
		switch {
		case err == nil:
			block, reached, err := BlockAtSlot(ctx, ethclient.NewClient(r.L1), r.Clock, slot)
			if err != nil || !reached || !acct.Known {
				return Verdict{}, err
			}
			return Judge(block, acct), nil
		case errors.As(err, &rerr) && rerr.ErrorCode() == -32601:
			// Method not found. A gavel node without `mev` in its HTTP
			// namespaces answers so too, and the data API cannot tell a
			// block delivered without its beta part: paying such a slot out
			// would be wrong, so only a node that is not gavel falls back.
			var version string
			if verr := r.L1.CallContext(ctx, &version, "web3_clientVersion"); verr == nil && strings.HasPrefix(strings.ToLower(version), "gavel/") {
				return Verdict{}, fmt.Errorf("%w: %s does not serve mev_deliveredBeta: start it with mev among --http.api's namespaces", ErrRelay, version)
			}
		default:
			return Verdict{}, fmt.Errorf("mev_deliveredBeta(%d): %w", slot, err)
		}
	}
	client := r.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	u := strings.TrimRight(r.URL, "/") + PathDelivered + "?slot=" + url.QueryEscape(strconv.FormatUint(slot, 10))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Verdict{}, err
	}
	res, err := client.Do(req)
	if err != nil {
		return Verdict{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return Verdict{}, err
	}
	if res.StatusCode != http.StatusOK {
		return Verdict{}, fmt.Errorf("%w: GET %s: %s: %.200s", ErrRelay, u, res.Status, body)
	}
	var recs []deliveredRecord
	if err := json.Unmarshal(body, &recs); err != nil {
		return Verdict{}, fmt.Errorf("%w: GET %s: not a list of delivered payloads: %v", ErrRelay, u, err)
	}
	for _, rec := range recs {
		if rec.Slot != strconv.FormatUint(slot, 10) || rec.Canonical == nil {
			continue
		}
		if *rec.Canonical {
			return Verdict{Known: true, Payout: true, Reason: "the relay delivered the slot's block " + rec.BlockHash + " and it is canonical (relay data API)"}, nil
		}
		return Verdict{Known: true, Reason: "the relay's delivered block " + rec.BlockHash + " is not canonical (relay data API)"}, nil
	}
	return Verdict{}, nil
}

// Package relayapi holds the relay's HTTP surfaces on the MEV listener: the
// builder, proposer and data APIs. Handlers parse requests and encode
// answers; the relay (eth/relay) decides.
package relayapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/ethereum/go-ethereum/log"
	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi"
)

// Paths of the relay data API.
const (
	PathDataPayloadDelivered     = "/relay/v1/data/bidtraces/proposer_payload_delivered"
	PathDataBuilderBlocks        = "/relay/v1/data/bidtraces/builder_blocks_received"
	PathDataValidatorRegistation = "/relay/v1/data/validator_registration"
)

// Limits of the data API, as in the reference relay.
const (
	// MaxDeliveredLimit is the default and largest limit of proposer_payload_delivered.
	MaxDeliveredLimit = 200
	// MaxSubmissionsLimit is the default and largest limit of builder_blocks_received.
	MaxSubmissionsLimit = 500
)

// DataQuerier is what the data API reads (relay.Data).
type DataQuerier interface {
	DeliveredPayloads(ctx context.Context, q store.DeliveredQuery) ([]store.DeliveredPayload, error)
	BlockSubmissions(ctx context.Context, q store.SubmissionQuery) ([]store.BlockSubmission, error)
	ValidatorRegistration(ctx context.Context, pubkey beacon.BLSPubkey) (*beacon.SignedValidatorRegistration, error)
	BetaSlots(ctx context.Context, q store.BetaSlotQuery) ([]store.BetaSlotRecord, error)
	Demotions(ctx context.Context, q store.DemotionQuery) ([]store.DemotionRecord, error)
}

// Mux is where routes are mounted; *mevapi.Server and *http.ServeMux fit.
type Mux interface {
	Handle(pattern string, h http.Handler)
}

// MountData mounts the data API endpoints (GET only) on srv.
func MountData(srv Mux, q DataQuerier) {
	d := &dataAPI{q: q}
	srv.Handle("GET "+PathDataPayloadDelivered, http.HandlerFunc(d.payloadDelivered))
	srv.Handle("GET "+PathDataBuilderBlocks, http.HandlerFunc(d.builderBlocks))
	srv.Handle("GET "+PathDataValidatorRegistation, http.HandlerFunc(d.validatorRegistration))
	srv.Handle("GET "+PathDataBetaSlots, http.HandlerFunc(d.betaSlots))
	srv.Handle("GET "+PathDataBuilderDemotions, http.HandlerFunc(d.builderDemotions))
}

type dataAPI struct{ q DataQuerier }

// ErrInvalidArgument is matched (errors.Is) by every bad-argument error of
// the data API; such errors answer 400 with their text as the message.
var ErrInvalidArgument = errors.New("invalid data API argument")

// errBadArg is a 400 answer; its text is the message sent to the client.
type errBadArg string

// Error returns the message sent to the client.
func (e errBadArg) Error() string { return string(e) }

// Is makes errBadArg match ErrInvalidArgument.
func (e errBadArg) Is(target error) bool { return target == ErrInvalidArgument }

// The data API's 400 messages, exactly as the reference relay words them.
const (
	msgSlotAndCursor     = "cannot specify both slot and cursor"
	msgCursorUnsupported = "cursor argument not supported"
	msgNeedFilter        = "need to query for specific slot or block_hash or block_number or builder_pubkey"
	msgMissingPubkey     = "missing pubkey argument"
	msgInvalidPubkey     = "invalid pubkey"
)

func invalidArg(name string) errBadArg { return errBadArg("invalid " + name + " argument") }

// uintArg parses a decimal query argument; present reports whether it was given.
func uintArg(args url.Values, name string) (v uint64, present bool, err error) {
	s := args.Get(name)
	if s == "" {
		return 0, false, nil
	}
	v, err = strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, true, invalidArg(name)
	}
	return v, true, nil
}

func hashArg(args url.Values, name string) (*beacon.Root, error) {
	s := args.Get(name)
	if s == "" {
		return nil, nil
	}
	h := new(beacon.Root)
	if err := h.UnmarshalText([]byte(s)); err != nil {
		return nil, invalidArg(name)
	}
	return h, nil
}

func pubkeyArg(args url.Values, name string) (*beacon.BLSPubkey, error) {
	s := args.Get(name)
	if s == "" {
		return nil, nil
	}
	pk := new(beacon.BLSPubkey)
	if err := pk.UnmarshalText([]byte(s)); err != nil {
		return nil, invalidArg(name)
	}
	return pk, nil
}

// limitArg parses limit, refusing values above max.
func limitArg(args url.Values, max uint64) (limit uint64, present bool, err error) {
	limit, present, err = uintArg(args, "limit")
	if err != nil {
		return 0, false, err
	}
	if limit > max {
		return 0, false, errBadArg(fmt.Sprintf("maximum limit is %d", max))
	}
	return limit, present, nil
}

// parseDeliveredQuery turns proposer_payload_delivered's query string into a
// store query; none reports an explicit limit=0 (the answer is []). Its
// errors are the 400 messages of the reference relay.
func parseDeliveredQuery(args url.Values) (q store.DeliveredQuery, none bool, err error) {
	q.Limit = MaxDeliveredLimit
	if args.Get("slot") != "" && args.Get("cursor") != "" {
		return q, false, errBadArg(msgSlotAndCursor)
	}
	if q.Slot, _, err = uintArg(args, "slot"); err != nil {
		return q, false, err
	}
	if q.Cursor, _, err = uintArg(args, "cursor"); err != nil {
		return q, false, err
	}
	if q.BlockHash, err = hashArg(args, "block_hash"); err != nil {
		return q, false, err
	}
	if q.BlockNumber, _, err = uintArg(args, "block_number"); err != nil {
		return q, false, err
	}
	if q.ProposerPubkey, err = pubkeyArg(args, "proposer_pubkey"); err != nil {
		return q, false, err
	}
	if q.BuilderPubkey, err = pubkeyArg(args, "builder_pubkey"); err != nil {
		return q, false, err
	}
	if l, ok, err := limitArg(args, MaxDeliveredLimit); err != nil {
		return q, false, err
	} else if ok {
		q.Limit, none = l, l == 0
	}
	switch args.Get("order_by") {
	case "value":
		q.Order = store.OrderValueAsc
	case "-value":
		q.Order = store.OrderValueDesc
	}
	return q, none, nil
}

// parseSubmissionQuery turns builder_blocks_received's query string into a
// store query; none reports an explicit limit=0 (the answer is []). Its
// errors are the 400 messages of the reference relay; a query with both slot
// and cursor gets "cannot specify both slot and cursor" (SEED.md's sample for
// this endpoint), any other cursor "cursor argument not supported". A slot,
// block_number or block_hash filter returns every match (no limit), as the
// reference relay does.
func parseSubmissionQuery(args url.Values) (q store.SubmissionQuery, none bool, err error) {
	q.Limit = MaxSubmissionsLimit
	if args.Get("cursor") != "" {
		if args.Get("slot") != "" {
			return q, false, errBadArg(msgSlotAndCursor)
		}
		return q, false, errBadArg(msgCursorUnsupported)
	}
	if q.Slot, _, err = uintArg(args, "slot"); err != nil {
		return q, false, err
	}
	if q.BlockHash, err = hashArg(args, "block_hash"); err != nil {
		return q, false, err
	}
	if q.BlockNumber, _, err = uintArg(args, "block_number"); err != nil {
		return q, false, err
	}
	if q.BuilderPubkey, err = pubkeyArg(args, "builder_pubkey"); err != nil {
		return q, false, err
	}
	if q.Slot == 0 && q.BlockHash == nil && q.BlockNumber == 0 && q.BuilderPubkey == nil {
		return q, false, errBadArg(msgNeedFilter)
	}
	if l, ok, err := limitArg(args, MaxSubmissionsLimit); err != nil {
		return q, false, err
	} else if ok {
		q.Limit, none = l, l == 0
	}
	if q.Slot > 0 || q.BlockNumber > 0 || q.BlockHash != nil {
		q.Limit, none = 0, false // every match, whatever limit says
	}
	return q, none, nil
}

func (d *dataAPI) payloadDelivered(w http.ResponseWriter, r *http.Request) {
	q, none, err := parseDeliveredQuery(r.URL.Query())
	if err != nil {
		writeDataError(w, err)
		return
	}
	var rows []store.DeliveredPayload
	if !none {
		if rows, err = d.q.DeliveredPayloads(r.Context(), q); err != nil {
			writeDataError(w, err)
			return
		}
	}
	writeList(w, rows, appendDelivered)
}

func (d *dataAPI) builderBlocks(w http.ResponseWriter, r *http.Request) {
	q, none, err := parseSubmissionQuery(r.URL.Query())
	if err != nil {
		writeDataError(w, err)
		return
	}
	var rows []store.BlockSubmission
	if !none {
		if rows, err = d.q.BlockSubmissions(r.Context(), q); err != nil {
			writeDataError(w, err)
			return
		}
	}
	writeList(w, rows, appendSubmission)
}

// writeList writes rows as a JSON array, each element appended by appendRow.
func writeList[T any](w http.ResponseWriter, rows []T, appendRow func([]byte, *T) []byte) {
	b := make([]byte, 0, 2+len(rows)*bidTraceSize)
	b = append(b, '[')
	for i := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRow(b, &rows[i])
	}
	writeRawJSON(w, append(b, ']', '\n'))
}

func (d *dataAPI) validatorRegistration(w http.ResponseWriter, r *http.Request) {
	s := r.URL.Query().Get("pubkey")
	if s == "" {
		writeDataError(w, errBadArg(msgMissingPubkey))
		return
	}
	var pk beacon.BLSPubkey
	if err := pk.UnmarshalText([]byte(s)); err != nil {
		writeDataError(w, errBadArg(msgInvalidPubkey))
		return
	}
	reg, err := d.q.ValidatorRegistration(r.Context(), pk)
	if errors.Is(err, relay.ErrNoRegistration) {
		writeDataError(w, errBadArg("no registration found for validator "+s))
		return
	}
	if err != nil {
		writeDataError(w, err)
		return
	}
	mevapi.WriteJSON(w, http.StatusOK, reg)
}

// writeRawJSON writes an encoded JSON answer with status 200.
func writeRawJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

// writeDataError answers 500 "internal server error" for an internal fault
// (logged here), 400 with the message for anything else.
func writeDataError(w http.ResponseWriter, err error) {
	if errclass.IsInternal(err) {
		log.Warn("Relay data query failed", "err", err)
		mevapi.WriteError(w, http.StatusInternalServerError, "")
		return
	}
	mevapi.WriteError(w, http.StatusBadRequest, err.Error())
}

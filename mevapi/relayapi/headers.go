package relayapi

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/params"
)

// PathBuilderHeaders takes header-first submissions (helix's optimistic v2):
// an optimistic builder's SignedHeaderSubmission, served by getHeader before
// the block itself arrives at PathBuilderBlocks.
const PathBuilderHeaders = "/relay/v1/builder/headers"

// MaxHeaderSubmissionBytes caps a header submission after gzip decoding: an
// Electra header with the most execution requests and blob commitments the
// mainnet preset allows is under 1.8 MiB.
const MaxHeaderSubmissionBytes = 2 << 20

// submitHeader takes a header-first submission: SSZ or JSON, gzipped or
// not, its fork named by Eth-Consensus-Version or its slot. The bid trace's
// checks and the header-first rule run before the builder's signature is
// verified (beside the relay's signing of the bid on another core).
func (b *builderAPI) submitHeader(w http.ResponseWriter, req *http.Request) {
	received := time.Now()
	if req.URL.Query().Get("cancellations") == "1" {
		writeRelayError(w, relay.ErrHeaderCancellations)
		return
	}
	ssz, gzipped, ok := bodyFormat(w, req)
	if !ok {
		return
	}
	body, err := readSubmission(mevapi.AccountOf(req), req.Body, gzipped, req.ContentLength, MaxHeaderSubmissionBytes, 0, nil, nil)
	if err != nil {
		status := mevapi.BodyStatus(err)
		if errors.Is(err, ErrSubmissionTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		mevapi.WriteError(w, status, err.Error())
		return
	}
	// The decoded submission copies what it keeps: the body goes back.
	defer mevapi.ReleaseBody(body)
	h, err := DecodeHeaderSubmission(b.r.BeaconConfig(), b.r.Spec(), req.Header.Get("Eth-Consensus-Version"), body, ssz)
	if err != nil {
		mevapi.WriteError(w, http.StatusBadRequest, err.Error())
		return
	}
	t := h.BidTrace()
	if err := b.r.CheckHeaderTrace(t, h.Fork); err != nil {
		writeRelayError(w, err)
		return
	}
	// The BLS verification and the relay's signing run in a turn of the
	// node's CPU scheduler: headers naming an optimistic builder (its
	// pubkey is public) cannot take the cores from the slot's work.
	var outcome relay.SubmitOutcome
	if gerr := mevapi.AccountOf(req).Run(req.Context(), int64(len(body)), func(ctx context.Context) {
		outcome, err = b.r.SubmitHeader(ctx, relay.HeaderRequest{Header: h, ReceivedAt: received})
	}); gerr != nil {
		mevapi.WriteError(w, mevapi.BodyStatus(gerr), gerr.Error())
		return
	}
	if err != nil {
		writeRelayError(w, err)
		return
	}
	if outcome == relay.BelowFloor {
		mevapi.WriteJSON(w, http.StatusAccepted, map[string]string{"message": msgBelowFloor})
		return
	}
	w.WriteHeader(http.StatusOK)
}

// DecodeHeaderSubmission decodes a header-first submission of the fork named
// by the Eth-Consensus-Version header, or, without it, of its slot's fork
// (Deneb or later). SSZ that does not decode is retried as JSON, as for
// block submissions.
func DecodeHeaderSubmission(cfg *params.BeaconConfig, spec *beacon.Spec, version string, body []byte, ssz bool) (*beacon.HeaderSubmission, error) {
	return headerSubmissions.decode(cfg, spec, version, body, ssz)
}

var headerSubmissions = bodyCodec[*beacon.HeaderSubmission]{
	minFork: params.ForkDeneb, badFork: "invalid fork version: header submissions are Deneb or later",
	slotSSZ: beacon.HeaderSubmissionSlotSSZ, slotJSON: beacon.HeaderSubmissionSlotJSON,
	ssz: beacon.DecodeHeaderSubmissionSSZ, jsonBody: beacon.DecodeHeaderSubmissionJSON,
}

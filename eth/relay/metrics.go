package relay

import (
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
)

// Metrics of the relay (served with --metrics).
var (
	submissionsAccepted   = metrics.NewRegisteredMeter("gavel/relay/submissions/accepted", nil)
	submissionsBelowFloor = metrics.NewRegisteredMeter("gavel/relay/submissions/belowfloor", nil)
	submissionsDropped    = metrics.NewRegisteredMeter("gavel/relay/submissions/dropped", nil)
	submissionsRejected   = metrics.NewRegisteredMeter("gavel/relay/submissions/rejected", nil)
	simulationTimer       = metrics.NewRegisteredTimer("gavel/relay/simulation", nil)
	headersServed         = metrics.NewRegisteredMeter("gavel/relay/getheader/served", nil)
	headersEmpty          = metrics.NewRegisteredMeter("gavel/relay/getheader/empty", nil)
	// getHeaders that waited for a bid in flight (count and how long), and
	// those of them that still found none.
	headerWaitTimer   = metrics.NewRegisteredTimer("gavel/relay/getheader/wait", nil)
	headerWaitsEmpty  = metrics.NewRegisteredMeter("gavel/relay/getheader/wait/empty", nil)
	payloadsDelivered = metrics.NewRegisteredMeter("gavel/relay/getpayload/delivered", nil)
	payloadsRejected  = metrics.NewRegisteredMeter("gavel/relay/getpayload/rejected", nil)
	// Second beacon blocks signed over a payload already delivered.
	proposerEquivocations = metrics.NewRegisteredMeter("gavel/relay/getpayload/equivocations", nil)
	registrationsSaved    = metrics.NewRegisteredMeter("gavel/relay/registrations/saved", nil)
	registrationsVerified = metrics.NewRegisteredMeter("gavel/relay/registrations/verified", nil)
)

// countSubmission records a submission's outcome.
func countSubmission(out SubmitOutcome, err error) {
	switch {
	case err != nil:
		submissionsRejected.Mark(1)
	case out == Accepted:
		submissionsAccepted.Mark(1)
	case out == BelowFloor:
		submissionsBelowFloor.Mark(1)
	default:
		submissionsDropped.Mark(1)
	}
}

// stageTimes are how long a submission spent in each stage of Submit.
type stageTimes struct {
	checks, simulation, total time.Duration
}

// logSubmission writes the one log line of a submission: its outcome and
// how long decoding (before Submit), the checks and the simulation took.
// Accepted bids are logged at INFO, everything else at DEBUG (rejections
// are answered to the builder; internal faults are logged by the API).
func logSubmission(req SubmitRequest, out SubmitOutcome, err error, st stageTimes) {
	if req.Submission == nil {
		return
	}
	t := req.Submission.BidTrace()
	var decode time.Duration
	if !req.DecodedAt.IsZero() {
		decode = req.DecodedAt.Sub(req.ReceivedAt)
	}
	ctx := []any{"slot", t.Slot, "builder", t.BuilderPubkey, "block", t.BlockHash, "value", t.Value,
		"decode", decode, "checks", st.checks, "simulation", st.simulation, "total", decode + st.total}
	switch {
	case err != nil:
		log.Debug("Relay rejected a block", append(ctx, "err", err)...)
	case out == Accepted:
		log.Info("Relay accepted a block", ctx...)
	case out == BelowFloor:
		log.Debug("Relay kept a block below the floor", ctx...)
	default:
		log.Debug("Relay dropped an empty block", ctx...)
	}
}

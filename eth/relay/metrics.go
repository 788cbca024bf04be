package relay

import "github.com/ethereum/go-ethereum/metrics"

// Metrics of the relay (served with --metrics).
var (
	submissionsAccepted   = metrics.NewRegisteredMeter("gavel/relay/submissions/accepted", nil)
	submissionsBelowFloor = metrics.NewRegisteredMeter("gavel/relay/submissions/belowfloor", nil)
	submissionsDropped    = metrics.NewRegisteredMeter("gavel/relay/submissions/dropped", nil)
	submissionsRejected   = metrics.NewRegisteredMeter("gavel/relay/submissions/rejected", nil)
	simulationTimer       = metrics.NewRegisteredTimer("gavel/relay/simulation", nil)
	headersServed         = metrics.NewRegisteredMeter("gavel/relay/getheader/served", nil)
	headersEmpty          = metrics.NewRegisteredMeter("gavel/relay/getheader/empty", nil)
	payloadsDelivered     = metrics.NewRegisteredMeter("gavel/relay/getpayload/delivered", nil)
	payloadsRejected      = metrics.NewRegisteredMeter("gavel/relay/getpayload/rejected", nil)
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

package relayapi

import "net/http"

// Scheduler wraps handlers in their place in the node's CPU scheduler
// (mevapi.Server does).
type Scheduler interface {
	// CriticalWork serves a handler as the slot's own work.
	CriticalWork(http.Handler) http.Handler
	// ClientWork serves a handler in a client turn.
	ClientWork(http.Handler) http.Handler
}

// Scheduled is mux with the relay's routes in their place in s:
// getHeader and getPayload are the slot's critical work, the data API's
// queries (a database read and answers of up to ~100 KB to encode) client
// work; the rest (builder submissions, registrations) take turns for
// their heavy parts inside their handlers.
func Scheduled(mux Mux, s Scheduler) Mux { return scheduledMux{mux, s} }

type scheduledMux struct {
	mux Mux
	s   Scheduler
}

// criticalRoutes and clientRoutes are the patterns the Mount functions
// mount as critical and as client work.
var (
	criticalRoutes = map[string]bool{
		"GET " + PathHeader:           true,
		"POST " + PathBlindedBlocksV1: true,
		"POST " + PathBlindedBlocksV2: true,
	}
	clientRoutes = map[string]bool{
		"GET " + PathDataPayloadDelivered:     true,
		"GET " + PathDataBuilderBlocks:        true,
		"GET " + PathDataValidatorRegistation: true,
		"GET " + PathDataBetaSlots:            true,
		"GET " + PathDataBuilderDemotions:     true,
	}
)

// Handle mounts h, as critical or client work where its pattern says so.
func (m scheduledMux) Handle(pattern string, h http.Handler) {
	switch {
	case criticalRoutes[pattern]:
		h = m.s.CriticalWork(h)
	case clientRoutes[pattern]:
		h = m.s.ClientWork(h)
	}
	m.mux.Handle(pattern, h)
}

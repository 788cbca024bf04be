package relay

import (
	"context"
	"errors"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/store"
)

// ErrNoRegistration is the data API's answer for a validator that never
// registered.
var ErrNoRegistration = errors.New("no registration found for validator")

// DataStore is what the relay's data queries read (store.Relay has it).
type DataStore interface {
	DeliveredPayloads(ctx context.Context, q store.DeliveredQuery) ([]store.DeliveredPayload, error)
	BlockSubmissions(ctx context.Context, q store.SubmissionQuery) ([]store.BlockSubmission, error)
	Registration(ctx context.Context, pubkey beacon.BLSPubkey) (*store.Registration, error)
	BetaSlots(ctx context.Context, q store.BetaSlotQuery) ([]store.BetaSlotRecord, error)
	Demotions(ctx context.Context, q store.DemotionQuery) ([]store.DemotionRecord, error)
}

// Data answers the relay data API's queries: delivered payloads, received
// bid traces and validator registrations. A failing store is an internal
// fault.
type Data struct{ st DataStore }

// NewData returns the data queries over st.
func NewData(st DataStore) *Data { return &Data{st: st} }

// DeliveredPayloads answers proposer_payload_delivered.
func (d *Data) DeliveredPayloads(ctx context.Context, q store.DeliveredQuery) ([]store.DeliveredPayload, error) {
	rows, err := d.st.DeliveredPayloads(ctx, q)
	return rows, errclass.Internal(err)
}

// BlockSubmissions answers builder_blocks_received.
func (d *Data) BlockSubmissions(ctx context.Context, q store.SubmissionQuery) ([]store.BlockSubmission, error) {
	rows, err := d.st.BlockSubmissions(ctx, q)
	return rows, errclass.Internal(err)
}

// BetaSlots answers beta_slots: what the relay read, merged and delivered
// in each beta slot.
func (d *Data) BetaSlots(ctx context.Context, q store.BetaSlotQuery) ([]store.BetaSlotRecord, error) {
	rows, err := d.st.BetaSlots(ctx, q)
	return rows, errclass.Internal(err)
}

// Demotions answers builder_demotions: the optimistic builders demoted
// for a block that failed its simulation after it was served.
func (d *Data) Demotions(ctx context.Context, q store.DemotionQuery) ([]store.DemotionRecord, error) {
	rows, err := d.st.Demotions(ctx, q)
	return rows, errclass.Internal(err)
}

// ValidatorRegistration answers validator_registration: the latest
// registration of pubkey, or ErrNoRegistration.
func (d *Data) ValidatorRegistration(ctx context.Context, pubkey beacon.BLSPubkey) (*beacon.SignedValidatorRegistration, error) {
	reg, err := d.st.Registration(ctx, pubkey)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoRegistration
	}
	if err != nil {
		return nil, errclass.Internal(err)
	}
	return &reg.SignedValidatorRegistration, nil
}

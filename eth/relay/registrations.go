package relay

import (
	"context"
	"errors"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/store"
)

// RegisterValidators processes a batch of validator registrations (POST
// /eth/v1/builder/validators) in order, as the reference relay does:
// timestamp bounds, unchanged or not-newer registrations skipped (no
// signature check, no write), known validator, then the signatures of the
// remaining ones checked in batches that fail fast.
// The first failure rejects the request; registrations before a bad
// signature are kept. Accepted registrations are committed to the store
// before it returns.
//
// The work is bounded whatever the request: at most MaxRegistrations
// entries (those the request held, see WithRegistrationCount); a pubkey sent more than once is checked once (its newest entry,
// the last one on a tie); unknown validators end the request before any
// BLS work; at most VerificationsPerRequest signatures are checked, and no
// more than the client IP's allowance (see WithClient). Entries a cap
// leaves out are answered with ErrTooManyRegistration or
// ErrRegistrationRate after the checked ones are saved, so a client that
// sends the request again makes progress.
func (r *Relay) RegisterValidators(ctx context.Context, regs []beacon.SignedValidatorRegistration) error {
	if len(regs) == 0 {
		return ErrEmptyRegistrations
	}
	if n := max(len(regs), registrationCountOf(ctx)); n > r.cfg.MaxRegistrations {
		return detail(ErrTooManyRegistration, ": %d in one request, at most %d", n, r.cfg.MaxRegistrations)
	}
	now := r.cfg.Now()
	latest := uint64(now.Add(r.cfg.RegistrationLookahead).Unix())
	fresh := make([]beacon.SignedValidatorRegistration, 0, min(len(regs), 1024))
	seen := make(map[beacon.BLSPubkey]int, min(len(regs), 1024)) // pubkey -> index in fresh
	var failure error
	for i := range regs {
		reg := &regs[i]
		if err := r.checkRegistrationTime(reg, latest); err != nil {
			failure = err
			break
		}
		if j, ok := seen[reg.Message.Pubkey]; ok {
			// Another entry of this request for the same key: the newer wins
			// (the later on a tie), checked once.
			if reg.Message.Timestamp >= fresh[j].Message.Timestamp {
				fresh[j] = *reg
			}
			continue
		}
		if r.unchangedOrStale(reg) {
			continue
		}
		if _, ok := r.validatorIndex(reg.Message.Pubkey); !ok {
			failure = detail(ErrUnknownValidator, ": %s", reg.Message.Pubkey)
			break
		}
		seen[reg.Message.Pubkey] = len(fresh)
		fresh = append(fresh, *reg)
	}
	if len(fresh) > r.cfg.VerificationsPerRequest {
		failure = detail(ErrTooManyRegistration, ": %d new registrations to verify, at most %d per request: the first %d were checked, send the rest again",
			len(fresh), r.cfg.VerificationsPerRequest, r.cfg.VerificationsPerRequest)
		fresh = fresh[:r.cfg.VerificationsPerRequest]
	}
	if granted := r.verifyRate.take(clientOf(ctx), len(fresh)); granted < len(fresh) {
		failure = errclass.Limited(detail(ErrRegistrationRate, ": %d registrations to verify, %d allowed now: retry the rest later", len(fresh), granted))
		fresh = fresh[:granted]
	}
	registrationsVerified.Mark(int64(len(fresh)))
	if err := beacon.VerifyRegistrations(r.builderDom, fresh); err != nil {
		var be *beacon.BatchError
		if !errors.As(err, &be) {
			return internal("verifying registrations", err)
		}
		failure = detail(ErrValidatorSignature, " for %s", fresh[be.Index].Message.Pubkey)
		fresh = fresh[:be.Index]
	}
	if err := r.saveRegistrations(ctx, fresh, now.UnixMilli()); err != nil {
		return err
	}
	return failure
}

type registrationCountKey struct{}

// WithRegistrationCount tells RegisterValidators how many registrations the
// request held before exact copies were left out by the decoder
// (beacon.DecodeRegistrationsSSZUnique): the per-request cap counts them.
func WithRegistrationCount(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, registrationCountKey{}, n)
}

func registrationCountOf(ctx context.Context) int {
	n, _ := ctx.Value(registrationCountKey{}).(int)
	return n
}

// checkRegistrationTime bounds a registration's timestamp: not more than
// RegistrationPreGenesis before genesis, not after latest (now plus the
// lookahead).
//
// The lower bound is a fixed point, genesis minus the window, not one that
// moves with the chain's age: validator clients (Lodestar, for one) sign
// their registration when they start, often before genesis on a new
// network, and re-send that same signed message every epoch for as long as
// they run, so a registration that is acceptable once must stay acceptable
// on every instance and after every restart. The order of registrations is
// their timestamps' whatever side of genesis they fall on, so an early one
// never displaces a newer one. What the bound still refuses is a message
// far older than the chain: one signed for an earlier network with the
// same keys and fork version, as devnets of interop keys are.
func (r *Relay) checkRegistrationTime(reg *beacon.SignedValidatorRegistration, latest uint64) error {
	if earliest := r.earliestRegistration(); reg.Message.Timestamp < earliest {
		return detail(ErrTimestampTooEarly, ": %d, expected %d or later (genesis %d less %s)",
			reg.Message.Timestamp, earliest, r.cfg.Beacon.GenesisTime, r.cfg.RegistrationPreGenesis)
	}
	if reg.Message.Timestamp > latest {
		return detail(ErrTimestampTooLate, ": %d, expected %d or earlier (now plus %s)",
			reg.Message.Timestamp, latest, r.cfg.RegistrationLookahead)
	}
	return nil
}

// earliestRegistration is the oldest registration timestamp accepted.
func (r *Relay) earliestRegistration() uint64 {
	window := uint64(r.cfg.RegistrationPreGenesis / time.Second)
	if r.cfg.Beacon.GenesisTime < window {
		return 0
	}
	return r.cfg.Beacon.GenesisTime - window
}

// unchangedOrStale reports whether reg can be skipped: same fee recipient
// and gas limit as the cached one, or a change that is not newer (replay).
func (r *Relay) unchangedOrStale(reg *beacon.SignedValidatorRegistration) bool {
	cur, ok := r.Registration(reg.Message.Pubkey)
	if !ok {
		return false
	}
	if cur.Message.FeeRecipient == reg.Message.FeeRecipient && cur.Message.GasLimit == reg.Message.GasLimit {
		return true
	}
	return reg.Message.Timestamp <= cur.Message.Timestamp
}

func (r *Relay) saveRegistrations(ctx context.Context, regs []beacon.SignedValidatorRegistration, at int64) error {
	if len(regs) == 0 {
		return nil
	}
	rows := make([]store.Registration, len(regs))
	for i := range regs {
		rows[i] = store.Registration{SignedValidatorRegistration: regs[i], ReceivedAt: at}
	}
	written, err := r.store.PutRegistrations(ctx, rows)
	if err != nil {
		return internal("saving registrations", err)
	}
	registrationsSaved.Mark(int64(written))
	r.regMu.Lock()
	defer r.regMu.Unlock()
	for i := range regs {
		reg := regs[i]
		if cur, ok := r.regs[reg.Message.Pubkey]; ok && cur.Message.Timestamp >= reg.Message.Timestamp {
			continue
		}
		r.regs[reg.Message.Pubkey] = &reg
	}
	return nil
}

package relay_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
)

// repeat is n copies of reg.
func repeat(reg beacon.SignedValidatorRegistration, n int) []beacon.SignedValidatorRegistration {
	out := make([]beacon.SignedValidatorRegistration, n)
	for i := range out {
		out[i] = reg
	}
	return out
}

// TestRegistrationBomb is finding 4: one request of 60,000 copies of one
// key's registration (the attack carried 90,000, 63 CPU-seconds each) costs
// one BLS check, whether its signature is good or bad; more than the
// per-request cap is refused before any check.
func TestRegistrationBomb(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	ctx := context.Background()
	v0, g := e.Validators[0], e.Beacon.GenesisTime

	before := relay.RegistrationsVerified()
	if err := e.Relay.RegisterValidators(ctx, repeat(e.Registration(v0, 11, g), 60_000)); err != nil {
		t.Fatal(err)
	}
	if n := relay.RegistrationsVerified() - before; n != 1 {
		t.Fatalf("60,000 copies of one good registration: %d signatures checked, want 1", n)
	}
	if r, _ := e.Relay.Registration(v0.Key.PublicKey()); r.Message.GasLimit != 11 {
		t.Fatal("the registration was not saved")
	}

	bad := e.Registration(v0, 12, g+1)
	bad.Message.GasLimit = 13 // the signature no longer matches
	before = relay.RegistrationsVerified()
	err := e.Relay.RegisterValidators(ctx, repeat(bad, 60_000))
	if !errors.Is(err, relay.ErrValidatorSignature) {
		t.Fatalf("60,000 copies of a bad registration: %v", err)
	}
	if n := relay.RegistrationsVerified() - before; n != 1 {
		t.Fatalf("60,000 copies of one bad registration: %d signatures checked, want 1", n)
	}

	before = relay.RegistrationsVerified()
	err = e.Relay.RegisterValidators(ctx, repeat(bad, relay.DefaultMaxRegistrations+1))
	if !errors.Is(err, relay.ErrTooManyRegistration) || relay.RegistrationsVerified() != before {
		t.Fatalf("over the per-request cap: %v", err)
	}

	// The cap counts what the request held before its decoder left out
	// exact copies (relay.WithRegistrationCount).
	before = relay.RegistrationsVerified()
	err = e.Relay.RegisterValidators(relay.WithRegistrationCount(ctx, relay.DefaultMaxRegistrations+1), []beacon.SignedValidatorRegistration{bad})
	if !errors.Is(err, relay.ErrTooManyRegistration) || relay.RegistrationsVerified() != before {
		t.Fatalf("copies over the per-request cap: %v", err)
	}

	// Within one request the newest entry of a key wins, whatever the order.
	newer, older := e.Registration(v0, 21, g+5), e.Registration(v0, 20, g+4)
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{newer, older}); err != nil {
		t.Fatal(err)
	}
	if r, _ := e.Relay.Registration(v0.Key.PublicKey()); r.Message.GasLimit != 21 {
		t.Fatalf("gas limit %d, want the newest entry's 21", r.Message.GasLimit)
	}
}

// TestRegistrationVerificationCaps: signatures to check beyond the
// per-request cap and beyond the client's allowance are answered with
// their errors after the checked ones are saved; another client is not
// affected; sending again makes progress.
func TestRegistrationVerificationCaps(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) {
		c.VerificationsPerRequest = 8
		c.VerificationsPerSecond = 1e-9 // no refill within the test
	}})
	var vals []relaytest.Validator
	known := map[uint64]beacon.BLSPubkey{}
	for i := 0; i < 20; i++ {
		k, _ := beacon.DeriveSecretKey([]byte(strings.Repeat("k", 32) + string(rune('a'+i))))
		v := relaytest.Validator{Index: uint64(100 + i), Key: k}
		vals = append(vals, v)
		known[v.Index] = k.PublicKey()
	}
	e.Relay.SetKnownValidators(known)
	regs := make([]beacon.SignedValidatorRegistration, len(vals))
	for i, v := range vals {
		regs[i] = e.Registration(v, 30, e.Beacon.GenesisTime)
	}
	a := relay.WithClient(context.Background(), "192.0.2.1")
	err := e.Relay.RegisterValidators(a, regs)
	if !errors.Is(err, relay.ErrTooManyRegistration) || !strings.Contains(err.Error(), "20 new registrations to verify, at most 8 per request") {
		t.Fatalf("over the per-request cap: %v", err)
	}
	saved := func() (n int) {
		for _, v := range vals {
			if _, ok := e.Relay.Registration(v.Key.PublicKey()); ok {
				n++
			}
		}
		return n
	}
	if saved() != 8 {
		t.Fatalf("%d saved, want the first 8", saved())
	}
	// Same client: its allowance (8) is spent.
	err = e.Relay.RegisterValidators(a, regs)
	if !errors.Is(err, relay.ErrRegistrationRate) || saved() != 8 {
		t.Fatalf("client over its allowance: %v, %d saved", err, saved())
	}
	// Another client makes progress; the saved ones are skipped.
	b := relay.WithClient(context.Background(), "192.0.2.2")
	if err := e.Relay.RegisterValidators(b, regs); !errors.Is(err, relay.ErrTooManyRegistration) || saved() != 16 {
		t.Fatalf("second client: %v, %d saved", err, saved())
	}
}

// TestRegistrationsBeforeGenesis: a chain that has just started accepts the
// registrations validator clients signed before genesis and re-send every
// epoch (Lodestar signs when it starts, often before genesis on a devnet);
// the newest timestamp still wins on either side of genesis; older than
// the pre-genesis window and from the future are still refused, with what
// was expected.
func TestRegistrationsBeforeGenesis(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{}) // the clock at slot 1: the chain has just started
	ctx := context.Background()
	v0, v1, v2 := e.Validators[0], e.Validators[1], e.Validators[2]
	g := e.Beacon.GenesisTime
	now := uint64(e.Clock.Now().Unix())
	gas := func(v relaytest.Validator) uint64 {
		t.Helper()
		r, ok := e.Relay.Registration(v.Key.PublicKey())
		if !ok {
			t.Fatalf("validator %d: no registration", v.Index)
		}
		return r.Message.GasLimit
	}

	// Signed 20 s before genesis (a devnet tool's genesis delay), sent at
	// start and then every epoch: stored, the copies skipped.
	early := e.Registration(v0, 30, g-20)
	for epoch := 0; epoch < 3; epoch++ {
		if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{early}); err != nil {
			t.Fatalf("epoch %d: a registration signed 20 s before genesis: %v", epoch, err)
		}
	}
	if gas(v0) != 30 {
		t.Fatalf("gas limit %d, want the pre-genesis registration's 30", gas(v0))
	}
	if _, err := e.Store.Registration(ctx, v0.Key.PublicKey()); err != nil {
		t.Fatalf("the pre-genesis registration is not in the store: %v", err)
	}

	// Newest wins across genesis: a newer one replaces it, and the
	// pre-genesis message sent again does not come back.
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 31, g+1)}); err != nil {
		t.Fatal(err)
	}
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{early}); err != nil {
		t.Fatal(err)
	}
	if gas(v0) != 31 {
		t.Fatalf("gas limit %d, want the newest registration's 31", gas(v0))
	}
	// Before genesis too: the later of two pre-genesis messages wins.
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v1, 41, g-10), e.Registration(v1, 40, g-50)}); err != nil {
		t.Fatal(err)
	}
	if gas(v1) != 41 {
		t.Fatalf("gas limit %d, want the later pre-genesis registration's 41", gas(v1))
	}

	// The window's edge: exactly RegistrationPreGenesis before genesis is
	// accepted, one second more is refused.
	window := uint64(relay.DefaultRegistrationPreGenesis / time.Second)
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v2, 50, g-window)}); err != nil {
		t.Fatalf("at the window's edge: %v", err)
	}
	err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v2, 51, g-window-1)})
	want := fmt.Sprintf("timestamp too early: %d, expected %d or later (genesis %d less 24h0m0s)", g-window-1, g-window, g)
	if !errors.Is(err, relay.ErrTimestampTooEarly) || err.Error() != want {
		t.Fatalf("one second past the window: %v, want %q", err, want)
	}
	// From the future: still refused.
	err = e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v2, 52, now+11)})
	want = fmt.Sprintf("timestamp too far in the future: %d, expected %d or earlier (now plus 10s)", now+11, now+10)
	if !errors.Is(err, relay.ErrTimestampTooLate) || err.Error() != want {
		t.Fatalf("from the future: %v, want %q", err, want)
	}
	if gas(v2) != 50 {
		t.Fatalf("gas limit %d after refused registrations, want 50", gas(v2))
	}
}

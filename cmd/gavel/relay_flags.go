package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
)

// The relay's flags.
var (
	relaySecretKeyFlag = &cli.StringFlag{
		Name:     "relay.secretkey",
		Usage:    "BLS secret key of the relay, 32 bytes hex: it signs every bid getHeader serves. Required on real networks; --dev uses a fixed dev key when unset",
		Category: "RELAY",
	}
	relayBeaconFlag = &cli.StringSliceFlag{
		Name:     "relay.beacon",
		Usage:    "Beacon node API URL(s), comma-separated, that feed the relay duties, validators, head and payload attributes on real networks",
		Category: "RELAY",
	}
	relayNoCancellationsFlag = &cli.BoolFlag{
		Name:     "relay.nocancellations",
		Usage:    "Refuse block submissions sent with ?cancellations=1 (400 \"cancellations are disabled\")",
		Category: "RELAY",
	}
	relayMaxSubmissionFlag = &cli.Int64Flag{
		Name:     "relay.maxsubmission",
		Usage:    "Largest block submission the relay decodes, in bytes after gzip decoding (a gzip bomb is cut off here)",
		Value:    15 << 20,
		Category: "RELAY",
	}
	relaySpecFlag = &cli.StringSliceFlag{
		Name:     "relay.spec",
		Usage:    "Override the beacon node's chain constants, KEY=VALUE[,KEY=VALUE], keys as in /eth/v1/config/spec (SECONDS_PER_SLOT, SLOTS_PER_EPOCH, GENESIS_FORK_VERSION, CAPELLA_FORK_VERSION, CAPELLA_FORK_EPOCH, ...) plus GENESIS_TIME and GENESIS_VALIDATORS_ROOT",
		Category: "RELAY",
	}
	relayHeaderWaitFlag = &cli.DurationFlag{
		Name: "relay.headerwait",
		Usage: "Longest time getHeader waits for the bid of a block the in-process builder (--builder) is still building for the asked slot and parent, " +
			"instead of answering 204 at once; without such a build it never waits. Keep it well below mev-boost's 950 ms getHeader timeout; 0 never waits",
		Value:    relay.DefaultHeaderWait,
		Category: "RELAY",
	}
	relayBodyWaitFlag = &cli.DurationFlag{
		Name: "relay.bodywait",
		Usage: "Longest time getPayload waits for the block of a header-first bid (POST /relay/v1/builder/headers) whose builder has not sent it yet; " +
			"past it the builder is demoted and owes the proposer the bid's value",
		Value:    relay.DefaultBodyWait,
		Category: "RELAY",
	}
	relayPageFlag = &cli.BoolFlag{
		Name: "relay.page",
		Usage: "Serve the relay's status page at GET / on the MEV listener: network, relay pubkey and connect URL, recent deliveries, builders, " +
			"the beta market (HTML built from memory once a second); with --relay.page=false GET / is not served",
		Value:    true,
		Category: "RELAY",
	}
	relaySteerFlag = &cli.BoolFlag{
		Name: "relay.steer",
		Usage: "Start a known builder's signature verification on another core at once: for the moment its goroutine takes to start (about 0.2 ms), " +
			"the process's other threads may not run on the submission handler's CPU (Linux, two CPUs or more; their CPU affinity is put back after). " +
			"With --relay.steer=false it is an ordinary goroutine, which on some virtual machines starts only a millisecond or two later",
		Value:    true,
		Category: "RELAY",
	}
	devValidatorsFlag = &cli.IntFlag{
		Name:     "dev.validators",
		Usage:    "Number of dev validators (deterministic BLS keys, distinct fee recipients) that register with the relay and propose in turn",
		Value:    devbeacon.DefaultValidators,
		Category: "DEVELOPER CHAIN",
	}
)

// relayFlags are the relay's flags.
var relayFlags = []cli.Flag{relaySecretKeyFlag, relayBeaconFlag, relaySpecFlag, relayNoCancellationsFlag, relayMaxSubmissionFlag, relayHeaderWaitFlag, relayBodyWaitFlag, relayPageFlag, relaySteerFlag, devValidatorsFlag}

// applyRelayFlags applies the relay's flags over the file's settings.
func applyRelayFlags(ctx *cli.Context, cfg *gavelConfig) error {
	r := &cfg.Mev.Relay
	setIfGiven(ctx, relaySecretKeyFlag.Name, ctx.String, &r.SecretKey)
	setIfGiven(ctx, relayBeaconFlag.Name, ctx.StringSlice, &r.Beacon)
	if ctx.IsSet(relaySpecFlag.Name) {
		r.Spec = map[string]string{}
		for _, kv := range ctx.StringSlice(relaySpecFlag.Name) {
			k, v, ok := strings.Cut(kv, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" || strings.ToUpper(k) != k {
				return fmt.Errorf("%w: --relay.spec %q: expected KEY=VALUE with an upper-case key as in /eth/v1/config/spec, e.g. SECONDS_PER_SLOT=12", errUsage, kv)
			}
			r.Spec[k] = v
		}
	}
	setIfGiven(ctx, relayNoCancellationsFlag.Name, ctx.Bool, &r.CancellationsDisabled)
	if ctx.IsSet(relayPageFlag.Name) {
		r.PageDisabled = !ctx.Bool(relayPageFlag.Name)
	}
	if ctx.IsSet(relaySteerFlag.Name) {
		r.SteerDisabled = !ctx.Bool(relaySteerFlag.Name)
	}
	if ctx.IsSet(relayHeaderWaitFlag.Name) {
		switch d := ctx.Duration(relayHeaderWaitFlag.Name); {
		case d < 0:
			return fmt.Errorf("%w: --relay.headerwait must be 0 (never wait) or positive: got %s", errUsage, d)
		case d == 0:
			r.HeaderWait = -1
		default:
			r.HeaderWait = d
		}
	}
	if ctx.IsSet(relayBodyWaitFlag.Name) {
		d := ctx.Duration(relayBodyWaitFlag.Name)
		if d <= 0 {
			return fmt.Errorf("%w: --relay.bodywait must be positive: got %s", errUsage, d)
		}
		r.BodyWait = d
	}
	fillFromFlag(ctx, relayMaxSubmissionFlag.Name, &r.MaxSubmissionBytes)
	if err := checkPositive(relayMaxSubmissionFlag.Name, r.MaxSubmissionBytes); err != nil {
		return err
	}
	fillFromFlag(ctx, devValidatorsFlag.Name, &r.DevValidators)
	if r.DevValidators < 1 || r.DevValidators > 1<<16 {
		return fmt.Errorf("%w: --dev.validators must be 1..65536: got %d", errUsage, r.DevValidators)
	}
	return nil
}

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
)

// Flags of public submission ([Mev.Submission]).
var (
	mevAuthFlag = &cli.StringFlag{
		Name:     "mev.auth",
		Usage:    "Request signatures on the MEV listener's JSON-RPC: \"optional\" (checked when present, a bad one is 401) or \"required\" (unsigned requests get 401). /v1/auction always requires one",
		Value:    string(jsonrpc.AuthOptional),
		Category: "MEV LISTENER",
	}
	mevRPCBodyFlag = &cli.Int64Flag{
		Name:     "mev.rpc.maxbody",
		Usage:    "Largest JSON-RPC request body on the MEV listener, in bytes (larger bodies get 413)",
		Value:    jsonrpc.DefaultConfig.BodyLimit,
		Category: "MEV LISTENER",
	}
	mevIPRateFlag = &cli.Float64Flag{
		Name:     "mev.ratelimit.ip",
		Usage:    "JSON-RPC requests per second allowed per client IP on the MEV listener, bursts of the same size (0 = no limit; over the limit: 429)",
		Category: "MEV LISTENER",
	}
	mevSignerRateFlag = &cli.Float64Flag{
		Name:     "mev.ratelimit.signer",
		Usage:    "JSON-RPC requests per second allowed per request signer on the MEV listener (0 = no limit; over the limit: 429)",
		Category: "MEV LISTENER",
	}
	betaHorizonFlag = &cli.Uint64Flag{
		Name:     "beta.horizon",
		Usage:    "How many slots ahead of the current slot a beta bundle may target",
		Value:    betapool.DefaultConfig.Horizon,
		Category: "BETA BUNDLES",
	}
)

var submissionFlags = []cli.Flag{mevAuthFlag, mevRPCBodyFlag, mevIPRateFlag, mevSignerRateFlag, betaHorizonFlag}

// applySubmissionFlags applies the submission flags over [Mev.Submission].
func applySubmissionFlags(ctx *cli.Context, cfg *gavelConfig) error {
	s := &cfg.Mev.Submission
	if ctx.IsSet(mevAuthFlag.Name) {
		switch mode := jsonrpc.AuthMode(ctx.String(mevAuthFlag.Name)); mode {
		case jsonrpc.AuthOptional, jsonrpc.AuthRequired:
			s.RPC.Auth = mode
		default:
			return fmt.Errorf("%w: --mev.auth must be %q or %q: got %q", errUsage, jsonrpc.AuthOptional, jsonrpc.AuthRequired, mode)
		}
	}
	if err := setPositiveIfGiven(ctx, mevRPCBodyFlag.Name, ctx.Int64, &s.RPC.BodyLimit); err != nil {
		return err
	}
	for _, f := range []struct {
		flag *cli.Float64Flag
		dst  *float64
	}{{mevIPRateFlag, &s.RPC.IPRate}, {mevSignerRateFlag, &s.RPC.SignerRate}} {
		if ctx.IsSet(f.flag.Name) {
			v := ctx.Float64(f.flag.Name)
			if v < 0 {
				return fmt.Errorf("%w: --%s must be 0 (off) or positive: got %v", errUsage, f.flag.Name, v)
			}
			*f.dst = v
		}
	}
	if ctx.IsSet(betaHorizonFlag.Name) {
		v := ctx.Uint64(betaHorizonFlag.Name)
		if v == 0 {
			return fmt.Errorf("%w: --beta.horizon must be at least 1", errUsage)
		}
		s.Beta.Horizon = v
	}
	return nil
}

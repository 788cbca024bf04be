package main

import (
	"cmp"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/internal/sched"
)

// Flags of the CPU scheduler ([Mev.Sched]): client work (simulation, geth's
// eth_call / eth_estimateGas / debug_trace*, the data API, large bodies)
// takes turns in it, behind the node's own slot work.
var (
	schedTurnsFlag = &cli.IntFlag{
		Name:     "sched.turns",
		Usage:    "Client requests doing CPU-heavy work at once (simulation, eth_call, traces, data API); 0 = one less than the cores, at least 1, so a core stays free for the node's slot work",
		Category: "SCHEDULER",
	}
	schedWaitFlag = &cli.DurationFlag{
		Name:     "sched.wait",
		Usage:    "Longest a client request waits for a CPU turn before it is answered \"server busy, retry later\" (HTTP 503, JSON-RPC -32005)",
		Value:    sched.DefaultWait,
		Category: "SCHEDULER",
	}
	schedTurnFlag = &cli.DurationFlag{
		Name:     "sched.turn",
		Usage:    "Longest one client request may compute in its turn (an eth_call, a trace, a bundle simulation); it is stopped with an error then",
		Value:    sched.DefaultTurn,
		Category: "SCHEDULER",
	}
	schedShareFlag = &cli.Float64Flag{
		Name:     "sched.share",
		Usage:    "Most of one CPU turn's time one client address holds on average (0.5: half a core); past it, and a short burst, its next request waits, costing no CPU; known builders' submissions are not held back; 0 = no bound",
		Value:    sched.DefaultShare,
		Category: "SCHEDULER",
	}
)

var schedFlags = []cli.Flag{schedTurnsFlag, schedWaitFlag, schedTurnFlag, schedShareFlag}

// applySchedFlags applies the scheduler flags over [Mev.Sched].
func applySchedFlags(ctx *cli.Context, cfg *gavelConfig) error {
	s := &cfg.Mev.Sched
	setIfGiven(ctx, schedTurnsFlag.Name, ctx.Int, &s.Turns)
	return cmp.Or( // the first refusal, in flag order
		setPositiveIfGiven(ctx, schedWaitFlag.Name, ctx.Duration, &s.Wait),
		setPositiveIfGiven(ctx, schedTurnFlag.Name, ctx.Duration, &s.Turn),
		setShareIfGiven(ctx, &s.Share),
	)
}

// setShareIfGiven sets the share from --sched.share: a fraction of one turn,
// 0 for no bound.
func setShareIfGiven(ctx *cli.Context, dst *float64) error {
	if !ctx.IsSet(schedShareFlag.Name) {
		return nil
	}
	v := ctx.Float64(schedShareFlag.Name)
	if v < 0 {
		return fmt.Errorf("--%s %v: expected a fraction of one CPU turn such as 0.5, or 0 for no bound", schedShareFlag.Name, v)
	}
	*dst = v
	return nil
}

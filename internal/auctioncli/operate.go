package auctioncli

import (
	"context"
	"errors"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/params"
)

const (
	flagRelay          = "relay"
	flagGenesisTime    = "genesis-time"
	flagSecondsPerSlot = "seconds-per-slot"
	flagLead           = "lead"
	flagSettleLead     = "settle-lead"
	flagGrace          = "grace"
	flagConfirmations  = "confirmations"
)

// DefaultConfirmations is how many slots after a slot operate waits before
// judging its L1 block: a block one or two slots deep is rarely reorganised
// on Ethereum, and a refund or payout cannot be taken back.
const DefaultConfirmations = 2

// ErrNoClock is returned when operate cannot learn the L1 slot clock.
var ErrNoClock = errors.New("L1 slot clock unknown: pass --l1rpc <a gavel node: a dev node, or one whose relay follows a beacon node> (it answers mev_nodeInfo) or --genesis-time and --seconds-per-slot")

func operateCommand(with func(...cli.Flag) []cli.Flag) *cli.Command {
	return &cli.Command{
		Name:  "operate",
		Usage: "Run the operator loop: open, settle, pay out and refund every slot's auction (operator; runs until interrupted)",
		Description: "For each upcoming L1 slot S the loop opens S's auction when slot S-lead is over, selling --gas\n" +
			"gas; settles it (runAndSettle) when slot S-settle-lead is over, so winners can pay their bundle\n" +
			"hashes before S; and once slot S+confirmations is over judges S's canonical L1 block: it pays the\n" +
			"proceeds out to the Accountant when the block honoured what was paid, or refunds the winners\n" +
			"when the slot was missed or its block did not come through the beta merge (the rules are in\n" +
			"docs/beta-rules.md). It reads the contract state on every slot, so it can be stopped and restarted at\n" +
			"any time.\n\n" +
			"The L1 slot clock and the relay come from the L1 node's mev_nodeInfo (--l1rpc, default\n" +
			"--l2rpc: a `gavel --dev` that is its own L2), or from --genesis-time, --seconds-per-slot and\n" +
			"--relay. Stop it with Ctrl-C (SIGINT) or SIGTERM. See docs/auction.md and docs/beta.md.",
		Flags: with(
			&cli.StringFlag{Name: flagL1RPC, EnvVars: []string{"GAVEL_L1RPC"}, Usage: "JSON-RPC URL of the L1 gavel node, for its slot clock and relay (default: --l2rpc)"},
			&cli.StringFlag{Name: flagRelay, Usage: "relay base URL whose data API tells delivered slots (default: the L1 node's MEV listener)"},
			&cli.Uint64Flag{Name: flagGenesisTime, Usage: "L1 genesis time, unix seconds (overrides the L1 node's)"},
			&cli.Uint64Flag{Name: flagSecondsPerSlot, Usage: "L1 slot time in seconds (overrides the L1 node's)"},
			&cli.Uint64Flag{Name: flagGas, Value: operator.DefaultGas, Usage: "beta gas sold per slot"},
			&cli.Uint64Flag{Name: flagLead, Value: operator.DefaultLead, Usage: "open slot S's auction when slot S-lead is over"},
			&cli.Uint64Flag{Name: flagSettleLead, Value: operator.DefaultSettleLead, Usage: "settle slot S's auction when slot S-settle-lead is over (below --lead)"},
			&cli.Uint64Flag{Name: flagConfirmations, Value: DefaultConfirmations, Usage: "judge slot S (pay out or refund) once slot S+N is over, so that its L1 block is final enough"},
			&cli.Uint64Flag{Name: flagGrace, Value: operator.DefaultGrace, Usage: "refund a slot whose outcome is still unknown this many slots after it could be judged"},
		),
		Action: runOperate,
	}
}

// nodeInfo is the part of mev_nodeInfo operate reads.
type nodeInfo struct {
	MEVListener string `json:"mevListener"`
	ChainID     uint64 `json:"chainId"`
	SlotSeconds uint64 `json:"slotSeconds"`
	GenesisTime uint64 `json:"genesisTime"`
}

func runOperate(c *cli.Context) error {
	cfg := operator.Config{
		Gas: c.Uint64(flagGas), Lead: c.Uint64(flagLead), SettleLead: c.Uint64(flagSettleLead), Grace: c.Uint64(flagGrace),
		Confirmations: c.Uint64(flagConfirmations),
	}
	if err := cfg.Check(); err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	e, err := setup(c, true, false)
	if err != nil {
		return err
	}
	defer e.close()

	// The signer must be the Auctioneer's operator, or every call reverts.
	op, err := e.client.Operator(e.ctx)
	if err != nil {
		return fmt.Errorf("reading the Auctioneer's operator at %s: %w", e.client.Addresses().Auctioneer, err)
	}
	if op != e.client.From() {
		return fmt.Errorf("%w: the key's account %s is not the Auctioneer's operator %s", ErrUsage, e.client.From(), op)
	}

	clock, relayURL, l1, err := l1Clock(c, e)
	if err != nil {
		return err
	}
	if l1 != nil {
		defer l1.Close()
	}
	loop, err := operator.New(e.client, operator.RelayDeliveries{L1: l1, Clock: clock, URL: relayURL}, cfg)
	if err != nil {
		return err
	}
	// Every transition is logged (INFO lines on stderr), as a node logs.
	log.SetDefault(log.NewLogger(log.NewTerminalHandlerWithLevel(c.App.ErrWriter, log.LevelInfo, false)))
	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	e.printf("operating the auction at %s on %s as %s: %d gas per slot, open %d slots ahead, settle %d slots ahead\n",
		e.client.Addresses().Auctioneer, c.String(flagL2RPC), e.client.From(), cfg.Gas, cfg.Lead, cfg.SettleLead)
	from := "the relay data API at " + relayURL + " (delivered and canonical)"
	if l1 != nil {
		from = "the canonical L1 chain and the L1 node's mev_deliveredBeta (else the relay data API at " + relayURL + ")"
	}
	e.printf("L1 slot clock: slot 0 at %d, %ds per slot (now slot %d); deliveries from %s\n",
		clock.GenesisTime, clock.SecondsPerSlot, clock.Now(), from)
	if err := loop.Run(ctx, clock); !errors.Is(err, context.Canceled) {
		return err
	}
	e.printf("stopped\n")
	return nil
}

// l1Clock returns the L1 slot clock, the relay URL and the L1 node's
// JSON-RPC client (nil when the flags give everything), from the flags or
// the L1 node's mev_nodeInfo.
func l1Clock(c *cli.Context, e *env) (params.SlotClock, string, *rpc.Client, error) {
	clock := params.SlotClock{GenesisTime: c.Uint64(flagGenesisTime), SecondsPerSlot: c.Uint64(flagSecondsPerSlot)}
	relayURL := c.String(flagRelay)
	if c.IsSet(flagGenesisTime) && c.IsSet(flagSecondsPerSlot) && relayURL != "" && !c.IsSet(flagL1RPC) {
		return clock, relayURL, nil, nil
	}
	l1 := c.String(flagL1RPC)
	if l1 == "" {
		l1 = c.String(flagL2RPC)
	}
	rc, err := rpc.DialContext(e.ctx, l1)
	if err != nil {
		return clock, "", nil, fmt.Errorf("connecting to the L1 node %s: %w", l1, err)
	}
	var ni nodeInfo
	if err := rc.CallContext(e.ctx, &ni, "mev_nodeInfo"); err != nil {
		rc.Close()
		return clock, "", nil, fmt.Errorf("%w (mev_nodeInfo at %s: %v)", ErrNoClock, l1, err)
	}
	if !c.IsSet(flagGenesisTime) {
		clock.GenesisTime = ni.GenesisTime
	}
	if !c.IsSet(flagSecondsPerSlot) {
		clock.SecondsPerSlot = ni.SlotSeconds
	}
	if clock.SecondsPerSlot == 0 {
		rc.Close()
		return clock, "", nil, fmt.Errorf("%w (the node at %s reports no slot clock: not a dev node, and its relay has no beacon node's constants yet)", ErrNoClock, l1)
	}
	if relayURL == "" {
		relayURL = ni.MEVListener
	}
	if relayURL == "" {
		rc.Close()
		return clock, "", nil, fmt.Errorf("%w: no relay: pass --relay <relay base URL>", ErrUsage)
	}
	return clock, relayURL, rc, nil
}

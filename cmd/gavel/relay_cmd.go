package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

var relayCommand = &cli.Command{
	Name:  "relay",
	Usage: "Tools for relay users",
	Subcommands: []*cli.Command{{
		Name:  "sample-submission",
		Usage: "Print a valid builder submission (JSON) for the next slot of a running `gavel --dev`, to POST to /relay/v1/builder/blocks",
		Description: "The dev node builds a block for the slot after its head, pays the slot's dev proposer and signs\n" +
			"the bid with a sample builder key (mev_devSampleSubmission). It must be posted before that slot\n" +
			"is delivered, so the command first waits for a new block (a whole slot of time to post it).\n" +
			"See docs/relay-builders.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rpc", Value: "http://127.0.0.1:8545", EnvVars: []string{"GAVEL_RPC"}, Usage: "the dev node's JSON-RPC"},
			&cli.StringFlag{Name: "out", Usage: "write to this file instead of standard output"},
			&cli.BoolFlag{Name: "no-wait", Usage: "do not wait for a new block first"},
		},
		Action: runSampleSubmission,
	}, builderStatusCommand},
}

func runSampleSubmission(ctx *cli.Context) error {
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := ctx.String("rpc")
	client, err := rpc.DialContext(cctx, url)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", url, err)
	}
	defer client.Close()
	if !ctx.Bool("no-wait") {
		if err := waitNewBlock(cctx, client); err != nil {
			return err
		}
	}
	var sub json.RawMessage
	if err := client.CallContext(cctx, &sub, "mev_devSampleSubmission"); err != nil {
		return fmt.Errorf("mev_devSampleSubmission at %s (a `gavel --dev` node with its relay): %w", url, err)
	}
	sub = append(sub, '\n')
	if out := ctx.String("out"); out != "" {
		return os.WriteFile(out, sub, 0o644)
	}
	_, err = ctx.App.Writer.Write(sub)
	return err
}

// waitNewBlock returns as soon as the head moves past the one it first sees.
func waitNewBlock(ctx context.Context, client *rpc.Client) error {
	var first, now hexutil.Uint64
	if err := client.CallContext(ctx, &first, "eth_blockNumber"); err != nil {
		return fmt.Errorf("reading the head: %w", err)
	}
	for now = first; now == first; {
		select {
		case <-ctx.Done():
			return fmt.Errorf("no new block while waiting (--no-wait skips the wait): %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
		if err := client.CallContext(ctx, &now, "eth_blockNumber"); err != nil {
			return fmt.Errorf("reading the head: %w", err)
		}
	}
	return nil
}

// builderDBFlags name the relay's database, as the node's --datadir or
// --store.url does.
var builderDBFlags = []cli.Flag{
	&cli.StringFlag{Name: "datadir", Usage: "the relay node's data directory (SQLite database in <datadir>/gavel/gavel.db)"},
	&cli.StringFlag{Name: "store.url", Usage: "the relay's PostgreSQL database (postgres://...), shared by its instances"},
}

var builderStatusCommand = &cli.Command{
	Name:  "builders",
	Usage: "Show or set the operator's builder statuses (high-priority, blocked) in the relay's database",
	Description: "A high-priority builder's submissions, once their signature verified, may use the share of the\n" +
		"body budget kept for builders the relay knows, even before it has an accepted bid (a new builder the\n" +
		"operator vouches for); a blocked builder's submissions are refused from their first bytes. The status\n" +
		"is kept in the database: every relay instance on it reads it at its next head slot, and a restart keeps\n" +
		"it. The node may be running (SQLite allows a second writer). See docs/relay-builders.md (Builder statuses).",
	Subcommands: []*cli.Command{{
		Name:      "list",
		Usage:     "List the builders with a status",
		Flags:     builderDBFlags,
		Action:    runBuildersList,
		ArgsUsage: " ",
	}, {
		Name:      "set",
		Usage:     "Set a builder's status",
		ArgsUsage: "<builder pubkey>",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "status", Required: true, Usage: store.BuilderHighPriority + " or " + store.BuilderBlocked},
			&cli.StringFlag{Name: "note", Usage: "free text kept with the status (who asked, why)"},
		}, builderDBFlags...),
		Action: runBuildersSet,
	}, {
		Name:      "clear",
		Usage:     "Remove a builder's status",
		ArgsUsage: "<builder pubkey>",
		Flags:     builderDBFlags,
		Action:    runBuildersClear,
	}},
}

// openRelayStore opens the database --datadir or --store.url names.
func openRelayStore(ctx *cli.Context) (store.Store, error) {
	dir, url := ctx.String("datadir"), ctx.String("store.url")
	switch {
	case url != "" && dir != "":
		return nil, fmt.Errorf("%w: give --datadir or --store.url, not both", errUsage)
	case url != "":
		if !store.IsPostgresURL(url) {
			return nil, fmt.Errorf("%w: --store.url %q: expected postgres://user:password@host:port/database", errUsage, url)
		}
		return store.Open(store.Config{URL: url, Postgres: store.PostgresConfig{MaxConns: 2, MaxIdleConns: 1}})
	case dir != "":
		return store.Open(store.Config{Path: store.Path(dir)})
	}
	return nil, fmt.Errorf("%w: name the relay's database with --datadir (SQLite) or --store.url (PostgreSQL); a --dev node without --datadir keeps it in a temporary file no other process can reach", errUsage)
}

// withRelayStore runs f on the database --datadir or --store.url names,
// with 30 s for its reads and writes, and closes it.
func withRelayStore(ctx *cli.Context, f func(context.Context, store.Store) error) error {
	st, err := openRelayStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return f(cctx, st)
}

// builderArg parses the command's one argument, a builder public key.
func builderArg(ctx *cli.Context) (beacon.BLSPubkey, error) {
	var pk beacon.BLSPubkey
	if ctx.NArg() != 1 {
		return pk, fmt.Errorf("%w: expected one argument, the builder's BLS public key (0x and 96 hex digits)", errUsage)
	}
	if err := pk.UnmarshalText([]byte(ctx.Args().First())); err != nil {
		return pk, fmt.Errorf("%w: builder pubkey %q: %v (expected 0x and 96 hex digits)", errUsage, ctx.Args().First(), err)
	}
	return pk, nil
}

func runBuildersList(ctx *cli.Context) error {
	return withRelayStore(ctx, func(cctx context.Context, st store.Store) error {
		n := 0
		err := st.BuilderStatuses(cctx, func(b *store.BuilderStatus) error {
			n++
			_, err := fmt.Fprintf(ctx.App.Writer, "%s %s %s %q\n", b.Pubkey, b.Status, time.UnixMilli(b.UpdatedAt).UTC().Format(time.RFC3339), b.Note)
			return err
		})
		if err == nil && n == 0 {
			fmt.Fprintln(ctx.App.Writer, "no builder has a status")
		}
		return err
	})
}

func runBuildersSet(ctx *cli.Context) error {
	pk, err := builderArg(ctx)
	if err != nil {
		return err
	}
	status := ctx.String("status")
	if status != store.BuilderHighPriority && status != store.BuilderBlocked {
		return fmt.Errorf("%w: --status %q: expected %s or %s", errUsage, status, store.BuilderHighPriority, store.BuilderBlocked)
	}
	return withRelayStore(ctx, func(cctx context.Context, st store.Store) error {
		if err := st.SetBuilderStatus(cctx, store.BuilderStatus{Pubkey: pk, Status: status, Note: ctx.String("note"), UpdatedAt: time.Now().UnixMilli()}); err != nil {
			return err
		}
		fmt.Fprintf(ctx.App.Writer, "%s is %s (relays read it at their next head slot)\n", pk, status)
		return nil
	})
}

func runBuildersClear(ctx *cli.Context) error {
	pk, err := builderArg(ctx)
	if err != nil {
		return err
	}
	return withRelayStore(ctx, func(cctx context.Context, st store.Store) error {
		found, err := st.ClearBuilderStatus(cctx, pk)
		switch {
		case err != nil:
			return err
		case !found:
			fmt.Fprintf(ctx.App.Writer, "%s had no status\n", pk)
		default:
			fmt.Fprintf(ctx.App.Writer, "%s has no status now (relays read it at their next head slot)\n", pk)
		}
		return nil
	})
}

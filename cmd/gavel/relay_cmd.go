package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
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
	Usage: "Show or set the operator's builder statuses (high-priority, blocked, optimistic) in the relay's database",
	Description: "A high-priority builder's submissions, once their signature verified, may use the share of the\n" +
		"body budget kept for builders the relay knows, even before it has an accepted bid (a new builder the\n" +
		"operator vouches for); a blocked builder's submissions are refused from their first bytes. The status\n" +
		"is kept in the database: every relay instance on it reads it at its next head slot, and a restart keeps\n" +
		"it. The node may be running (SQLite allows a second writer). An optimistic builder's bids worth at most its\n" +
		"collateral are served before their simulation; a failed simulation demotes it until it is set again.\n" +
		"See docs/relay-builders.md (Builder statuses, Optimistic relaying).",
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
			&cli.StringFlag{Name: "status", Usage: store.BuilderHighPriority + " or " + store.BuilderBlocked},
			&cli.BoolFlag{Name: "optimistic", Usage: "serve the builder's bids worth at most --collateral before their simulation (again, after a demotion)"},
			&cli.StringFlag{Name: "collateral", Usage: "with --optimistic: what the builder deposited, in wei or with a unit (1ether, 250gwei)"},
			&cli.StringFlag{Name: "note", Usage: "free text kept with the status (who asked, why)"},
		}, builderDBFlags...),
		Action: runBuildersSet,
	}, {
		Name:      "clear",
		Usage:     "Remove a builder's status (optimistic included)",
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
		if err != nil {
			return err
		}
		err = st.OptimisticBuilders(cctx, func(b *store.OptimisticBuilder) error {
			n++
			status := "optimistic"
			if b.Demoted {
				status = "optimistic-demoted"
			}
			_, err := fmt.Fprintf(ctx.App.Writer, "%s %s collateral=%s %s %q\n", b.Pubkey, status, b.Collateral, time.UnixMilli(b.UpdatedAt).UTC().Format(time.RFC3339), b.Note)
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
	status, optimistic := ctx.String("status"), ctx.Bool("optimistic")
	if !optimistic && ctx.IsSet("collateral") {
		return fmt.Errorf("%w: --collateral is only for --optimistic", errUsage)
	}
	if status == "" && !optimistic {
		return fmt.Errorf("%w: expected --status %s|%s, or --optimistic --collateral <amount>", errUsage, store.BuilderHighPriority, store.BuilderBlocked)
	}
	if status != "" && status != store.BuilderHighPriority && status != store.BuilderBlocked {
		return fmt.Errorf("%w: --status %q: expected %s or %s", errUsage, status, store.BuilderHighPriority, store.BuilderBlocked)
	}
	var collateral beacon.U256
	switch {
	case optimistic && !ctx.IsSet("collateral"):
		return fmt.Errorf("%w: --optimistic needs --collateral, the amount the builder deposited (1ether, 500gwei or wei)", errUsage)
	case optimistic:
		var err error
		if collateral, err = parseWei(ctx.String("collateral")); err != nil {
			return fmt.Errorf("%w: --collateral %q: %v", errUsage, ctx.String("collateral"), err)
		}
	}
	return withRelayStore(ctx, func(cctx context.Context, st store.Store) error {
		now := time.Now().UnixMilli()
		if status != "" {
			if err := st.SetBuilderStatus(cctx, store.BuilderStatus{Pubkey: pk, Status: status, Note: ctx.String("note"), UpdatedAt: now}); err != nil {
				return err
			}
			fmt.Fprintf(ctx.App.Writer, "%s is %s (relays read it at their next head slot)\n", pk, status)
		}
		if optimistic {
			if err := st.SetOptimisticBuilder(cctx, store.OptimisticBuilder{Pubkey: pk, Collateral: collateral, Note: ctx.String("note"), UpdatedAt: now}); err != nil {
				return err
			}
			fmt.Fprintf(ctx.App.Writer, "%s is optimistic with a collateral of %s wei (relays read it at their next head slot)\n", pk, collateral)
		}
		return nil
	})
}

// parseWei reads an amount of wei: a whole number of wei, or a number of
// ether or gwei with its unit (1ether, 0.5ether, 250gwei).
func parseWei(s string) (beacon.U256, error) {
	const expected = "expected wei (1000000000000000000), or ether or gwei with the unit (1ether, 0.5ether, 250gwei)"
	num, scale := s, int64(0)
	for _, u := range []struct {
		suffix string
		exp    int64
	}{{"ether", 18}, {"gwei", 9}, {"wei", 0}} {
		if strings.HasSuffix(s, u.suffix) {
			num, scale = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.exp
			break
		}
	}
	if num == "" || strings.ContainsAny(num, "+-eE/") {
		return beacon.U256{}, errors.New(expected)
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return beacon.U256{}, errors.New(expected)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(scale), nil)))
	if !r.IsInt() {
		return beacon.U256{}, fmt.Errorf("not a whole number of wei; %s", expected)
	}
	if r.Sign() <= 0 {
		return beacon.U256{}, errors.New("expected a collateral above 0")
	}
	v, err := beacon.U256FromBig(r.Num())
	if err != nil {
		return beacon.U256{}, fmt.Errorf("more than 256 bits of wei")
	}
	return v, nil
}

func runBuildersClear(ctx *cli.Context) error {
	pk, err := builderArg(ctx)
	if err != nil {
		return err
	}
	return withRelayStore(ctx, func(cctx context.Context, st store.Store) error {
		found, err := st.ClearBuilderStatus(cctx, pk)
		if err != nil {
			return err
		}
		wasOptimistic, err := st.ClearOptimisticBuilder(cctx, pk)
		found = found || wasOptimistic
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

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
			"See docs/relay.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rpc", Value: "http://127.0.0.1:8545", EnvVars: []string{"GAVEL_RPC"}, Usage: "the dev node's JSON-RPC"},
			&cli.StringFlag{Name: "out", Usage: "write to this file instead of standard output"},
			&cli.BoolFlag{Name: "no-wait", Usage: "do not wait for a new block first"},
		},
		Action: runSampleSubmission,
	}},
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

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

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
			"the bid with a sample builder key (mev_devSampleSubmission). Post it before that slot is\n" +
			"delivered (within one --dev.period). See docs/relay.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rpc", Value: "http://127.0.0.1:8545", Usage: "the dev node's JSON-RPC"},
			&cli.StringFlag{Name: "out", Usage: "write to this file instead of standard output"},
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

package main

import (
	"context"
	"log/slog"
	"strings"
)

// truthfulHandler corrects lines geth logs that are false for gavel's
// chains, before the terminal handler writes them:
//   - "Consensus: unknown" in the chain-config banner: geth names only chains
//     merged from Ethash or Clique; a chain that is proof-of-stake from
//     genesis (the dev chain, private post-merge chains) is beacon too.
//
// and moves to debug the warnings that say nothing wrong about a gavel node
// (demoted).
type truthfulHandler struct{ slog.Handler }

// demoted are warnings geth gives that are expected on gavel's nodes.
var demoted = []string{
	"Head block is not reachable",                // a fresh database
	"P2P server will be useless",                 // --dev runs without peers by design
	"Nil finalized block cannot evict old blobs", // no finalized block yet
	"Sanitizing invalid node buffer size",        // geth's own default cache split
	"Engine API maximum reorg depth",             // a setting, not news
}

// Handle implements slog.Handler.
func (h truthfulHandler) Handle(ctx context.Context, r slog.Record) error {
	msg, level := r.Message, r.Level
	if strings.HasPrefix(msg, "Consensus: unknown") {
		msg = "Consensus: Beacon (proof-of-stake) from genesis"
	}
	for _, d := range demoted {
		if strings.HasPrefix(msg, d) {
			level = slog.LevelDebug
			if !h.Handler.Enabled(ctx, level) {
				return nil
			}
		}
	}
	if msg != r.Message || level != r.Level {
		r2 := slog.NewRecord(r.Time, level, msg, r.PC)
		r.Attrs(func(a slog.Attr) bool { r2.AddAttrs(a); return true })
		r = r2
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h truthfulHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return truthfulHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h truthfulHandler) WithGroup(name string) slog.Handler {
	return truthfulHandler{h.Handler.WithGroup(name)}
}

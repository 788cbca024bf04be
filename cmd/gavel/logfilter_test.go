package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/log"
)

func TestTruthfulHandler(t *testing.T) {
	var buf bytes.Buffer
	l := log.NewLogger(truthfulHandler{log.NewTerminalHandlerWithLevel(&buf, log.LevelInfo, false)})
	l.Info("Consensus: unknown")
	l.Warn("Head block is not reachable")
	l.Warn("P2P server will be useless, neither dialing nor listening")
	l.Warn("Something else went wrong", "err", "boom")
	out := buf.String()
	for _, bad := range []string{"Consensus: unknown", "Head block is not reachable", "P2P server"} {
		if strings.Contains(out, bad) {
			t.Errorf("the log still says %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"Consensus: Beacon (proof-of-stake) from genesis", "Something else went wrong", "err=boom"} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}

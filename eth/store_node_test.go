package eth_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// TestReadyzReportsDatabase runs a dev node on PostgreSQL and stops the
// database under it: /readyz answers 503 naming the database while it is
// down and 200 again once it is back, without a restart of the node.
func TestReadyzReportsDatabase(t *testing.T) {
	srv := pgtest.StartServer(t)
	n := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Store.URL = srv.URL
	}})
	ready := func() (int, string) {
		res, err := http.Get(n.MEVURL() + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := ready(); code != 200 {
		t.Fatalf("readyz with the database up: %d %s", code, body)
	}
	srv.Stop()
	if code, body := ready(); code != 503 || !strings.Contains(body, "postgres database does not answer") {
		t.Fatalf("readyz with the database down: %d %s", code, body)
	}
	srv.Start()
	code, body := 0, ""
	for i := 0; i < 40 && code != 200; i++ { // each connection cut by the restart fails once
		code, body = ready()
	}
	if code != 200 {
		t.Fatalf("readyz after the database came back: %d %s", code, body)
	}
}

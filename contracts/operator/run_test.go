package operator_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/operator"
)

// web3 answers web3_clientVersion with a fixed version.
type web3 struct{ version string }

func (w web3) ClientVersion() string { return w.version }

// TestDeliveredWithoutMevNamespace: an L1 node that has no
// mev_deliveredBeta falls back to the relay data API only when it is not
// gavel; a gavel node without the mev namespace is an error naming the fix,
// since the data API would pay out a slot delivered without its beta part.
func TestDeliveredWithoutMevNamespace(t *testing.T) {
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`[{"slot":"7","block_hash":"0x01","canonical":true}]`))
	}))
	defer relay.Close()
	for _, tc := range []struct {
		version string
		wantErr bool
	}{
		{"Geth/v1.17.10-stable/linux-amd64/go1.26", false},
		{"gavel/v0.1.0-dev/linux-amd64/go1.26", true},
	} {
		srv := rpc.NewServer()
		if err := srv.RegisterName("web3", web3{tc.version}); err != nil {
			t.Fatal(err)
		}
		l1 := rpc.DialInProc(srv)
		v, err := operator.RelayDeliveries{L1: l1, URL: relay.URL}.Verdict(context.Background(), 7)
		switch {
		case tc.wantErr && !errors.Is(err, operator.ErrRelay):
			t.Errorf("%s: got %+v err=%v, want an ErrRelay error", tc.version, v, err)
		case !tc.wantErr && (err != nil || !v.Payout || !v.Known):
			t.Errorf("%s: got %+v err=%v, want the data API's answer (delivered and canonical: pay out)", tc.version, v, err)
		}
		l1.Close()
		srv.Stop()
	}
}

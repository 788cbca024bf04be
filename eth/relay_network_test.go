package eth_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/relay"
)

// lodestarNode is a beacon node answering as Lodestar 1.5.1 does under
// `lodestar dev` on a custom chain: 503 until up is set (the beacon node
// starts after the execution client), then genesis (reporting the Capella
// version as genesis_fork_version), spec (with the real
// GENESIS_FORK_VERSION), sync status and empty lists.
func lodestarNode(t *testing.T, up *atomic.Bool) *httptest.Server {
	return lodestarNodeSpec(t, up, `"PRESET_BASE":"mainnet","CONFIG_NAME":"interop","SECONDS_PER_SLOT":"2","SLOTS_PER_EPOCH":"32",`)
}

// lodestarMinimalSpec is the preset part of Lodestar 1.5.1's spec under
// `lodestar dev --preset minimal` (the early Deneb FIELD_ELEMENTS_PER_BLOB
// of 4 included: its chain never reaches Deneb).
const lodestarMinimalSpec = `"PRESET_BASE":"minimal","CONFIG_NAME":"interop","SECONDS_PER_SLOT":"2","SLOTS_PER_EPOCH":"8",` +
	`"SYNC_COMMITTEE_SIZE":"32","MAX_WITHDRAWALS_PER_PAYLOAD":"4","MAX_COMMITTEES_PER_SLOT":"4","FIELD_ELEMENTS_PER_BLOB":"4","MAX_BLOBS_PER_BLOCK":"4",`

// lodestarNodeSpec is lodestarNode with presetJSON (the spec's preset
// members, each followed by a comma) in its /eth/v1/config/spec answer.
func lodestarNodeSpec(t *testing.T, up *atomic.Bool, presetJSON string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !up.Load() {
			w.WriteHeader(503)
			io.WriteString(w, `{"code":503,"message":"starting"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/eth/v1/beacon/genesis":
			io.WriteString(w, `{"data":{"genesis_time":"1795562395","genesis_validators_root":"0x`+strings.Repeat("ab", 32)+`","genesis_fork_version":"0x03000000"}}`)
		case "/eth/v1/config/spec":
			io.WriteString(w, `{"data":{`+presetJSON+
				`"GENESIS_FORK_VERSION":"0x00000000","ALTAIR_FORK_VERSION":"0x01000000","ALTAIR_FORK_EPOCH":"0","BELLATRIX_FORK_VERSION":"0x02000000","BELLATRIX_FORK_EPOCH":"0",`+
				`"CAPELLA_FORK_VERSION":"0x03000000","CAPELLA_FORK_EPOCH":"0","EIP4844_FORK_VERSION":"0x04000000","EIP4844_FORK_EPOCH":"18446744073709551615"}}`)
		case "/eth/v1/node/syncing":
			io.WriteString(w, `{"data":{"head_slot":"10","sync_distance":"0","is_syncing":false,"is_optimistic":false}}`)
		case "/eth/v1/beacon/states/head/validators":
			io.WriteString(w, `{"data":[]}`)
		case "/eth/v1/events":
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			if strings.HasPrefix(r.URL.Path, "/eth/v1/validator/duties/proposer/") {
				io.WriteString(w, `{"dependent_root":"0x`+strings.Repeat("00", 32)+`","data":[]}`)
				return
			}
			w.WriteHeader(404)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// networkNode assembles a gavel node on the custom genesis of
// testdata/custom-genesis.json (chain id 32382, no preset) with the relay
// pointed at beaconURL (no relay when empty), without starting it.
func networkNode(t *testing.T, beaconURL string) (*node.Node, *eth.Node) {
	t.Helper()
	log.SetDefault(log.NewLogger(log.DiscardHandler()))
	raw, err := os.ReadFile(filepath.Join("testdata", "custom-genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	genesis := new(core.Genesis)
	if err := json.Unmarshal(raw, genesis); err != nil {
		t.Fatal(err)
	}
	ncfg := node.DefaultConfig
	ncfg.DataDir = t.TempDir()
	ncfg.HTTPHost, ncfg.WSHost, ncfg.IPCPath = "", "", ""
	ncfg.AuthAddr, ncfg.AuthPort = "127.0.0.1", 0
	ncfg.P2P = p2p.Config{MaxPeers: 0, NoDial: true, NoDiscovery: true}
	stack, err := node.New(&ncfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stack.Close() })
	ecfg := ethconfig.Defaults
	ecfg.Genesis = genesis
	gcfg := eth.DefaultConfig()
	gcfg.Listener.Addr = "127.0.0.1:0"
	if beaconURL != "" {
		gcfg.Relay.SecretKey = "0x2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819"
		gcfg.Relay.Beacon = []string{beaconURL}
	}
	n, err := eth.New(stack, &ecfg, gcfg)
	if err != nil {
		t.Fatal(err)
	}
	return stack, n
}

// TestRelayWaitsForBeaconNode: on a custom network (chain id 32382, no
// preset) the relay starts before its beacon node: its routes answer 503
// saying what it waits for, and once the node answers it runs on the node's
// constants (GENESIS_FORK_VERSION from the spec, 2 s slots).
func TestRelayWaitsForBeaconNode(t *testing.T) {
	var up atomic.Bool
	bn := lodestarNode(t, &up)
	stack, n := networkNode(t, bn.URL)
	ready := make(chan *relay.Relay, 1)
	n.Relay().OnReady(func(r *relay.Relay) { ready <- r })
	if err := stack.Start(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/eth/v1/builder/status", "/relay/v1/builder/validators", "/readyz"} {
		res, err := http.Get(n.MEV().URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 503 || (path != "/readyz" && !strings.Contains(string(body), "relay not ready: waiting for a beacon node")) {
			t.Fatalf("%s before the beacon node: %d %s", path, res.StatusCode, body)
		}
	}
	up.Store(true)
	r := <-ready
	cfg := r.BeaconConfig()
	if cfg.SecondsPerSlot != 2 || cfg.SlotsPerEpoch != 32 || cfg.GenesisForkVersion != [4]byte{} || cfg.GenesisTime != 1795562395 || len(cfg.Forks) != 5 {
		t.Fatalf("relay constants %+v", cfg)
	}
	res, err := http.Get(n.MEV().URL() + "/eth/v1/builder/status")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status once ready: %d", res.StatusCode)
	}
}

// TestRelayMinimalPreset: a minimal-preset beacon node (Lodestar's dev
// mode) is accepted: the relay, and the builder it starts, take the
// preset's sizes from /eth/v1/config/spec.
func TestRelayMinimalPreset(t *testing.T) {
	var up atomic.Bool
	up.Store(true)
	bn := lodestarNodeSpec(t, &up, lodestarMinimalSpec)
	stack, n := networkNode(t, bn.URL)
	ready := make(chan *relay.Relay, 1)
	n.Relay().OnReady(func(r *relay.Relay) { ready <- r })
	if err := stack.Start(); err != nil {
		t.Fatal(err)
	}
	r := <-ready
	spec := r.Spec()
	if spec.Name() != "minimal" || spec.IsMainnet() || spec.Value("SYNC_COMMITTEE_SIZE") != 32 || spec.Value("MAX_WITHDRAWALS_PER_PAYLOAD") != 4 || r.BeaconConfig().SlotsPerEpoch != 8 {
		t.Fatalf("relay preset %s, %d slots per epoch", spec, r.BeaconConfig().SlotsPerEpoch)
	}
	res, err := http.Get(n.MEV().URL() + "/eth/v1/builder/status")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("builder status on a minimal-preset chain: %d", res.StatusCode)
	}
}

// TestNoRelayNoRoutes: on a real network without relay flags no relay
// route is mounted (no half-mounted API: the status route is a 404 too).
func TestNoRelayNoRoutes(t *testing.T) {
	_, n := networkNode(t, "")
	if n.Relay() != nil {
		t.Fatal("a relay without --relay.secretkey and --relay.beacon")
	}
	for _, path := range []string{"/eth/v1/builder/status", "/relay/v1/builder/validators", "/relay/v1/data/bidtraces/proposer_payload_delivered"} {
		rec := httptest.NewRecorder()
		n.MEV().Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 404 {
			t.Errorf("GET %s: %d, want 404", path, rec.Code)
		}
	}
}

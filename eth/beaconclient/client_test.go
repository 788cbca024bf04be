package beaconclient

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

func TestNewURLs(t *testing.T) {
	c, err := New([]string{"http://a:5052/, https://user:pw@b/prefix", "http://c:1"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Nodes(); !reflect.DeepEqual(got, []string{"http://a:5052", "https://user:xxxxx@b/prefix", "http://c:1"}) {
		t.Fatalf("nodes %v", got)
	}
	for _, bad := range []string{"localhost:5052", "ftp://x", "http://", "::"} {
		if _, err := New([]string{bad}, Options{}); !errors.Is(err, ErrBadURL) {
			t.Errorf("New(%q): %v, want ErrBadURL", bad, err)
		}
	}
	if _, err := New([]string{" , "}, Options{}); !errors.Is(err, ErrNoNodes) {
		t.Errorf("no URLs: %v", err)
	}
}

func TestNetworkConfigMainnet(t *testing.T) {
	n := newFakeNode(t).mainnet()
	c := newClient(t, n)
	cfg, _, err := c.NetworkConfig(context.Background(), params.MainnetBeaconConfig, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg, params.MainnetBeaconConfig) {
		t.Fatalf("mainnet config from the node differs from the preset:\n got %+v\nwant %+v", cfg, params.MainnetBeaconConfig)
	}
	if cfg == params.MainnetBeaconConfig || &cfg.Forks[0] == &params.MainnetBeaconConfig.Forks[0] {
		t.Fatal("NetworkConfig returned the preset itself; callers could change it")
	}
	// The node's epochs win over the preset's.
	n.json("GET", PathSpec, strings.Replace(readTestdata(t, "spec_mainnet.json"), `"411392"`, `"500000"`, 1))
	cfg, _, err = c.NetworkConfig(context.Background(), params.MainnetBeaconConfig, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Forks[params.ForkFulu].Epoch; got != 500000 {
		t.Fatalf("fulu epoch %d, want the node's 500000", got)
	}
	// Another network's preset is refused, saying what differs.
	if _, _, err := c.NetworkConfig(context.Background(), params.SepoliaBeaconConfig, nil); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "genesis validators root") {
		t.Fatalf("sepolia preset against a mainnet node: %v", err)
	}
	// So is a node whose slot time or fork versions differ from the preset.
	n.json("GET", PathSpec, strings.Replace(readTestdata(t, "spec_mainnet.json"), `"SECONDS_PER_SLOT":"12"`, `"SECONDS_PER_SLOT":"6"`, 1))
	if _, _, err := c.NetworkConfig(context.Background(), params.MainnetBeaconConfig, nil); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "SECONDS_PER_SLOT is 6, the mainnet preset's is 12") {
		t.Fatalf("mainnet node with 6 s slots: %v", err)
	}
	n.json("GET", PathSpec, strings.Replace(readTestdata(t, "spec_mainnet.json"), `"0x03000000"`, `"0x03000001"`, 1))
	if _, _, err := c.NetworkConfig(context.Background(), params.MainnetBeaconConfig, nil); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "CAPELLA_FORK_VERSION") {
		t.Fatalf("mainnet node with another capella version: %v", err)
	}
	// An override (a flag) fixes what the node says.
	if _, _, err := c.NetworkConfig(context.Background(), params.MainnetBeaconConfig, map[string]string{"CAPELLA_FORK_VERSION": "0x03000000"}); err != nil {
		t.Fatalf("override: %v", err)
	}
}

func TestNetworkConfigCustom(t *testing.T) {
	n := newFakeNode(t)
	n.json("GET", PathGenesis, `{"data":{"genesis_time":"1700000000","genesis_validators_root":"0x`+strings.Repeat("11", 32)+`","genesis_fork_version":"0x10000038"}}`)
	n.json("GET", PathForkSchedule, `{"data":[
		{"previous_version":"0x10000038","current_version":"0x10000038","epoch":"0"},
		{"previous_version":"0x10000038","current_version":"0x20000038","epoch":"0"},
		{"previous_version":"0x20000038","current_version":"0x30000038","epoch":"0"},
		{"previous_version":"0x30000038","current_version":"0x40000038","epoch":"0"},
		{"previous_version":"0x40000038","current_version":"0x50000038","epoch":"10"},
		{"previous_version":"0x50000038","current_version":"0x60000038","epoch":"20"},
		{"previous_version":"0x60000038","current_version":"0x70000038","epoch":"18446744073709551615"},
		{"previous_version":"0x70000038","current_version":"0x80000038","epoch":"18446744073709551615"}]}`)
	n.json("GET", PathSpec, `{"data":{"SECONDS_PER_SLOT":"6","SLOTS_PER_EPOCH":"8"}}`)
	cfg, _, err := newClient(t, n).NetworkConfig(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.SecondsPerSlot != 6 || cfg.SlotsPerEpoch != 8 || cfg.GenesisTime != 1700000000 || cfg.GenesisForkVersion != (params.ForkVersion{0x10, 0, 0, 0x38}) {
		t.Fatalf("config %+v", cfg)
	}
	if len(cfg.Forks) != int(params.LatestConsensusFork)+1 {
		t.Fatalf("%d forks, want %d (the unknown newest one dropped)", len(cfg.Forks), params.LatestConsensusFork+1)
	}
	if cfg.ForkAtSlot(79) != params.ForkCapella || cfg.ForkAtSlot(80) != params.ForkDeneb || cfg.ForkAtSlot(160) != params.ForkElectra || cfg.ForkAtSlot(1<<40) != params.ForkElectra {
		t.Fatalf("fork at slots 79/80/160: %s %s %s", cfg.ForkAtSlot(79), cfg.ForkAtSlot(80), cfg.ForkAtSlot(160))
	}
	// A spec with fork keys wins over the schedule; overrides win over both.
	cfg, _, err = newClient(t, n).NetworkConfig(context.Background(), nil, map[string]string{
		"ALTAIR_FORK_VERSION": "0x20000038", "ALTAIR_FORK_EPOCH": "0", "BELLATRIX_FORK_VERSION": "0x30000038", "BELLATRIX_FORK_EPOCH": "1",
		"GENESIS_TIME": "1700000006", "SECONDS_PER_SLOT": "2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Forks) != 3 || cfg.ForkAtSlot(7) != params.ForkAltair || cfg.ForkAtSlot(8) != params.ForkBellatrix || cfg.GenesisTime != 1700000006 || cfg.SecondsPerSlot != 2 {
		t.Fatalf("overridden config %+v", cfg)
	}
	// A minimal-preset node is accepted with its sizes; a value gavel has
	// no shape for is refused, naming it.
	_, spec, err := newClient(t, n).NetworkConfig(context.Background(), nil, map[string]string{"PRESET_BASE": "minimal", "SYNC_COMMITTEE_SIZE": "32", "MAX_WITHDRAWALS_PER_PAYLOAD": "4"})
	if err != nil || spec.Name() != "minimal" || spec.IsMainnet() || spec.Value("SYNC_COMMITTEE_SIZE") != 32 || spec.Value("MAX_WITHDRAWALS_PER_PAYLOAD") != 4 {
		t.Fatalf("minimal preset: %v %v", spec, err)
	}
	_, _, err = newClient(t, n).NetworkConfig(context.Background(), nil, map[string]string{"PRESET_BASE": "minimal", "FIELD_ELEMENTS_PER_BLOB": "4"})
	if !errors.Is(err, ErrPreset) || !strings.Contains(err.Error(), "FIELD_ELEMENTS_PER_BLOB is 4, gavel supports only 4096") {
		t.Fatalf("unsupported preset value: %v", err)
	}
	// A custom network needs the slot timing from the spec.
	n.json("GET", PathSpec, `{"data":{"SLOTS_PER_EPOCH":"8"}}`)
	if _, _, err := newClient(t, n).NetworkConfig(context.Background(), nil, nil); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("spec without SECONDS_PER_SLOT: %v", err)
	}
}

func TestFailover(t *testing.T) {
	a, b := newFakeNode(t).mainnet(), newFakeNode(t).mainnet()
	a.fail(503)
	c := newClient(t, a, b)
	ctx := context.Background()
	g, err := c.Genesis(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g.GenesisTime != 1606824023 || g.GenesisValidatorsRoot != beacon.Root(params.MainnetBeaconConfig.GenesisValidatorsRoot) {
		t.Fatalf("genesis %+v", g)
	}
	// b answered, so the next read goes to b first.
	if _, err := c.ForkSchedule(ctx); err != nil {
		t.Fatal(err)
	}
	if a.count("GET", PathForkSchedule) != 0 || b.count("GET", PathForkSchedule) != 1 {
		t.Fatalf("fork schedule hits a=%d b=%d, want 0 and 1", a.count("GET", PathForkSchedule), b.count("GET", PathForkSchedule))
	}
	// Every node down: ErrUnavailable, with each node's status and message.
	b.fail(500)
	_, err = c.Genesis(ctx)
	var apiErr *APIError
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, ErrStatus) || !errors.As(err, &apiErr) {
		t.Fatalf("all nodes failing: %v", err)
	}
	if !strings.Contains(err.Error(), "HTTP 503: fake node failing on purpose") || !strings.Contains(err.Error(), "HTTP 500") {
		t.Fatalf("error does not say what each node answered: %v", err)
	}
	// A node that is down (connection refused) fails over too.
	down := newFakeNode(t)
	down.srv.Close()
	c = newClient(t, down, newFakeNode(t).mainnet())
	if _, err := c.Genesis(ctx); err != nil {
		t.Fatalf("failover from a closed node: %v", err)
	}
}

func TestMalformedAnswers(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name, path, body string
		call             func(*Client) error
	}{
		{"genesis not JSON", PathGenesis, `<html>`, func(c *Client) error { _, err := c.Genesis(ctx); return err }},
		{"genesis without root", PathGenesis, `{"data":{"genesis_time":"1","genesis_fork_version":"0x00000000"}}`, func(c *Client) error { _, err := c.Genesis(ctx); return err }},
		{"genesis time negative", PathGenesis, `{"data":{"genesis_time":"-1","genesis_validators_root":"0x` + strings.Repeat("00", 32) + `","genesis_fork_version":"0x00000000"}}`, func(c *Client) error { _, err := c.Genesis(ctx); return err }},
		{"short root", PathGenesis, `{"data":{"genesis_time":"1","genesis_validators_root":"0x00","genesis_fork_version":"0x00000000"}}`, func(c *Client) error { _, err := c.Genesis(ctx); return err }},
		{"fork version length", PathForkSchedule, `{"data":[{"previous_version":"0x00","current_version":"0x00000000","epoch":"0"}]}`, func(c *Client) error { _, err := c.ForkSchedule(ctx); return err }},
		{"fork without epoch", PathForkSchedule, `{"data":[{"previous_version":"0x00000000","current_version":"0x00000000"}]}`, func(c *Client) error { _, err := c.ForkSchedule(ctx); return err }},
		{"duty without pubkey", PathProposerDuties + "3", `{"data":[{"validator_index":"1","slot":"96"}]}`, func(c *Client) error { _, _, err := c.ProposerDuties(ctx, 3); return err }},
		{"duty bad slot", PathProposerDuties + "3", `{"data":[{"pubkey":"0x` + strings.Repeat("aa", 48) + `","validator_index":"1","slot":"9x"}]}`, func(c *Client) error { _, _, err := c.ProposerDuties(ctx, 3); return err }},
		{"syncing without head", PathSyncing, `{"data":{"is_syncing":false}}`, func(c *Client) error { _, err := c.SyncStatus(ctx); return err }},
		{"validators without data", PathValidators, `{"execution_optimistic":false}`, func(c *Client) error { _, err := c.Validators(ctx); return err }},
		{"validators truncated", PathValidators, `{"data":[{"index":"1","validator":{"pubkey":"0x` + strings.Repeat("aa", 48) + `"}}`, func(c *Client) error { _, err := c.Validators(ctx); return err }},
		{"validator without index", PathValidators, `{"data":[{"validator":{"pubkey":"0x` + strings.Repeat("aa", 48) + `"}}]}`, func(c *Client) error { _, err := c.Validators(ctx); return err }},
	} {
		n := newFakeNode(t)
		n.json("GET", c.path, c.body)
		err := c.call(newClient(t, n))
		if !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: %v, want ErrBadResponse", c.name, err)
		}
	}
}

func TestReadJSONLimit(t *testing.T) {
	n := newFakeNode(t)
	n.json("GET", "/big", `{"data":"`+strings.Repeat("x", 100)+`"}`)
	c := newClient(t, n)
	resp, err := c.do(context.Background(), c.nodes[0], "GET", "/big", nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := readJSON(c.nodes[0], resp, 50, &v); !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "more than 50 bytes") {
		t.Fatalf("oversized answer: %v", err)
	}
}

func TestProposerDutiesAndSync(t *testing.T) {
	n := newFakeNode(t).mainnet()
	pk := "0x" + strings.Repeat("a1", 48)
	n.json("GET", PathProposerDuties+"2", `{"dependent_root":"0x`+strings.Repeat("cc", 32)+`","execution_optimistic":false,"data":[{"pubkey":"`+pk+`","validator_index":"7","slot":"64"},{"pubkey":"`+pk+`","validator_index":"7","slot":"65"}]}`)
	c := newClient(t, n)
	duties, root, err := c.ProposerDuties(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	var want beacon.BLSPubkey
	want.UnmarshalText([]byte(pk))
	if len(duties) != 2 || duties[1] != (ProposerDuty{Slot: 65, ValidatorIndex: 7, Pubkey: want}) || root[0] != 0xcc {
		t.Fatalf("duties %+v root %s", duties, root)
	}
	st, err := c.SyncStatus(context.Background())
	if err != nil || st.HeadSlot != 64 || st.IsSyncing {
		t.Fatalf("sync status %+v %v", st, err)
	}
}

func TestBestSyncStatus(t *testing.T) {
	a, b, syncing := newFakeNode(t), newFakeNode(t), newFakeNode(t)
	a.json("GET", PathSyncing, `{"data":{"head_slot":"100","sync_distance":"0","is_syncing":false}}`)
	b.json("GET", PathSyncing, `{"data":{"head_slot":"101","sync_distance":"0","is_syncing":false}}`)
	syncing.json("GET", PathSyncing, `{"data":{"head_slot":"900","sync_distance":"5","is_syncing":true}}`)
	c := newClient(t, a, syncing, b)
	st, err := c.BestSyncStatus(context.Background(), false)
	if err != nil || st.HeadSlot != 101 {
		t.Fatalf("best: %+v %v", st, err)
	}
	if c.preferred.Load() != 2 {
		t.Fatalf("preferred node %d, want 2", c.preferred.Load())
	}
	if st, err := c.BestSyncStatus(context.Background(), true); err != nil || st.HeadSlot != 900 {
		t.Fatalf("allowing syncing nodes: %+v %v", st, err)
	}
	c = newClient(t, syncing)
	if _, err := c.BestSyncStatus(context.Background(), false); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "is syncing") {
		t.Fatalf("only a syncing node: %v", err)
	}
}

func TestValidatorsStream(t *testing.T) {
	n := newFakeNode(t)
	const count = 3000
	n.handle("GET", PathValidators, func(w http.ResponseWriter, r *http.Request) {
		// Like Lodestar 1.5: each status= value is one sub-status; a comma
		// list or a top-level name matches nothing.
		statuses := map[string]bool{}
		for _, s := range r.URL.Query()["status"] {
			statuses[s] = true
		}
		io.WriteString(w, `{"execution_optimistic":false,"finalized":false,"data":[`)
		if !statuses["active_ongoing"] || !statuses["pending_queued"] {
			io.WriteString(w, `]}`)
			return
		}
		for i := range count {
			if i > 0 {
				io.WriteString(w, ",")
			}
			fmt.Fprintf(w, `{"index":"%d","balance":"32000000000","status":"active_ongoing","validator":{"pubkey":"0x%096x","withdrawal_credentials":"0x%064x","effective_balance":"32000000000","slashed":false,"activation_eligibility_epoch":"0","activation_epoch":"0","exit_epoch":"18446744073709551615","withdrawable_epoch":"18446744073709551615"}}`, i, i+1, i)
		}
		io.WriteString(w, `]}`)
	})
	vals, err := newClient(t, n).Validators(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != count {
		t.Fatalf("%d validators, want %d", len(vals), count)
	}
	pk := vals[count-1]
	if pk[47] != byte(count&0xff) || pk[46] != byte(count>>8) {
		t.Fatalf("pubkey of validator %d: %s", count-1, pk)
	}
}

func TestReadEvents(t *testing.T) {
	stream := ": keep-alive\n\nevent: head\ndata: {\"a\":\ndata: 1}\n\ndata: untyped\n\nevent: x\n\n"
	var got []string
	sc := bufio.NewScanner(strings.NewReader(stream))
	err := readEvents(sc, func(ev string, data []byte) error { got = append(got, ev+"="+string(data)); return nil })
	if !errors.Is(err, errStreamEnded) {
		t.Fatalf("end: %v", err)
	}
	if want := []string{"head={\"a\":\n1}", "message=untyped"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	// An event that never ends is cut off at MaxEventBytes.
	huge := "event: head\n" + strings.Repeat("data: "+strings.Repeat("x", 1000)+"\n", MaxEventBytes/1000+2)
	sc = bufio.NewScanner(strings.NewReader(huge))
	if err := readEvents(sc, func(string, []byte) error { return nil }); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("huge event: %v", err)
	}
	sc = bufio.NewScanner(strings.NewReader("data: " + strings.Repeat("x", MaxEventBytes+100) + "\n\n"))
	sc.Buffer(nil, MaxEventBytes+64)
	if err := readEvents(sc, func(string, []byte) error { return nil }); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("huge line: %v", err)
	}
}

func TestParsePayloadAttributes(t *testing.T) {
	data := func(name string) []byte {
		s := readTestdata(t, name)
		_, d, _ := strings.Cut(s, "data: ")
		return []byte(strings.TrimSpace(d))
	}
	ev, err := ParsePayloadAttributesEvent(data("payload_attributes_capella.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Version != params.ForkCapella || ev.ProposalSlot != 10 || ev.ProposerIndex != 123 || ev.ParentBlockNumber != 9 || ev.Timestamp != 123456 ||
		len(ev.Withdrawals) != 1 || ev.Withdrawals[0].Amount != 15640 || ev.Withdrawals[0].ValidatorIndex != 10 || ev.ParentBlockHash[0] != 0x9a {
		t.Fatalf("capella event %+v", ev)
	}
	ev, err = ParsePayloadAttributesEvent(data("payload_attributes_deneb.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Version != params.ForkDeneb || ev.ProposalSlot != 8629218 || ev.Withdrawals == nil || len(ev.Withdrawals) != 0 || ev.ParentBeaconBlockRoot[0] != 0x4a {
		t.Fatalf("deneb event %+v", ev)
	}
	for name, mutate := range map[string]func(string) string{
		"capella without withdrawals": func(s string) string {
			return strings.Replace(s, `,"withdrawals":[{"index":"5","validator_index":"10","address":"0xabcf8e0d4e9587369b2301d0790347320302cc09","amount":"15640"}]`, "", 1)
		},
		"unknown version":   func(s string) string { return strings.Replace(s, `"capella"`, `"zeta"`, 1) },
		"no proposal slot":  func(s string) string { return strings.Replace(s, `"proposal_slot":"10",`, "", 1) },
		"bad randao":        func(s string) string { return strings.Replace(s, `"prev_randao":"0xcf`, `"prev_randao":"0x`, 1) },
		"withdrawal extra":  func(s string) string { return strings.Replace(s, `"amount":"15640"`, `"amount":"15640","x":"1"`, 1) },
		"not json":          func(s string) string { return s[:len(s)/2] },
		"negative proposer": func(s string) string { return strings.Replace(s, `"123"`, `"-123"`, 1) },
	} {
		if _, err := ParsePayloadAttributesEvent([]byte(mutate(string(data("payload_attributes_capella.txt"))))); !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: %v, want ErrBadResponse", name, err)
		}
	}
	deneb := string(data("payload_attributes_deneb.txt"))
	if _, err := ParsePayloadAttributesEvent([]byte(strings.Replace(deneb, `,"parent_beacon_block_root":"0x4a5c4ec7e9e1e2a3d6a1bd6a3ab8b6bbcd4d6f1c2e8d1f0a9b7c6d5e4f3a2b1c"`, "", 1))); !errors.Is(err, ErrBadResponse) {
		t.Errorf("deneb without parent_beacon_block_root: %v", err)
	}
}

func headEvent(slot uint64) string {
	return strings.Replace(readHeadTemplate, `"slot":"10"`, fmt.Sprintf(`"slot":"%d"`, slot), 1)
}

var readHeadTemplate string

func TestFollowHeadTwoNodesDedupAndReconnect(t *testing.T) {
	readHeadTemplate = readTestdata(t, "head_event.txt")
	a, b := newFakeNode(t), newFakeNode(t)
	// a: slots 1, 2, then the stream drops; on re-opening: 3 and a malformed event, then 5.
	a.script(TopicHead, headEvent(1), headEvent(2))
	a.script(TopicHead, headEvent(3), "event: head\ndata: {\"slot\":\"x\"}\n\n", headEvent(5))
	// b: the same slots late, a stale one, and 4 (which arrives after 5 or before).
	b.script(TopicHead, headEvent(2), headEvent(1), headEvent(4))
	c := newClient(t, a, b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var got []uint64
	done := make(chan struct{})
	go func() {
		c.FollowHead(ctx, func(h HeadEvent) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, h.Slot)
			if h.Slot == 5 {
				close(done)
			}
		})
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("slot 5 never arrived")
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("head slots not strictly increasing: %v", got)
		}
	}
	if got[0] != 1 && got[0] != 2 || got[len(got)-1] != 5 {
		t.Fatalf("head slots %v", got)
	}
	if a.count("GET", PathEvents) < 2 {
		t.Fatalf("node a's stream was opened %d times, want a re-open", a.count("GET", PathEvents))
	}
	req, _ := a.lastRequest()
	if req.URL.Query().Get("topics") != "head" || req.Header.Get("Accept") != "text/event-stream" {
		t.Fatalf("events request %s accept %q", req.URL, req.Header.Get("Accept"))
	}
}

func TestFollowPayloadAttributesDedup(t *testing.T) {
	capella := readTestdata(t, "payload_attributes_capella.txt")
	// Slot 11, so that neither event is stale next to the other.
	deneb := strings.Replace(readTestdata(t, "payload_attributes_deneb.txt"), `"8629218"`, `"11"`, 1)
	a, b := newFakeNode(t), newFakeNode(t)
	a.script(TopicPayloadAttributes, capella, deneb)
	b.script(TopicPayloadAttributes, deneb, capella, headEventFor(t))
	c := newClient(t, a, b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	seen := map[uint64]int{}
	both := make(chan struct{})
	go c.FollowPayloadAttributes(ctx, func(ev PayloadAttributesEvent) {
		mu.Lock()
		defer mu.Unlock()
		seen[ev.ProposalSlot]++
		if len(seen) == 2 {
			close(both)
		}
	})
	select {
	case <-both:
	case <-time.After(20 * time.Second):
		t.Fatal("payload attributes never arrived")
	}
	// Wait until both nodes' scripted streams were played to the end, so
	// duplicates had every chance to get through.
	for _, n := range []*fakeNode{a, b} {
		select {
		case <-n.ended:
		case <-time.After(20 * time.Second):
			t.Fatal("streams not played")
		}
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	if seen[10] != 1 || seen[11] != 1 {
		t.Fatalf("deliveries per slot %v, want each once", seen)
	}
}

// headEventFor returns a head event, which a payload_attributes stream must ignore.
func headEventFor(t *testing.T) string { return readTestdata(t, "head_event.txt") }

func TestPublish(t *testing.T) {
	ctx := context.Background()
	a, b := newFakeNode(t), newFakeNode(t)
	accept := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }
	}
	a.fail(500)
	b.handle("POST", PathBlocksV2, accept(202))
	b.handle("POST", PathBlocksV1, accept(200))
	b.handle("POST", PathBlindedV2, accept(200))
	b.handle("POST", PathBlindedV1, accept(200))
	c := newClient(t, a, b)
	body := []byte{1, 2, 3}
	if err := c.PublishRaw(ctx, PublishRequest{Fork: params.ForkDeneb, Body: body, SSZ: true}); err != nil {
		t.Fatalf("publish with one node accepting (202): %v", err)
	}
	for _, tc := range []struct {
		req   PublishRequest
		path  string
		query string
		ctype string
	}{
		{PublishRequest{Fork: params.ForkDeneb, Body: body, SSZ: true}, PathBlocksV2, "broadcast_validation=consensus_and_equivocation", "application/octet-stream"},
		{PublishRequest{Fork: params.ForkElectra, Body: body, BroadcastValidation: BroadcastGossip}, PathBlocksV2, "broadcast_validation=gossip", "application/json"},
		{PublishRequest{Fork: params.ForkCapella, Body: body, V1: true}, PathBlocksV1, "", "application/json"},
		{PublishRequest{Fork: params.ForkFulu, Body: body, Blinded: true, SSZ: true}, PathBlindedV2, "broadcast_validation=consensus_and_equivocation", "application/octet-stream"},
		{PublishRequest{Fork: params.ForkCapella, Body: body, Blinded: true, V1: true}, PathBlindedV1, "", "application/json"},
	} {
		bNode := newFakeNode(t)
		bNode.handle("POST", tc.path, accept(200))
		if err := newClient(t, bNode).PublishRaw(ctx, tc.req); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		r, got := bNode.lastRequest()
		if r.URL.Path != tc.path || r.URL.RawQuery != tc.query || r.Header.Get("Content-Type") != tc.ctype ||
			r.Header.Get("Eth-Consensus-Version") != tc.req.Fork.String() || string(got) != string(body) {
			t.Errorf("request %s?%s %q %q body %x", r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), r.Header.Get("Eth-Consensus-Version"), got)
		}
	}
	// Nobody accepts: every node's answer is in the error.
	b.fail(400)
	err := c.PublishRaw(ctx, PublishRequest{Fork: params.ForkDeneb, Body: body})
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "HTTP 400") || !strings.Contains(err.Error(), "HTTP 500") {
		t.Fatalf("no node accepting: %v", err)
	}
	if err := c.PublishRaw(ctx, PublishRequest{Fork: params.ForkDeneb}); !errors.Is(err, ErrBadPublish) {
		t.Fatalf("empty body: %v", err)
	}
	if err := c.PublishRaw(ctx, PublishRequest{Fork: params.ForkDeneb, Body: body, BroadcastValidation: "all"}); !errors.Is(err, ErrBadPublish) {
		t.Fatalf("bad broadcast validation: %v", err)
	}
}

func TestPublishBlockContents(t *testing.T) {
	n := newFakeNode(t)
	n.handle("POST", PathBlocksV2, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	blk := &beacon.SignedBlockContents{Fork: params.ForkCapella, Capella: &beacon.SignedBeaconBlockCapella{Message: beacon.BeaconBlockCapella{Body: beacon.BeaconBlockBodyCapella{SyncAggregate: beacon.MainnetSpec.SyncAggregate()}}}}
	blk.Capella.Message.Slot = 1234
	want, err := blk.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if err := newClient(t, n).Publish(context.Background(), blk, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	r, got := n.lastRequest()
	if string(got) != string(want) || r.Header.Get("Eth-Consensus-Version") != "capella" || r.Header.Get("Content-Type") != "application/octet-stream" {
		t.Fatalf("published %d bytes as %q/%q, want the %d-byte SSZ block", len(got), r.Header.Get("Content-Type"), r.Header.Get("Eth-Consensus-Version"), len(want))
	}
}

func TestFollow(t *testing.T) {
	n := newFakeNode(t).mainnet() // head slot 64: epoch 2
	pk := func(i int) string { return fmt.Sprintf("0x%096x", i) }
	for _, epoch := range []int{2, 3} {
		var entries []string
		for s := epoch * 32; s < epoch*32+32; s++ {
			entries = append(entries, fmt.Sprintf(`{"pubkey":"%s","validator_index":"%d","slot":"%d"}`, pk(s), s, s))
		}
		n.json("GET", fmt.Sprintf("%s%d", PathProposerDuties, epoch), `{"dependent_root":"0x`+strings.Repeat("00", 32)+`","data":[`+strings.Join(entries, ",")+`]}`)
	}
	n.json("GET", PathValidators, `{"data":[{"index":"0","validator":{"pubkey":"`+pk(1)+`"}},{"index":"1","validator":{"pubkey":"`+pk(2)+`"}}]}`)
	readHeadTemplate = readTestdata(t, "head_event.txt")
	n.script(TopicHead, headEvent(65), headEvent(66))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var heads []uint64
	var duties []ProposerDuty
	var vals map[uint64]beacon.BLSPubkey
	ready := make(chan struct{}, 10)
	h := Handlers{
		Head:       func(s uint64) { mu.Lock(); heads = append(heads, s); mu.Unlock(); ready <- struct{}{} },
		Duties:     func(d []ProposerDuty) { mu.Lock(); duties = d; mu.Unlock(); ready <- struct{}{} },
		Validators: func(v map[uint64]beacon.BLSPubkey) { mu.Lock(); vals = v; mu.Unlock(); ready <- struct{}{} },
	}
	errc := make(chan error, 1)
	go func() { errc <- newClient(t, n).Follow(ctx, params.MainnetBeaconConfig, false, h) }()
	for {
		mu.Lock()
		complete := len(heads) == 3 && duties != nil && vals != nil
		mu.Unlock()
		if complete {
			break
		}
		select {
		case <-ready:
		case err := <-errc:
			t.Fatalf("Follow returned early: %v", err)
		case <-time.After(20 * time.Second):
			t.Fatalf("incomplete: heads %v, %d duties, %d validators", heads, len(duties), len(vals))
		}
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Follow returned %v", err)
	}
	if !reflect.DeepEqual(heads, []uint64{64, 65, 66}) {
		t.Fatalf("heads %v", heads)
	}
	if len(duties) != 64 || duties[0].Slot != 64 || duties[63].Slot != 127 {
		t.Fatalf("duties: %d, first %d", len(duties), duties[0].Slot)
	}
	if len(vals) != 2 || vals[1][47] != 2 {
		t.Fatalf("validators %v", vals)
	}
}

// TestFollowWaitsForNode: the beacon node is started after gavel, as is
// normal. One configured node refuses connections and the other answers 503
// at first: Follow keeps asking and starts following once one answers.
func TestFollowWaitsForNode(t *testing.T) {
	n := newFakeNode(t).mainnet()
	if err := newClient(t, n).Follow(context.Background(), nil, false, Handlers{}); err == nil {
		t.Fatal("Follow without a beacon config")
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close() // connection refused from now on
	n.mu.Lock()
	n.failNext = 5
	n.mu.Unlock()
	c, err := New([]string{dead.URL, n.srv.URL}, Options{RetryDelay: 1e6, MaxRetryDelay: 4e6})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heads := make(chan uint64, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- c.Follow(ctx, params.MainnetBeaconConfig, false, Handlers{Head: func(s uint64) {
			select {
			case heads <- s:
			default:
			}
		}})
	}()
	select {
	case s := <-heads:
		if s != 64 {
			t.Fatalf("first head %d, want the node's 64", s)
		}
	case err := <-errc:
		t.Fatalf("Follow gave up: %v", err)
	}
	if got := n.count("GET", PathSyncing); got < 3 {
		t.Fatalf("%d sync status requests reached the node, want at least 3 (5 failed ones, retried)", got)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Follow returned %v", err)
	}
}

// TestRetryFatal: an error marked fatal (a network mismatch) ends Retry.
func TestRetryFatal(t *testing.T) {
	c := newClient(t, newFakeNode(t))
	calls := 0
	err := c.Retry(context.Background(), "test", func(context.Context) error {
		calls++
		if calls < 3 {
			return ErrUnavailable
		}
		return fmt.Errorf("%w: other network", ErrMismatch)
	}, ErrMismatch)
	if !errors.Is(err, ErrMismatch) || calls != 3 {
		t.Fatalf("Retry: %v after %d calls", err, calls)
	}
}

func FuzzParseEvents(f *testing.F) {
	f.Add([]byte(`{"slot":"1","block":"0x` + strings.Repeat("00", 32) + `"}`))
	f.Add([]byte(`{"version":"deneb","data":{"proposal_slot":"1"}}`))
	f.Add([]byte(`{"slot":1e99}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := ParseHeadEvent(data); err != nil && !errors.Is(err, ErrBadResponse) {
			t.Fatalf("head: %v", err)
		}
		if _, err := ParsePayloadAttributesEvent(data); err != nil && !errors.Is(err, ErrBadResponse) {
			t.Fatalf("payload attributes: %v", err)
		}
		if _, err := decodeValidators(strings.NewReader(string(data))); err == nil && len(data) == 0 {
			t.Fatal("empty validators answer accepted")
		}
	})
}

func TestFollowPayloadAttributesDropsStale(t *testing.T) {
	capella := readTestdata(t, "payload_attributes_capella.txt") // slot 10
	deneb := readTestdata(t, "payload_attributes_deneb.txt")
	at := func(slot string) string { return strings.Replace(deneb, `"8629218"`, `"`+slot+`"`, 1) }
	n := newFakeNode(t)
	n.script(TopicPayloadAttributes, at("1000"), capella, at("1001"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got []uint64
	done := make(chan struct{})
	go newClient(t, n).FollowPayloadAttributes(ctx, func(ev PayloadAttributesEvent) {
		got = append(got, ev.ProposalSlot)
		if ev.ProposalSlot == 1001 {
			close(done)
		}
	})
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("slot 1001 never arrived")
	}
	cancel()
	if !reflect.DeepEqual(got, []uint64{1000, 1001}) {
		t.Fatalf("delivered slots %v, want the stale slot 10 left out", got)
	}
}

// TestPublishFallbackV1JSON: a node without POST /eth/v2/beacon/blocks
// (Lodestar 1.5: 404) gets the block on v1 as JSON; one that refuses SSZ on
// v2 (415) too. A node that rejects the block itself gets no second try.
func TestPublishFallbackV1JSON(t *testing.T) {
	blk := &beacon.SignedBlockContents{Fork: params.ForkCapella, Capella: &beacon.SignedBeaconBlockCapella{Message: beacon.BeaconBlockCapella{Body: beacon.BeaconBlockBodyCapella{SyncAggregate: beacon.MainnetSpec.SyncAggregate()}}}}
	blk.Capella.Message.Slot = 1234
	want, err := blk.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []int{404, 415} {
		n := newFakeNode(t)
		if status == 415 {
			n.handle("POST", PathBlocksV2, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(415) })
		}
		n.handle("POST", PathBlocksV1, func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Content-Type") != "application/json" {
				w.WriteHeader(415)
			}
		})
		if err := newClient(t, n).Publish(context.Background(), blk, nil, nil, nil); err != nil {
			t.Fatalf("v2 answering %d: %v", status, err)
		}
		r, got := n.lastRequest()
		if r.URL.Path != PathBlocksV1 || string(got) != string(want) || !strings.Contains(string(got), `"slot":"1234"`) {
			t.Fatalf("v2 answering %d: last request %s %s", status, r.URL.Path, got)
		}
	}
	n := newFakeNode(t)
	n.handle("POST", PathBlocksV2, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) })
	if err := newClient(t, n).Publish(context.Background(), blk, nil, nil, nil); !errors.Is(err, ErrStatus) || n.count("POST", PathBlocksV1) != 0 {
		t.Fatalf("a 400 on v2: %v, %d v1 requests", err, n.count("POST", PathBlocksV1))
	}
}

// TestEpochDutiesLodestarLabels: Lodestar 1.5 answers the next epoch's
// proposer duties with the current epoch's slots; they are re-labelled by
// position. A stray duty of another epoch is dropped.
func TestEpochDutiesLodestarLabels(t *testing.T) {
	f := &follower{cfg: &params.BeaconConfig{SlotsPerEpoch: 8}}
	var d []ProposerDuty
	for i := range 8 {
		d = append(d, ProposerDuty{Slot: 8 + uint64(i), ValidatorIndex: uint64(7 - i)}) // epoch 1's slots
	}
	got := f.epochDuties(2, d)
	if len(got) != 8 || got[0].Slot != 16 || got[0].ValidatorIndex != 7 || got[7].Slot != 23 || got[7].ValidatorIndex != 0 {
		t.Fatalf("re-labelled duties %+v", got)
	}
	if d[0].Slot != 8 {
		t.Fatal("the node's answer was modified in place")
	}
	if got := f.epochDuties(1, d); len(got) != 8 || got[0].Slot != 8 {
		t.Fatalf("duties of the asked epoch: %+v", got)
	}
	if got := f.epochDuties(1, []ProposerDuty{{Slot: 9}, {Slot: 30}}); len(got) != 1 || got[0].Slot != 9 {
		t.Fatalf("a stray duty kept: %+v", got)
	}
}

package beaconclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

// Beacon API paths the client uses.
const (
	PathGenesis        = "/eth/v1/beacon/genesis"
	PathForkSchedule   = "/eth/v1/config/fork_schedule"
	PathSpec           = "/eth/v1/config/spec"
	PathSyncing        = "/eth/v1/node/syncing"
	PathProposerDuties = "/eth/v1/validator/duties/proposer/" // + epoch
	PathValidators     = "/eth/v1/beacon/states/head/validators"
	PathEvents         = "/eth/v1/events"
	PathBlocksV1       = "/eth/v1/beacon/blocks"
	PathBlocksV2       = "/eth/v2/beacon/blocks"
	PathBlindedV1      = "/eth/v1/beacon/blinded_blocks"
	PathBlindedV2      = "/eth/v2/beacon/blinded_blocks"
)

func missing(field string) error {
	return fmt.Errorf("%w: field %s is missing", ErrBadResponse, field)
}

// Genesis returns the chain's genesis time, validators root and fork version.
func (c *Client) Genesis(ctx context.Context) (*Genesis, error) {
	var g genesisJSON
	if err := c.getJSON(ctx, PathGenesis, nil, &g); err != nil {
		return nil, err
	}
	d := g.Data
	switch {
	case d.GenesisTime == nil:
		return nil, missing("data.genesis_time")
	case d.GenesisValidatorsRoot == nil:
		return nil, missing("data.genesis_validators_root")
	case d.GenesisForkVersion == nil:
		return nil, missing("data.genesis_fork_version")
	}
	return &Genesis{GenesisTime: uint64(*d.GenesisTime), GenesisValidatorsRoot: *d.GenesisValidatorsRoot, GenesisForkVersion: params.ForkVersion(*d.GenesisForkVersion)}, nil
}

// ForkSchedule returns the node's fork schedule, in activation order.
func (c *Client) ForkSchedule(ctx context.Context) ([]Fork, error) {
	var fs forkScheduleJSON
	if err := c.getJSON(ctx, PathForkSchedule, nil, &fs); err != nil {
		return nil, err
	}
	out := make([]Fork, 0, len(fs.Data))
	for i, f := range fs.Data {
		if f.PreviousVersion == nil || f.CurrentVersion == nil || f.Epoch == nil {
			return nil, missing(fmt.Sprintf("data[%d].previous_version, current_version or epoch", i))
		}
		out = append(out, Fork{PreviousVersion: params.ForkVersion(*f.PreviousVersion), CurrentVersion: params.ForkVersion(*f.CurrentVersion), Epoch: uint64(*f.Epoch)})
	}
	return out, nil
}

// Spec returns the node's configuration values that are strings (numbers
// and hex constants, keyed like SECONDS_PER_SLOT); structured values such
// as BLOB_SCHEDULE are left out.
func (c *Client) Spec(ctx context.Context) (map[string]string, error) {
	var sp struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if err := c.getJSON(ctx, PathSpec, nil, &sp); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(sp.Data))
	for k, raw := range sp.Data {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			out[k] = s
		}
	}
	return out, nil
}

// SyncStatus returns the sync status of the first node that answers.
func (c *Client) SyncStatus(ctx context.Context) (*SyncStatus, error) {
	var st *SyncStatus
	err := c.failover(ctx, func(ctx context.Context, node *url.URL) (err error) {
		st, err = c.nodeSyncStatus(ctx, node)
		return err
	})
	return st, err
}

func (c *Client) nodeSyncStatus(ctx context.Context, node *url.URL) (*SyncStatus, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	resp, err := c.do(ctx, node, http.MethodGet, PathSyncing, nil, nil, nil)
	if err != nil {
		return nil, err
	}
	var s syncStatusJSON
	if err := readJSON(node, resp, MaxResponseBytes, &s); err != nil {
		return nil, err
	}
	if s.Data.HeadSlot == nil {
		return nil, missing("data.head_slot")
	}
	return &SyncStatus{HeadSlot: uint64(*s.Data.HeadSlot), SyncDistance: uint64(s.Data.SyncDistance), IsSyncing: s.Data.IsSyncing, IsOptimistic: s.Data.IsOptimistic, ELOffline: s.Data.ELOffline}, nil
}

// BestSyncStatus asks every node at once and returns the status with the
// highest head slot among nodes that are not syncing (or, with
// allowSyncing, among all that answered). That node becomes the preferred
// one for reads.
func (c *Client) BestSyncStatus(ctx context.Context, allowSyncing bool) (*SyncStatus, error) {
	type result struct {
		st  *SyncStatus
		err error
	}
	res := make([]result, len(c.nodes))
	var wg sync.WaitGroup
	for i, n := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := c.nodeSyncStatus(ctx, n)
			res[i] = result{st, err}
		}()
	}
	wg.Wait()
	best := -1
	var errs []error
	for i, r := range res {
		switch {
		case r.err != nil:
			errs = append(errs, r.err)
		case r.st.IsSyncing && !allowSyncing:
			errs = append(errs, fmt.Errorf("beacon node %s is syncing (head slot %d, distance %d)", c.nodes[i].Redacted(), r.st.HeadSlot, r.st.SyncDistance))
		case best < 0 || r.st.HeadSlot > res[best].st.HeadSlot:
			best = i
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, errors.Join(errs...))
	}
	c.preferred.Store(int32(best))
	return res[best].st, nil
}

// ProposerDuties returns the proposer of each slot of epoch and the
// dependent root the duties were computed from.
func (c *Client) ProposerDuties(ctx context.Context, epoch uint64) ([]ProposerDuty, beacon.Root, error) {
	var d dutiesJSON
	if err := c.getJSON(ctx, PathProposerDuties+strconv.FormatUint(epoch, 10), nil, &d); err != nil {
		return nil, beacon.Root{}, err
	}
	out := make([]ProposerDuty, 0, len(d.Data))
	for i, e := range d.Data {
		if e.Pubkey == nil || e.ValidatorIndex == nil || e.Slot == nil {
			return nil, beacon.Root{}, missing(fmt.Sprintf("data[%d].pubkey, validator_index or slot", i))
		}
		out = append(out, ProposerDuty{Slot: uint64(*e.Slot), ValidatorIndex: uint64(*e.ValidatorIndex), Pubkey: *e.Pubkey})
	}
	var root beacon.Root
	if d.DependentRoot != nil {
		root = *d.DependentRoot
	}
	return out, root, nil
}

// knownStatuses are the validator statuses a relay accepts registrations
// from (active or pending), as repeated status= parameters of their
// sub-statuses: every beacon API version answers that, while a comma list
// or the top-level names return nothing from some clients (Lodestar 1.5).
var knownStatuses = []string{"pending_initialized", "pending_queued", "active_ongoing", "active_exiting", "active_slashed"}

// Validators returns the active and pending validators of the head state,
// by index. The answer is decoded as a stream: on mainnet it is hundreds of
// megabytes, of which only index and pubkey are kept.
func (c *Client) Validators(ctx context.Context) (map[uint64]beacon.BLSPubkey, error) {
	var out map[uint64]beacon.BLSPubkey
	err := c.failover(ctx, func(ctx context.Context, node *url.URL) error {
		ctx, cancel := context.WithTimeout(ctx, c.opts.ValidatorsTimeout)
		defer cancel()
		resp, err := c.do(ctx, node, http.MethodGet, PathValidators, url.Values{"status": knownStatuses}, nil, nil)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		m, err := decodeValidators(io.LimitReader(resp.Body, MaxValidatorsBytes))
		if err != nil {
			return fmt.Errorf("%w: %s: validators: %v", ErrBadResponse, node.Redacted(), err)
		}
		out = m
		return nil
	})
	return out, err
}

// decodeValidators reads {"data":[{"index":..,"validator":{"pubkey":..}},..],..}
// one list element at a time.
func decodeValidators(r io.Reader) (map[uint64]beacon.BLSPubkey, error) {
	dec := json.NewDecoder(r)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	var out map[uint64]beacon.BLSPubkey
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if key, _ := tok.(string); key != "data" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if err := expectDelim(dec, '['); err != nil {
			return nil, fmt.Errorf("data: %w", err)
		}
		out = make(map[uint64]beacon.BLSPubkey)
		for i := 0; dec.More(); i++ {
			var v struct {
				Index     *Uint64 `json:"index"`
				Validator struct {
					Pubkey *beacon.BLSPubkey `json:"pubkey"`
				} `json:"validator"`
			}
			if err := dec.Decode(&v); err != nil {
				return nil, fmt.Errorf("data[%d]: %w", i, err)
			}
			if v.Index == nil || v.Validator.Pubkey == nil {
				return nil, fmt.Errorf("data[%d]: index or validator.pubkey is missing", i)
			}
			out[uint64(*v.Index)] = *v.Validator.Pubkey
		}
		if err := expectDelim(dec, ']'); err != nil {
			return nil, err
		}
	}
	if out == nil {
		return nil, errors.New("field data is missing")
	}
	return out, nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, tok)
	}
	return nil
}

// NetworkConfig reads genesis, fork schedule and spec from the beacon nodes
// and returns the network's consensus constants: genesis time and
// validators root from /beacon/genesis; GENESIS_FORK_VERSION, slot timing
// and each fork's version and epoch (ALTAIR_FORK_VERSION,
// ALTAIR_FORK_EPOCH, ...) from /config/spec; a node whose spec lacks the
// fork keys has its /config/fork_schedule taken in order (entry 0 phase0,
// entry 1 altair, ...; entries past the newest fork gavel knows are
// ignored). GENESIS_FORK_VERSION comes from the spec because some nodes
// (Lodestar's dev mode) report the current fork's version as the genesis
// one. overrides replace the node's values, keyed as in the spec, plus
// GENESIS_TIME and GENESIS_VALIDATORS_ROOT.
//
// With a preset (mainnet, sepolia, ...) the node must be on that network:
// genesis validators root, genesis fork version, slot timing and the
// version of every fork both know must agree, else ErrMismatch says which
// value differs. The fork epochs come from the node.
//
// The returned beacon.Spec holds the preset values that shape the
// containers gavel decodes, hashes and signs (SYNC_COMMITTEE_SIZE,
// MAX_WITHDRAWALS_PER_PAYLOAD, ...; the list is beacon.Spec's doc): any
// preset works (mainnet, minimal, custom) unless a value is one gavel has
// no shape for, which is ErrPreset naming the value.
func (c *Client) NetworkConfig(ctx context.Context, preset *params.BeaconConfig, overrides map[string]string) (*params.BeaconConfig, *beacon.Spec, error) {
	g, err := c.Genesis(ctx)
	if err != nil {
		return nil, nil, err
	}
	spec, err := c.Spec(ctx)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range overrides {
		spec[k] = v
	}
	cfg := &params.BeaconConfig{Name: "custom", GenesisTime: g.GenesisTime, GenesisValidatorsRoot: g.GenesisValidatorsRoot, GenesisForkVersion: g.GenesisForkVersion}
	if preset != nil {
		cfg.Name = preset.Name
	}
	if s, ok := spec["GENESIS_TIME"]; ok {
		if cfg.GenesisTime, err = strconv.ParseUint(s, 10, 64); err != nil {
			return nil, nil, fmt.Errorf("%w: GENESIS_TIME %q, expected unix seconds", ErrBadResponse, s)
		}
	}
	if s, ok := spec["GENESIS_VALIDATORS_ROOT"]; ok {
		var root beacon.Root
		if err := root.UnmarshalText([]byte(s)); err != nil {
			return nil, nil, fmt.Errorf("%w: GENESIS_VALIDATORS_ROOT %q, expected 0x and 64 hex digits", ErrBadResponse, s)
		}
		cfg.GenesisValidatorsRoot = root
	}
	if s, ok := spec["GENESIS_FORK_VERSION"]; ok {
		var v Version
		if err := v.UnmarshalText([]byte(s)); err != nil {
			return nil, nil, fmt.Errorf("%w: spec GENESIS_FORK_VERSION: %v", ErrBadResponse, err)
		}
		cfg.GenesisForkVersion = params.ForkVersion(v)
	}
	if v, err := specUint(spec, "SECONDS_PER_SLOT"); err == nil {
		cfg.SecondsPerSlot = v
	} else if ms, err2 := specUint(spec, "SLOT_DURATION_MS"); err2 == nil && ms >= 1000 {
		cfg.SecondsPerSlot = ms / 1000
	} else {
		return nil, nil, err
	}
	if cfg.SlotsPerEpoch, err = specUint(spec, "SLOTS_PER_EPOCH"); err != nil {
		return nil, nil, err
	}
	cfg.Forks = []params.ForkSchedule{{Fork: params.ForkPhase0, Version: cfg.GenesisForkVersion}}
	for f := params.ForkAltair; f <= params.LatestConsensusFork; f++ {
		v, epoch, ok, err := specFork(spec, f)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			break
		}
		cfg.Forks = append(cfg.Forks, params.ForkSchedule{Fork: f, Version: v, Epoch: epoch})
	}
	if len(cfg.Forks) == 1 {
		// No fork keys in the spec: the fork schedule, in order.
		sched, err := c.ForkSchedule(ctx)
		if err != nil {
			return nil, nil, err
		}
		for i, f := range sched {
			if i == 0 || i > int(params.LatestConsensusFork) {
				continue
			}
			cfg.Forks = append(cfg.Forks, params.ForkSchedule{Fork: params.ConsensusFork(i), Version: f.CurrentVersion, Epoch: f.Epoch})
		}
	}
	sszSpec, err := beacon.SpecFromConfig(spec, lastScheduledFork(cfg))
	if err != nil {
		return nil, nil, err
	}
	if preset != nil {
		if err := checkPreset(cfg, preset); err != nil {
			return nil, nil, err
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
	}
	return cfg, sszSpec, nil
}

// lastScheduledFork is the newest fork of cfg with an epoch (a far-future
// epoch, 2^64-1, means not scheduled).
func lastScheduledFork(cfg *params.BeaconConfig) params.ConsensusFork {
	last := params.ForkPhase0
	for _, f := range cfg.Forks {
		if f.Epoch != math.MaxUint64 && f.Fork > last {
			last = f.Fork
		}
	}
	return last
}

// checkPreset reports how the node's constants differ from a preset's.
func checkPreset(node, preset *params.BeaconConfig) error {
	mismatch := func(what string, nodeV, presetV any) error {
		return fmt.Errorf("%w: the beacon node's %s is %v, the %s preset's is %v: is --relay.beacon a %s node?", ErrMismatch, what, nodeV, preset.Name, presetV, preset.Name)
	}
	switch {
	case node.GenesisValidatorsRoot != preset.GenesisValidatorsRoot:
		return mismatch("genesis validators root", beacon.Root(node.GenesisValidatorsRoot), beacon.Root(preset.GenesisValidatorsRoot))
	case node.GenesisForkVersion != preset.GenesisForkVersion:
		return mismatch("GENESIS_FORK_VERSION", node.GenesisForkVersion, preset.GenesisForkVersion)
	case node.SecondsPerSlot != preset.SecondsPerSlot:
		return mismatch("SECONDS_PER_SLOT", node.SecondsPerSlot, preset.SecondsPerSlot)
	case node.SlotsPerEpoch != preset.SlotsPerEpoch:
		return mismatch("SLOTS_PER_EPOCH", node.SlotsPerEpoch, preset.SlotsPerEpoch)
	}
	for _, f := range node.Forks {
		if int(f.Fork) < len(preset.Forks) && preset.Forks[f.Fork].Version != f.Version {
			return mismatch(strings.ToUpper(f.Fork.String())+"_FORK_VERSION", f.Version, preset.Forks[f.Fork].Version)
		}
	}
	return nil
}

// specFork reads a fork's <NAME>_FORK_VERSION and <NAME>_FORK_EPOCH from
// the spec (Deneb also under its old name, EIP4844); ok is false when the
// spec does not define the fork.
func specFork(spec map[string]string, f params.ConsensusFork) (v params.ForkVersion, epoch uint64, ok bool, err error) {
	names := []string{strings.ToUpper(f.String())}
	if f == params.ForkDeneb {
		names = append(names, "EIP4844")
	}
	for _, name := range names {
		vs, okV := spec[name+"_FORK_VERSION"]
		es, okE := spec[name+"_FORK_EPOCH"]
		if !okV || !okE {
			continue
		}
		var ver Version
		if err := ver.UnmarshalText([]byte(vs)); err != nil {
			return v, 0, false, fmt.Errorf("%w: spec %s_FORK_VERSION: %v", ErrBadResponse, name, err)
		}
		if epoch, err = strconv.ParseUint(es, 10, 64); err != nil {
			return v, 0, false, fmt.Errorf("%w: spec %s_FORK_EPOCH %q, expected an epoch", ErrBadResponse, name, es)
		}
		return params.ForkVersion(ver), epoch, true, nil
	}
	return v, 0, false, nil
}

func specUint(spec map[string]string, key string) (uint64, error) {
	s, ok := spec[key]
	if !ok {
		return 0, missing("spec " + key)
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		return 0, fmt.Errorf("%w: spec %s = %q, expected a positive number", ErrBadResponse, key, s)
	}
	return v, nil
}

// since reports the time from t in milliseconds, for logs.
func since(t time.Time) int64 { return time.Since(t).Milliseconds() }

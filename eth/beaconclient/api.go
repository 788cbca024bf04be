package beaconclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
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

// Validators returns the active and pending validators of the head state,
// by index. The answer is decoded as a stream: on mainnet it is hundreds of
// megabytes, of which only index and pubkey are kept.
func (c *Client) Validators(ctx context.Context) (map[uint64]beacon.BLSPubkey, error) {
	var out map[uint64]beacon.BLSPubkey
	err := c.failover(ctx, func(ctx context.Context, node *url.URL) error {
		ctx, cancel := context.WithTimeout(ctx, c.opts.ValidatorsTimeout)
		defer cancel()
		resp, err := c.do(ctx, node, http.MethodGet, PathValidators, url.Values{"status": {"active,pending"}}, nil, nil)
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
// and returns the network's consensus constants. With a preset (mainnet,
// sepolia, ...) the node must be on that network (same genesis validators
// root and genesis fork version, else ErrMismatch) and the fork epochs come
// from the node, matched to forks by version, as the reference relay does.
// Without a preset (a custom network) the node's schedule is taken in
// order: entry 0 is phase0, entry 1 altair, and so on; entries past the
// newest fork gavel knows are ignored.
func (c *Client) NetworkConfig(ctx context.Context, preset *params.BeaconConfig) (*params.BeaconConfig, error) {
	g, err := c.Genesis(ctx)
	if err != nil {
		return nil, err
	}
	sched, err := c.ForkSchedule(ctx)
	if err != nil {
		return nil, err
	}
	spec, err := c.Spec(ctx)
	if err != nil {
		return nil, err
	}
	cfg := &params.BeaconConfig{Name: "custom", SlotsPerEpoch: 32, SecondsPerSlot: 12}
	if preset != nil {
		if beacon.Root(preset.GenesisValidatorsRoot) != g.GenesisValidatorsRoot || preset.GenesisForkVersion != g.GenesisForkVersion {
			return nil, fmt.Errorf("%w: node has genesis validators root %s and fork version %s, %s has %s and %s", ErrMismatch,
				g.GenesisValidatorsRoot, g.GenesisForkVersion, preset.Name, beacon.Root(preset.GenesisValidatorsRoot), preset.GenesisForkVersion)
		}
		*cfg = *preset
		cfg.Forks = append([]params.ForkSchedule(nil), preset.Forks...)
	}
	cfg.GenesisTime, cfg.GenesisValidatorsRoot, cfg.GenesisForkVersion = g.GenesisTime, g.GenesisValidatorsRoot, g.GenesisForkVersion
	if v, err := specUint(spec, "SECONDS_PER_SLOT"); err == nil {
		cfg.SecondsPerSlot = v
	} else if ms, err2 := specUint(spec, "SLOT_DURATION_MS"); err2 == nil && ms >= 1000 {
		cfg.SecondsPerSlot = ms / 1000
	} else if preset == nil {
		return nil, err
	}
	if v, err := specUint(spec, "SLOTS_PER_EPOCH"); err == nil {
		cfg.SlotsPerEpoch = v
	} else if preset == nil {
		return nil, err
	}
	if preset != nil {
		for i := range cfg.Forks {
			for _, f := range sched {
				if f.CurrentVersion == cfg.Forks[i].Version {
					cfg.Forks[i].Epoch = f.Epoch
				}
			}
		}
	} else {
		cfg.Forks = nil
		for i, f := range sched {
			if i > int(params.LatestConsensusFork) {
				break
			}
			cfg.Forks = append(cfg.Forks, params.ForkSchedule{Fork: params.ConsensusFork(i), Version: f.CurrentVersion, Epoch: f.Epoch})
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadResponse, err)
	}
	return cfg, nil
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

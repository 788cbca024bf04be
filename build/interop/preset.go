package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The consensus preset of the devnet (-preset). Minimal is the default: it
// is what local devnets run (the shared Lodestar recipe, Kurtosis' minimal
// mode), and its sizes differ from mainnet's where gavel's relay decodes,
// hashes and signs (a 32-member sync committee, 4 withdrawals per payload),
// so the run proves gavel takes them from the beacon node's
// /eth/v1/config/spec. Mainnet stays available (-preset mainnet).

// presetMinimal and presetMainnet are the -preset values.
const (
	presetMinimal = "minimal"
	presetMainnet = "mainnet"
)

// checkPreset validates -preset.
func checkPreset(p string) error {
	if p != presetMinimal && p != presetMainnet {
		return fmt.Errorf("-preset %q: expected %s or %s", p, presetMinimal, presetMainnet)
	}
	return nil
}

// slotsPerEpoch is SLOTS_PER_EPOCH of the preset.
func (r *run) slotsPerEpoch() uint64 {
	if r.preset == presetMainnet {
		return 32
	}
	return 8
}

// defaultEpochs is how many epochs the run measures when -epochs is 0: 64
// slots either way (about 2 minutes of 2 s slots), so every check has
// several proposals of each validator.
func defaultEpochs(preset string) int {
	if preset == presetMainnet {
		return 2
	}
	return 8
}

// lodestarPresetArgs are the `lodestar dev` arguments that choose the
// preset and its chain config.
func (r *run) lodestarPresetArgs() []string {
	cfg := "chain-config-minimal.yaml"
	if r.preset == presetMainnet {
		cfg = "chain-config.yaml"
	}
	return []string{"--preset", r.preset, "--paramsFile", filepath.Join(r.here, "lodestar", cfg)}
}

// captureBlinded writes the first signed blinded block Lodestar sent gavel in
// the run, with what it takes to check its proposer signature offline (the
// proposer's pubkey, the genesis validators root and the fork version from
// the beacon node), to file as JSON: the fixture of core/beacon's test of a
// real minimal-preset blinded block.
func (r *run) captureBlinded(ctx context.Context, file string) error {
	restURL := fmt.Sprintf("http://127.0.0.1:%d", r.ports.rest)
	var body []byte
	var slot string
	r.calls.mu.Lock()
	for _, c := range r.calls.calls {
		var b struct {
			Message struct {
				Slot          string `json:"slot"`
				ProposerIndex string `json:"proposer_index"`
			} `json:"message"`
		}
		if c.method == "POST" && strings.Contains(c.path, "blinded_blocks") && c.status == 200 && json.Unmarshal(c.body, &b) == nil {
			body, slot = c.body, b.Message.Slot
			break
		}
	}
	r.calls.mu.Unlock()
	if body == nil {
		return fmt.Errorf("capture: no signed blinded block was delivered")
	}
	var blk struct {
		Message struct {
			ProposerIndex string `json:"proposer_index"`
		} `json:"message"`
	}
	if err := json.Unmarshal(body, &blk); err != nil {
		return err
	}
	var val struct {
		Data struct {
			Validator struct {
				Pubkey string `json:"pubkey"`
			} `json:"validator"`
		} `json:"data"`
	}
	if err := getJSON(ctx, restURL+"/eth/v1/beacon/states/head/validators/"+blk.Message.ProposerIndex, &val); err != nil {
		return fmt.Errorf("capture: proposer: %w", err)
	}
	var gen struct {
		Data struct {
			Root string `json:"genesis_validators_root"`
		} `json:"data"`
	}
	if err := getJSON(ctx, restURL+"/eth/v1/beacon/genesis", &gen); err != nil {
		return fmt.Errorf("capture: genesis: %w", err)
	}
	var spec struct {
		Data map[string]any `json:"data"`
	}
	if err := getJSON(ctx, restURL+"/eth/v1/config/spec", &spec); err != nil {
		return fmt.Errorf("capture: spec: %w", err)
	}
	keep := map[string]any{}
	for _, k := range []string{"PRESET_BASE", "CAPELLA_FORK_VERSION", "SYNC_COMMITTEE_SIZE", "MAX_WITHDRAWALS_PER_PAYLOAD", "SLOTS_PER_EPOCH"} {
		keep[k] = spec.Data[k]
	}
	out, err := json.MarshalIndent(map[string]any{
		"source":                  "make interop -preset " + r.preset + ": Lodestar 1.5.1 dev, the signed blinded block of slot " + slot + " as POSTed to gavel",
		"proposer_pubkey":         val.Data.Validator.Pubkey,
		"genesis_validators_root": gen.Data.Root,
		"spec":                    keep,
		"signed_blinded_block":    json.RawMessage(body),
	}, "", "  ")
	if err != nil {
		return err
	}
	step("captured the signed blinded block of slot " + slot + " in " + file + " (" + strconv.Itoa(len(body)) + " bytes)")
	return os.WriteFile(file, append(out, '\n'), 0o644)
}

// startupSlots bound the slots before the measured window: Lodestar's boot,
// its first registrations (retried once an epoch while the relay waits for
// the beacon node) and its builder circuit breaker (up to 32 slots on
// mainnet, a few epochs on minimal).
const startupSlots = 96

package beaconclient

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

// Uint64 is a beacon API number: a decimal string (a bare JSON number is
// accepted too, as some nodes send them in events).
type Uint64 uint64

// UnmarshalJSON implements json.Unmarshaler.
func (u *Uint64) UnmarshalJSON(b []byte) error {
	s := b
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	if len(s) == 0 || len(s) > 20 || bytes.ContainsAny(s, `"+-`) {
		return fmt.Errorf("beacon API number %.40s: expected a decimal string", b)
	}
	v, err := strconv.ParseUint(string(s), 10, 64)
	if err != nil {
		return fmt.Errorf("beacon API number %s: %w", b, err)
	}
	*u = Uint64(v)
	return nil
}

// Version is a 4-byte fork version in 0x hex.
type Version params.ForkVersion

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Version) UnmarshalText(b []byte) error {
	if len(b) != 10 || b[0] != '0' || b[1] != 'x' {
		return fmt.Errorf("fork version %q: expected 0x and 8 hex digits", b)
	}
	if _, err := hex.Decode(v[:], b[2:]); err != nil {
		return fmt.Errorf("fork version %q: %w", b, err)
	}
	return nil
}

// Genesis is /eth/v1/beacon/genesis.
type Genesis struct {
	GenesisTime           uint64
	GenesisValidatorsRoot beacon.Root
	GenesisForkVersion    params.ForkVersion
}

type genesisJSON struct {
	Data struct {
		GenesisTime           *Uint64      `json:"genesis_time"`
		GenesisValidatorsRoot *beacon.Root `json:"genesis_validators_root"`
		GenesisForkVersion    *Version     `json:"genesis_fork_version"`
	} `json:"data"`
}

// Fork is one entry of /eth/v1/config/fork_schedule.
type Fork struct {
	PreviousVersion params.ForkVersion
	CurrentVersion  params.ForkVersion
	Epoch           uint64
}

type forkScheduleJSON struct {
	Data []struct {
		PreviousVersion *Version `json:"previous_version"`
		CurrentVersion  *Version `json:"current_version"`
		Epoch           *Uint64  `json:"epoch"`
	} `json:"data"`
}

// SyncStatus is /eth/v1/node/syncing.
type SyncStatus struct {
	HeadSlot     uint64
	SyncDistance uint64
	IsSyncing    bool
	IsOptimistic bool
	ELOffline    bool
}

type syncStatusJSON struct {
	Data struct {
		HeadSlot     *Uint64 `json:"head_slot"`
		SyncDistance Uint64  `json:"sync_distance"`
		IsSyncing    bool    `json:"is_syncing"`
		IsOptimistic bool    `json:"is_optimistic"`
		ELOffline    bool    `json:"el_offline"`
	} `json:"data"`
}

// ProposerDuty is one entry of /eth/v1/validator/duties/proposer/{epoch}.
type ProposerDuty struct {
	Slot           uint64
	ValidatorIndex uint64
	Pubkey         beacon.BLSPubkey
}

type dutiesJSON struct {
	DependentRoot *beacon.Root `json:"dependent_root"`
	Data          []struct {
		Pubkey         *beacon.BLSPubkey `json:"pubkey"`
		ValidatorIndex *Uint64           `json:"validator_index"`
		Slot           *Uint64           `json:"slot"`
	} `json:"data"`
}

// HeadEvent is the "head" event: a new head block.
type HeadEvent struct {
	Slot                      uint64
	Block                     beacon.Root
	State                     beacon.Root
	EpochTransition           bool
	CurrentDutyDependentRoot  beacon.Root
	PreviousDutyDependentRoot beacon.Root
	ExecutionOptimistic       bool
}

type headJSON struct {
	Slot                      *Uint64      `json:"slot"`
	Block                     *beacon.Root `json:"block"`
	State                     beacon.Root  `json:"state"`
	EpochTransition           bool         `json:"epoch_transition"`
	CurrentDutyDependentRoot  beacon.Root  `json:"current_duty_dependent_root"`
	PreviousDutyDependentRoot beacon.Root  `json:"previous_duty_dependent_root"`
	ExecutionOptimistic       bool         `json:"execution_optimistic"`
}

// PayloadAttributesEvent is the "payload_attributes" event: what the beacon
// chain fixes for the execution payload of ProposalSlot on ParentBlockHash.
type PayloadAttributesEvent struct {
	Version           params.ConsensusFork
	ProposerIndex     uint64
	ProposalSlot      uint64
	ParentBlockNumber uint64
	ParentBlockRoot   beacon.Root
	ParentBlockHash   beacon.Root
	// Timestamp is the payload's timestamp (unix seconds).
	Timestamp             uint64
	PrevRandao            beacon.Root
	SuggestedFeeRecipient beacon.Address
	// Withdrawals is nil before Capella.
	Withdrawals []beacon.Withdrawal
	// ParentBeaconBlockRoot is zero before Deneb.
	ParentBeaconBlockRoot beacon.Root
}

type payloadAttributesJSON struct {
	Version string `json:"version"`
	Data    struct {
		ProposerIndex     *Uint64      `json:"proposer_index"`
		ProposalSlot      *Uint64      `json:"proposal_slot"`
		ParentBlockNumber Uint64       `json:"parent_block_number"`
		ParentBlockRoot   beacon.Root  `json:"parent_block_root"`
		ParentBlockHash   *beacon.Root `json:"parent_block_hash"`
		PayloadAttributes *struct {
			Timestamp             *Uint64             `json:"timestamp"`
			PrevRandao            *beacon.Root        `json:"prev_randao"`
			SuggestedFeeRecipient beacon.Address      `json:"suggested_fee_recipient"`
			Withdrawals           []beacon.Withdrawal `json:"withdrawals"`
			ParentBeaconBlockRoot *beacon.Root        `json:"parent_beacon_block_root"`
		} `json:"payload_attributes"`
	} `json:"data"`
}

package params

import (
	"errors"
	"fmt"
	"strings"
)

// ConsensusFork names an upgrade of the beacon chain. The zero value is Phase0;
// forks compare in activation order, so fork >= ForkDeneb means "Deneb or later".
type ConsensusFork uint8

// Consensus forks in activation order.
const (
	ForkPhase0 ConsensusFork = iota
	ForkAltair
	ForkBellatrix
	ForkCapella
	ForkDeneb
	ForkElectra
	ForkFulu
)

// LatestConsensusFork is the newest fork gavel knows about.
const LatestConsensusFork = ForkFulu

var forkNames = [...]string{"phase0", "altair", "bellatrix", "capella", "deneb", "electra", "fulu"}

// String returns the lower-case name used by the beacon API (the Eth-Consensus-Version
// header and the "version" field of versioned responses).
func (f ConsensusFork) String() string {
	if int(f) < len(forkNames) {
		return forkNames[f]
	}
	return fmt.Sprintf("fork(%d)", uint8(f))
}

// ErrUnknownFork is returned when a fork name or version is not one gavel knows.
var ErrUnknownFork = errors.New("unknown consensus fork")

// ParseConsensusFork parses a beacon-API fork name such as "deneb" (case-insensitive,
// as the Eth-Consensus-Version header is matched by consensus clients).
func ParseConsensusFork(name string) (ConsensusFork, error) {
	for i, n := range forkNames {
		if strings.EqualFold(n, name) {
			return ConsensusFork(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %q, expected one of %s", ErrUnknownFork, name, strings.Join(forkNames[:], ", "))
}

// ForkVersion is the 4-byte version of a fork, mixed into signing domains.
type ForkVersion [4]byte

// String returns the version as 0x-prefixed hex.
func (v ForkVersion) String() string { return fmt.Sprintf("%#x", v[:]) }

// FarFutureEpoch marks a fork that is not scheduled.
const FarFutureEpoch = ^uint64(0)

// ForkSchedule is one fork's version and activation epoch on a network.
type ForkSchedule struct {
	Fork    ConsensusFork
	Version ForkVersion
	Epoch   uint64
}

// BeaconConfig holds the consensus-layer constants of one network that a relay needs: which
// fork a slot belongs to, the fork versions and the genesis validators root that go into
// signing domains, and slot timing.
type BeaconConfig struct {
	Name                  string
	GenesisForkVersion    ForkVersion
	GenesisValidatorsRoot [32]byte
	GenesisTime           uint64 // unix seconds of slot 0
	SecondsPerSlot        uint64
	SlotsPerEpoch         uint64
	// Forks lists every fork from Phase0 on, in activation order, with
	// non-decreasing epochs. Forks[0] is Phase0 with GenesisForkVersion at epoch 0.
	Forks []ForkSchedule
}

// ForkAtEpoch returns the fork active at epoch.
func (c *BeaconConfig) ForkAtEpoch(epoch uint64) ConsensusFork {
	fork := ForkPhase0
	for _, f := range c.Forks {
		if f.Epoch != FarFutureEpoch && epoch >= f.Epoch {
			fork = f.Fork
		}
	}
	return fork
}

// ForkAtSlot returns the fork active at slot.
func (c *BeaconConfig) ForkAtSlot(slot uint64) ConsensusFork {
	return c.ForkAtEpoch(slot / c.SlotsPerEpoch)
}

// ForkVersion returns the version of fork on this network, or an error wrapping
// ErrUnknownFork if the network does not define it.
func (c *BeaconConfig) ForkVersion(fork ConsensusFork) (ForkVersion, error) {
	for _, f := range c.Forks {
		if f.Fork == fork {
			return f.Version, nil
		}
	}
	return ForkVersion{}, fmt.Errorf("%w: %s not defined on %s", ErrUnknownFork, fork, c.Name)
}

// ForkByVersion returns the fork that has version v on this network.
func (c *BeaconConfig) ForkByVersion(v ForkVersion) (ConsensusFork, error) {
	for _, f := range c.Forks {
		if f.Version == v {
			return f.Fork, nil
		}
	}
	return 0, fmt.Errorf("%w: version %s not used on %s", ErrUnknownFork, v, c.Name)
}

// Clock returns the network's slot clock.
func (c *BeaconConfig) Clock() SlotClock {
	return SlotClock{GenesisTime: c.GenesisTime, SecondsPerSlot: c.SecondsPerSlot}
}

// SlotTime returns the unix time in seconds at which slot starts (see SlotClock).
func (c *BeaconConfig) SlotTime(slot uint64) uint64 { return c.Clock().SlotTime(slot) }

// SlotAt returns the slot in progress at unix time t (see SlotClock).
func (c *BeaconConfig) SlotAt(t uint64) uint64 { return c.Clock().SlotAt(t) }

// Validate checks that the schedule is usable: slot timing set, Phase0 first with the
// genesis version at epoch 0, forks in order with non-decreasing epochs.
func (c *BeaconConfig) Validate() error {
	if c.SecondsPerSlot == 0 || c.SlotsPerEpoch == 0 {
		return fmt.Errorf("beacon config %s: seconds per slot and slots per epoch must be positive", c.Name)
	}
	if len(c.Forks) == 0 || c.Forks[0].Fork != ForkPhase0 || c.Forks[0].Epoch != 0 || c.Forks[0].Version != c.GenesisForkVersion {
		return fmt.Errorf("beacon config %s: schedule must start with phase0 at epoch 0 with the genesis fork version", c.Name)
	}
	for i := 1; i < len(c.Forks); i++ {
		prev, cur := c.Forks[i-1], c.Forks[i]
		if cur.Fork != prev.Fork+1 {
			return fmt.Errorf("beacon config %s: fork %s follows %s, expected %s", c.Name, cur.Fork, prev.Fork, prev.Fork+1)
		}
		if cur.Epoch < prev.Epoch {
			return fmt.Errorf("beacon config %s: %s epoch %d is before %s epoch %d", c.Name, cur.Fork, cur.Epoch, prev.Fork, prev.Epoch)
		}
	}
	return nil
}

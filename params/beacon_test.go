package params

import (
	"errors"
	"testing"
)

func TestBeaconConfigsValid(t *testing.T) {
	for name, c := range BeaconConfigs {
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if c.Name != name {
			t.Errorf("config %q registered as %q", c.Name, name)
		}
	}
	if err := DevBeaconConfig(1, 2, [32]byte{}).Validate(); err != nil {
		t.Errorf("dev: %v", err)
	}
}

func TestForkAtSlot(t *testing.T) {
	tests := []struct {
		cfg  *BeaconConfig
		slot uint64
		want ConsensusFork
	}{
		{MainnetBeaconConfig, 0, ForkPhase0},
		{MainnetBeaconConfig, 144896*32 - 1, ForkAltair},
		{MainnetBeaconConfig, 144896 * 32, ForkBellatrix},
		{MainnetBeaconConfig, 194048 * 32, ForkCapella},
		{MainnetBeaconConfig, 269568*32 + 31, ForkDeneb},
		{MainnetBeaconConfig, 364032 * 32, ForkElectra},
		{MainnetBeaconConfig, 411392 * 32, ForkFulu},
		{MainnetBeaconConfig, ^uint64(0), ForkFulu},
		{GoerliBeaconConfig, 5610357, ForkCapella},
		{GoerliBeaconConfig, 7433243, ForkDeneb},
		{HoodiBeaconConfig, 0, ForkDeneb},
		{HoodiBeaconConfig, 2048 * 32, ForkElectra},
		{DevBeaconConfig(0, 2, [32]byte{}), 0, ForkFulu},
	}
	for _, tt := range tests {
		if got := tt.cfg.ForkAtSlot(tt.slot); got != tt.want {
			t.Errorf("%s slot %d: got %s, want %s", tt.cfg.Name, tt.slot, got, tt.want)
		}
	}
}

func TestForkVersionLookups(t *testing.T) {
	v, err := SepoliaBeaconConfig.ForkVersion(ForkElectra)
	if err != nil || v != (ForkVersion{0x90, 0, 0, 0x74}) {
		t.Fatalf("sepolia electra version: %v %v", v, err)
	}
	if _, err := GoerliBeaconConfig.ForkVersion(ForkFulu); !errors.Is(err, ErrUnknownFork) {
		t.Fatalf("goerli fulu: got %v, want ErrUnknownFork", err)
	}
	f, err := HoleskyBeaconConfig.ForkByVersion(ForkVersion{0x06, 0x01, 0x70, 0x00})
	if err != nil || f != ForkElectra {
		t.Fatalf("holesky by version: %v %v", f, err)
	}
	if got := MainnetBeaconConfig.SlotTime(10); got != 1606824023+120 {
		t.Fatalf("slot time: %d", got)
	}
	if got := MainnetBeaconConfig.SlotAt(1606824023 + 125); got != 10 {
		t.Fatalf("slot at: %d", got)
	}
}

func TestParseConsensusFork(t *testing.T) {
	for f := ForkPhase0; f <= LatestConsensusFork; f++ {
		got, err := ParseConsensusFork(f.String())
		if err != nil || got != f {
			t.Errorf("%s: got %v %v", f, got, err)
		}
	}
	if f, err := ParseConsensusFork("Deneb"); err != nil || f != ForkDeneb {
		t.Errorf("case-insensitive parse failed: %v %v", f, err)
	}
	if _, err := ParseConsensusFork("gloas"); !errors.Is(err, ErrUnknownFork) {
		t.Errorf("gloas: got %v", err)
	}
}

func TestValidateRejectsBadSchedule(t *testing.T) {
	c := DevBeaconConfig(0, 2, [32]byte{})
	c.Forks[3].Epoch = 5 // capella after deneb (epoch 0)
	if err := c.Validate(); err == nil {
		t.Fatal("out-of-order epochs accepted")
	}
	c = DevBeaconConfig(0, 0, [32]byte{})
	if err := c.Validate(); err == nil {
		t.Fatal("zero seconds per slot accepted")
	}
}

func TestBeaconConfigForChain(t *testing.T) {
	for id, name := range map[uint64]string{1: "mainnet", 11155111: "sepolia", 17000: "holesky", 560048: "hoodi", 5: "goerli"} {
		if c := BeaconConfigForChain(id); c == nil || c.Name != name {
			t.Errorf("chain %d: got %v, want %s", id, c, name)
		}
	}
	if c := BeaconConfigForChain(1337); c != nil {
		t.Errorf("chain 1337: got %s, want none", c.Name)
	}
}

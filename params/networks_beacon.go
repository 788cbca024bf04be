package params

import "encoding/hex"

// Beacon network constants. Fork versions and genesis validators roots are the values the
// networks' consensus clients use; they end up in every signing domain, so a wrong byte here
// makes every signature check fail (the vector tests in core/beacon guard the values that
// real signatures exist for: mainnet builder domain, goerli builder and proposer domains).

// MainnetBeaconConfig is Ethereum mainnet.
var MainnetBeaconConfig = &BeaconConfig{
	Name:                  "mainnet",
	GenesisForkVersion:    ForkVersion{0x00, 0x00, 0x00, 0x00},
	GenesisValidatorsRoot: mustRoot("4b363db94e286120d76eb905340fdd4e54bfe9f06bf33ff6cf5ad27f511bfe95"),
	GenesisTime:           1606824023,
	SecondsPerSlot:        12,
	SlotsPerEpoch:         32,
	Forks: []ForkSchedule{
		{ForkPhase0, ForkVersion{0x00, 0x00, 0x00, 0x00}, 0},
		{ForkAltair, ForkVersion{0x01, 0x00, 0x00, 0x00}, 74240},
		{ForkBellatrix, ForkVersion{0x02, 0x00, 0x00, 0x00}, 144896},
		{ForkCapella, ForkVersion{0x03, 0x00, 0x00, 0x00}, 194048},
		{ForkDeneb, ForkVersion{0x04, 0x00, 0x00, 0x00}, 269568},
		{ForkElectra, ForkVersion{0x05, 0x00, 0x00, 0x00}, 364032},
		{ForkFulu, ForkVersion{0x06, 0x00, 0x00, 0x00}, 411392},
	},
}

// SepoliaBeaconConfig is the Sepolia testnet.
var SepoliaBeaconConfig = &BeaconConfig{
	Name:                  "sepolia",
	GenesisForkVersion:    ForkVersion{0x90, 0x00, 0x00, 0x69},
	GenesisValidatorsRoot: mustRoot("d8ea171f3c94aea21ebc42a1ed61052acf3f9209c00e4efbaaddac09ed9b8078"),
	GenesisTime:           1655733600,
	SecondsPerSlot:        12,
	SlotsPerEpoch:         32,
	Forks: []ForkSchedule{
		{ForkPhase0, ForkVersion{0x90, 0x00, 0x00, 0x69}, 0},
		{ForkAltair, ForkVersion{0x90, 0x00, 0x00, 0x70}, 50},
		{ForkBellatrix, ForkVersion{0x90, 0x00, 0x00, 0x71}, 100},
		{ForkCapella, ForkVersion{0x90, 0x00, 0x00, 0x72}, 56832},
		{ForkDeneb, ForkVersion{0x90, 0x00, 0x00, 0x73}, 132608},
		{ForkElectra, ForkVersion{0x90, 0x00, 0x00, 0x74}, 222464},
		{ForkFulu, ForkVersion{0x90, 0x00, 0x00, 0x75}, 272640},
	},
}

// HoleskyBeaconConfig is the Holesky testnet.
var HoleskyBeaconConfig = &BeaconConfig{
	Name:                  "holesky",
	GenesisForkVersion:    ForkVersion{0x01, 0x01, 0x70, 0x00},
	GenesisValidatorsRoot: mustRoot("9143aa7c615a7f7115e2b6aac319c03529df8242ae705fba9df39b79c59fa8b1"),
	GenesisTime:           1695902400,
	SecondsPerSlot:        12,
	SlotsPerEpoch:         32,
	Forks: []ForkSchedule{
		{ForkPhase0, ForkVersion{0x01, 0x01, 0x70, 0x00}, 0},
		{ForkAltair, ForkVersion{0x02, 0x01, 0x70, 0x00}, 0},
		{ForkBellatrix, ForkVersion{0x03, 0x01, 0x70, 0x00}, 0},
		{ForkCapella, ForkVersion{0x04, 0x01, 0x70, 0x00}, 256},
		{ForkDeneb, ForkVersion{0x05, 0x01, 0x70, 0x00}, 29696},
		{ForkElectra, ForkVersion{0x06, 0x01, 0x70, 0x00}, 115968},
		{ForkFulu, ForkVersion{0x07, 0x01, 0x70, 0x00}, 165120},
	},
}

// HoodiBeaconConfig is the Hoodi testnet. Its Fulu epoch (50688) comes from client
// configuration, not from the eth-clients/hoodi snapshot, which predates the schedule.
var HoodiBeaconConfig = &BeaconConfig{
	Name:                  "hoodi",
	GenesisForkVersion:    ForkVersion{0x10, 0x00, 0x09, 0x10},
	GenesisValidatorsRoot: mustRoot("212f13fc4df078b6cb7db228f1c8307566dcecf900867401a92023d7ba99cb5f"),
	GenesisTime:           1742213400,
	SecondsPerSlot:        12,
	SlotsPerEpoch:         32,
	Forks: []ForkSchedule{
		{ForkPhase0, ForkVersion{0x10, 0x00, 0x09, 0x10}, 0},
		{ForkAltair, ForkVersion{0x20, 0x00, 0x09, 0x10}, 0},
		{ForkBellatrix, ForkVersion{0x30, 0x00, 0x09, 0x10}, 0},
		{ForkCapella, ForkVersion{0x40, 0x00, 0x09, 0x10}, 0},
		{ForkDeneb, ForkVersion{0x50, 0x00, 0x09, 0x10}, 0},
		{ForkElectra, ForkVersion{0x60, 0x00, 0x09, 0x10}, 2048},
		{ForkFulu, ForkVersion{0x70, 0x00, 0x09, 0x10}, 50688},
	},
}

// GoerliBeaconConfig is the retired Goerli (Prater) testnet, kept because real relay test
// vectors were recorded there. Electra and Fulu never activated on it.
var GoerliBeaconConfig = &BeaconConfig{
	Name:                  "goerli",
	GenesisForkVersion:    ForkVersion{0x00, 0x00, 0x10, 0x20},
	GenesisValidatorsRoot: mustRoot("043db0d9a83813551ee2f33450d23797757d430911a9320530ad8a0eabc43efb"),
	GenesisTime:           1616508000,
	SecondsPerSlot:        12,
	SlotsPerEpoch:         32,
	Forks: []ForkSchedule{
		{ForkPhase0, ForkVersion{0x00, 0x00, 0x10, 0x20}, 0},
		{ForkAltair, ForkVersion{0x01, 0x00, 0x10, 0x20}, 36660},
		{ForkBellatrix, ForkVersion{0x02, 0x00, 0x10, 0x20}, 112260},
		{ForkCapella, ForkVersion{0x03, 0x00, 0x10, 0x20}, 162304},
		{ForkDeneb, ForkVersion{0x04, 0x00, 0x10, 0x20}, 231680},
	},
}

// DevGenesisForkVersion is the genesis fork version of gavel's dev chain (1337 = 0x539).
// Fork n of the dev chain has version {n, 0x00, 0x05, 0x39}.
var DevGenesisForkVersion = ForkVersion{0x00, 0x00, 0x05, 0x39}

// DevBeaconConfig returns the beacon constants of a gavel dev chain: every fork up to Fulu
// active from genesis, fork versions {n, 0x00, 0x05, 0x39}, and the given genesis time,
// slot duration and genesis validators root (the dev driver picks them at start-up).
func DevBeaconConfig(genesisTime, secondsPerSlot uint64, genesisValidatorsRoot [32]byte) *BeaconConfig {
	c := &BeaconConfig{
		Name:                  "dev",
		GenesisForkVersion:    DevGenesisForkVersion,
		GenesisValidatorsRoot: genesisValidatorsRoot,
		GenesisTime:           genesisTime,
		SecondsPerSlot:        secondsPerSlot,
		SlotsPerEpoch:         32,
	}
	for f := ForkPhase0; f <= LatestConsensusFork; f++ {
		c.Forks = append(c.Forks, ForkSchedule{f, ForkVersion{byte(f), 0x00, 0x05, 0x39}, 0})
	}
	return c
}

// BeaconConfigs lists the preset public networks by name.
var BeaconConfigs = map[string]*BeaconConfig{
	"mainnet": MainnetBeaconConfig,
	"sepolia": SepoliaBeaconConfig,
	"holesky": HoleskyBeaconConfig,
	"hoodi":   HoodiBeaconConfig,
	"goerli":  GoerliBeaconConfig,
}

// beaconChainIDs maps the execution chain id of each public network to its
// beacon preset.
var beaconChainIDs = map[uint64]*BeaconConfig{
	1:        MainnetBeaconConfig,
	11155111: SepoliaBeaconConfig,
	17000:    HoleskyBeaconConfig,
	560048:   HoodiBeaconConfig,
	5:        GoerliBeaconConfig,
}

// BeaconConfigForChain returns the beacon constants of the public network
// whose execution chain id is chainID, or nil when gavel knows none.
func BeaconConfigForChain(chainID uint64) *BeaconConfig { return beaconChainIDs[chainID] }

func mustRoot(s string) (r [32]byte) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		panic("params: bad root constant " + s)
	}
	copy(r[:], b)
	return r
}

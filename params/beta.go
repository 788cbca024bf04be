package params

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// BetaNetwork is a second-layer deployment of the beta-block auction: the
// L2 chain and the contracts the beta-block builder reads.
type BetaNetwork struct {
	Name            string
	L2ChainID       uint64 // chain id of the second layer
	L1ChainID       uint64 // chain id beta bundles are signed for
	Auctioneer      common.Address
	SettlementHouse common.Address
}

// BetaNetworks are the --beta.network presets. The addresses are those the
// project's documentation publishes (docs-xga "Deployed Addresses"); the
// testnet addresses differ between its docs, SDK and tests, so check them
// against the L2 you point at (or pass --beta.auctioneer and
// --beta.settlementhouse).
var BetaNetworks = map[string]BetaNetwork{
	"main": {
		Name: "main", L2ChainID: 7890785, L1ChainID: 1,
		Auctioneer:      common.HexToAddress("0x86Bc75A43704E38f0FD94BdA423C50071fE17c99"),
		SettlementHouse: common.HexToAddress("0x80C5FfF824d14c87C799D6F90b7D8e0a715bd33C"),
	},
	"test": {
		Name: "test", L2ChainID: 42169, L1ChainID: 17000,
		Auctioneer:      common.HexToAddress("0xD88e271AD39dAb4DEB0f7f9475d993ed4Bf5029b"),
		SettlementHouse: common.HexToAddress("0x7Ac1A452B59114Fb1E67470720343A2e9AE18297"),
	},
}

// BetaNetworkByName returns a --beta.network preset.
func BetaNetworkByName(name string) (BetaNetwork, error) {
	if n, ok := BetaNetworks[name]; ok {
		return n, nil
	}
	names := make([]string, 0, len(BetaNetworks))
	for k := range BetaNetworks {
		names = append(names, k)
	}
	sort.Strings(names)
	return BetaNetwork{}, fmt.Errorf("unknown beta network %q: expected one of %s", name, strings.Join(names, ", "))
}

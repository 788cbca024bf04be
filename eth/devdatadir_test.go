package eth

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/params"
)

// TestCheckDevDatadir: --dev continues a chain it created, whatever its
// chain id unless --dev.chainid names another; it refuses a chain merged at
// genesis that it did not create, even with the chain id asked for. Each
// refusal names both chains and what to do.
func TestCheckDevDatadir(t *testing.T) {
	dev := func(id uint64) *core.Genesis {
		g := chain.DevGenesis(params.DevGasLimit, 1_700_000_000)
		cfg := *g.Config
		cfg.ChainID = new(big.Int).SetUint64(id)
		g.Config = &cfg
		return g
	}
	custom := dev(32382)
	delete(custom.Alloc, chain.DevBuilderAddress()) // merged at genesis, not made by --dev
	hash := common.HexToHash("0x01")
	for _, c := range []struct {
		name   string
		g      *core.Genesis
		wantID uint64
		want   []string // nil: accepted
	}{
		{"empty datadir", nil, 0, nil},
		{"dev chain", dev(1337), 0, nil},
		{"dev chain of --dev.chainid, started without it", dev(901), 0, nil},
		{"dev chain, --dev.chainid matches", dev(901), 901, nil},
		{"dev chain, --dev.chainid differs", dev(901), 902, []string{
			"/d holds the dev chain with chain id 901 (genesis " + hash.Hex() + "); --dev.chainid asks for chain id 902",
			"drop --dev.chainid (or give 901) to continue the stored chain, or give --dev a new --datadir for chain id 902"}},
		{"custom network", custom, 0, []string{
			"/d holds chain id 32382", "which --dev did not create", "--dev runs gavel's dev chain (chain id 1337)",
			"gavel --datadir /d --syncmode full"}},
		{"custom network, --dev.chainid its id", custom, 32382, []string{"which --dev did not create", "(chain id 32382)"}},
	} {
		err := checkDevDatadir("/d", c.g, hash, c.wantID)
		if c.want == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrIncompatibleChain) {
			t.Errorf("%s: %v, want ErrIncompatibleChain", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
	}
}

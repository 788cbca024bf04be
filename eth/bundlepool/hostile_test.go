package bundlepool

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/params"
)

// tx signs a transfer by key with the given nonce and tip (max fee 2 gwei).
func tx(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, tip int64) hexutil.Bytes {
	t.Helper()
	to := common.Address{1}
	signed, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(2e9), Gas: 21000, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := signed.MarshalBinary()
	return raw
}

// devPool is a pool over a real in-memory dev chain (the dev accounts are
// funded), with the admission check on.
func devPool(t testing.TB, cfg Config) *Pool {
	c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	p := New(cfg, params.DevChainID, func() uint64 { return c.Head().Number.Uint64() }, nil)
	p.SetAccounts(c)
	return p
}

// TestPoolFlood is finding 2: a key without funds cannot put anything in
// the pool; a funded flooder is held to its per-IP and per-signer quotas
// and to the byte budget; a full pool evicts the least valuable bundle for
// a better one; and an honest bundle is accepted throughout.
func TestPoolFlood(t *testing.T) {
	p := devPool(t, Config{MaxBundles: 40, MaxPerBlock: 100, MaxPerIP: 10, MaxPerSigner: 15})
	honest := params.DevAccounts()[0].Key
	send := func(key *ecdsa.PrivateKey, nonce uint64, tip int64, signer common.Address, ip string) error {
		_, err := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx(t, key, nonce, tip)}, BlockNumber: 1}, signer, ip)
		return err
	}

	// No funds: refused by the admission check, nothing pending.
	empty, _ := crypto.GenerateKey()
	for i := uint64(0); i < 50; i++ {
		if err := send(empty, i, 1, common.Address{}, "10.0.0.1"); !errors.Is(err, ErrInsufficientFunds) {
			t.Fatalf("bundle from an empty account: %v", err)
		}
	}
	if p.Len() != 0 {
		t.Fatalf("%d bundles pending from an empty account", p.Len())
	}
	// Funded, unsigned, one IP: 10 pending, then 429-class quota errors.
	flooder := params.DevAccounts()[1].Key
	for i := uint64(0); i < 20; i++ {
		err := send(flooder, i, 1, common.Address{}, "10.0.0.2")
		if i < 10 && err != nil || i >= 10 && !errors.Is(err, ErrQuota) {
			t.Fatalf("flood bundle %d from one IP: %v", i, err)
		}
	}
	// Signed from many IPs: the signer's quota (15) holds.
	signer := common.Address{0x51}
	for i := uint64(0); i < 20; i++ {
		err := send(flooder, 100+i, 1, signer, fmt.Sprintf("10.1.0.%d", i))
		if i < 15 && err != nil || i >= 15 && !errors.Is(err, ErrQuota) {
			t.Fatalf("flood bundle %d of one signer: %v", i, err)
		}
	}
	// Unsigned from many IPs: the pool fills (40), then refuses equal bids.
	for i := uint64(0); p.Len() < 40; i++ {
		if err := send(flooder, 200+i, 1, common.Address{}, fmt.Sprintf("10.2.0.%d", i)); err != nil {
			t.Fatalf("filling: %v", err)
		}
	}
	if err := send(flooder, 300, 1, common.Address{}, "10.3.0.1"); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("equal bid into a full pool: %v", err)
	}
	// An honest bundle paying more is accepted: the newest cheapest goes.
	if err := send(honest, 0, 2, common.Address{}, "192.0.2.1"); err != nil {
		t.Fatalf("honest bundle during the flood: %v", err)
	}
	if p.Len() != 40 {
		t.Fatalf("%d pending after an eviction, want 40", p.Len())
	}

	// Nonce below the account's, a fee cap under any possible base fee.
	if err := send(honest, 0, 3, common.Address{}, "192.0.2.1"); err != nil {
		t.Fatalf("nonce at the account's: %v", err)
	}
	low := devPool(t, Config{})
	to := common.Address{1}
	cheap, _ := types.SignNewTx(honest, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1), Gas: 21000, To: &to})
	raw, _ := cheap.MarshalBinary()
	if _, err := low.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{raw}, BlockNumber: 1}, common.Address{}, ""); !errors.Is(err, ErrFeeCapTooLow) {
		t.Fatalf("max fee 1 wei: %v", err)
	}
}

// TestPoolByteBudget: bundles that would pass the pool's byte budget are
// refused unless they outbid what is pending.
func TestPoolByteBudget(t *testing.T) {
	one := len(tx(t, params.DevAccounts()[0].Key, 0, 1))
	p := devPool(t, Config{MaxPoolBytes: 3 * one})
	for i := uint64(0); i < 3; i++ {
		if _, err := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx(t, params.DevAccounts()[1].Key, i, 1)}, BlockNumber: 1}, common.Address{}, fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx(t, params.DevAccounts()[1].Key, 3, 1)}, BlockNumber: 1}, common.Address{}, "x"); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("over the byte budget: %v", err)
	}
	if _, err := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx(t, params.DevAccounts()[0].Key, 0, 5)}, BlockNumber: 1}, common.Address{}, "y"); err != nil || p.Len() != 3 {
		t.Fatalf("a better bundle over the byte budget: %v, %d pending", err, p.Len())
	}
}

// TestReplayAndOwnership is finding 7: a cancelled uuid stays cancelled for
// its block range (replaying the send does not bring the bundle back); a
// uuid is scoped to its signer, so an unsigned bundle's uuid cannot be
// taken over by a signer, nor a signer's by an unsigned request.
func TestReplayAndOwnership(t *testing.T) {
	head := uint64(10)
	p := New(Config{}, params.DevChainID, func() uint64 { return head }, nil)
	alice := common.Address{0xa}
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	args := bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 12, ReplacementUUID: uuid}
	h, err := p.Add(args, alice)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Cancel(uuid, alice); err != nil || got != h {
		t.Fatalf("cancel: %v", err)
	}
	if _, err := p.Add(args, alice); !errors.Is(err, ErrCancelled) {
		t.Fatalf("replay after cancel: %v", err)
	}
	earlier := args
	earlier.BlockNumber = 11
	if _, err := p.Add(earlier, alice); !errors.Is(err, ErrCancelled) {
		t.Fatalf("same uuid for an earlier block after cancel: %v", err)
	}
	later := args
	later.BlockNumber = 13
	if _, err := p.Add(later, alice); err != nil {
		t.Fatalf("same uuid past the cancelled range: %v", err)
	}

	// Unsigned and signed uuids never meet.
	other := "00000000-0000-0000-0000-000000000001"
	unsigned := bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 5)}, BlockNumber: 12, ReplacementUUID: other}
	uh, err := p.Add(unsigned, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	takeover := bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 6)}, BlockNumber: 12, ReplacementUUID: other}
	if _, err := p.Add(takeover, alice); err != nil {
		t.Fatal(err)
	}
	if bs := p.Bundles(12, 0); len(bs) != 2 {
		t.Fatalf("a signer's bundle with an unsigned uuid replaced it: %d bundles for block 12", len(bs))
	}
	if got, err := p.Cancel(other, alice); err != nil || got == uh {
		t.Fatalf("the signer cancelled %s (%v), not its own", got, err)
	}
	if bs := p.Bundles(12, 0); len(bs) != 1 || bs[0].Hash != uh {
		t.Fatal("the unsigned bundle did not survive the signer's cancel")
	}
}

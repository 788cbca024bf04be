package params

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// deriveDevKey derives m/44'/60'/0'/0/i from DevMnemonic (BIP-39 seed,
// BIP-32 derivation), independently of the built-in key table.
func deriveDevKey(t *testing.T, i uint32) []byte {
	seed, err := pbkdf2.Key(sha512.New, DevMnemonic, []byte("mnemonic"), 2048, 64)
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha512.New, []byte("Bitcoin seed"))
	mac.Write(seed)
	sum := mac.Sum(nil)
	key, chain := new(big.Int).SetBytes(sum[:32]), sum[32:]
	n := crypto.S256().Params().N
	const hardened = 1 << 31
	for _, idx := range []uint32{44 + hardened, 60 + hardened, 0 + hardened, 0, i} {
		var data []byte
		if idx >= hardened {
			data = append([]byte{0}, key.FillBytes(make([]byte, 32))...)
		} else {
			priv, err := crypto.ToECDSA(key.FillBytes(make([]byte, 32)))
			if err != nil {
				t.Fatal(err)
			}
			data = crypto.CompressPubkey(&priv.PublicKey)
		}
		data = binary.BigEndian.AppendUint32(data, idx)
		mac := hmac.New(sha512.New, chain)
		mac.Write(data)
		sum := mac.Sum(nil)
		key = new(big.Int).Mod(new(big.Int).Add(new(big.Int).SetBytes(sum[:32]), key), n)
		chain = sum[32:]
	}
	return key.FillBytes(make([]byte, 32))
}

func TestDevAccountsMatchMnemonic(t *testing.T) {
	accs := DevAccounts()
	if len(accs) != 10 {
		t.Fatalf("%d dev accounts, want 10", len(accs))
	}
	seen := map[string]bool{}
	for i, acc := range accs {
		want := deriveDevKey(t, uint32(i))
		if got := crypto.FromECDSA(acc.Key); string(got) != string(want) {
			t.Fatalf("account %d: built-in key %x, mnemonic derives %x", i, got, want)
		}
		if acc.Address != crypto.PubkeyToAddress(acc.Key.PublicKey) {
			t.Fatalf("account %d: address does not match key", i)
		}
		if seen[acc.Address.Hex()] {
			t.Fatalf("account %d: duplicate address", i)
		}
		seen[acc.Address.Hex()] = true
	}
	// The first account is the well-known one every tool prints.
	if got := accs[0].Address.Hex(); got != "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" {
		t.Fatalf("account 0 is %s", got)
	}
}

// TestDevAuctionKeys: the dev auction's keys are keccak256 of their documented
// strings and none is one of the ten test accounts.
func TestDevAuctionKeys(t *testing.T) {
	want := []string{DevOwnerSeed, DevOperatorSeed, DevBidderSeedPrefix + "1", DevBidderSeedPrefix + "2"}
	accs := DevAuctionAccounts()
	if len(accs) != len(want) {
		t.Fatalf("%d auction accounts, want %d", len(accs), len(want))
	}
	test := map[string]bool{}
	for _, acc := range DevAccounts() {
		test[acc.Address.Hex()] = true
	}
	for i, acc := range accs {
		if got := crypto.FromECDSA(acc.Key); string(got) != string(crypto.Keccak256([]byte(want[i]))) {
			t.Errorf("key %d is not keccak256(%q)", i, want[i])
		}
		if test[acc.Address.Hex()] {
			t.Errorf("auction account %d is a test account", i)
		}
		test[acc.Address.Hex()] = true
	}
	if got := DevOperatorKey().Address.Hex(); got != "0x3cE2CdE45aA340f92b8f2bbBBAF40d97c040c108" {
		t.Errorf("operator is %s, the docs say 0x3cE2CdE45aA340f92b8f2bbBBAF40d97c040c108", got)
	}
}

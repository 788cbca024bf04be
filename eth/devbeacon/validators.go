package devbeacon

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

// DefaultValidators is how many dev validators --dev runs (--dev.validators).
const DefaultValidators = 4

// Validator is a dev validator: a deterministic BLS key and its own fee
// recipient.
type Validator struct {
	Index        uint64
	Key          *beacon.SecretKey
	Pubkey       beacon.BLSPubkey
	FeeRecipient common.Address
}

// DevValidators returns n dev validators. Keys and fee recipients depend
// only on the index, so every run (and a restarted node) has the same ones.
func DevValidators(n int) ([]Validator, error) {
	if n <= 0 || n > 1<<16 {
		return nil, fmt.Errorf("dev validators: %d is out of range 1..65536", n)
	}
	out := make([]Validator, n)
	for i := range out {
		var idx [8]byte
		binary.BigEndian.PutUint64(idx[:], uint64(i))
		ikm := sha256.Sum256(append([]byte("gavel dev validator "), idx[:]...))
		key, err := beacon.DeriveSecretKey(ikm[:])
		if err != nil {
			return nil, err
		}
		out[i] = Validator{
			Index: uint64(i), Key: key, Pubkey: key.PublicKey(),
			FeeRecipient: common.BytesToAddress(crypto.Keccak256([]byte("gavel dev fee recipient "), idx[:])[12:]),
		}
	}
	return out, nil
}

// ProposerOf is the dev validator proposing slot: index slot mod n.
func ProposerOf(validators []Validator, slot uint64) Validator {
	return validators[slot%uint64(len(validators))]
}

// Registration is the validator's signed registration (builder domain of
// cfg) for its fee recipient and gasLimit at timestamp.
func (v Validator) Registration(cfg *params.BeaconConfig, gasLimit, timestamp uint64) (beacon.SignedValidatorRegistration, error) {
	msg := beacon.ValidatorRegistration{FeeRecipient: beacon.Address(v.FeeRecipient), GasLimit: gasLimit, Timestamp: timestamp, Pubkey: v.Pubkey}
	sig, err := v.Key.Sign(&msg, beacon.BuilderDomain(cfg))
	if err != nil {
		return beacon.SignedValidatorRegistration{}, err
	}
	return beacon.SignedValidatorRegistration{Message: msg, Signature: sig}, nil
}

// DevGenesisValidatorsRoot is the genesis validators root of a dev chain:
// derived from the execution genesis hash, so signatures of one dev chain
// do not verify on another.
func DevGenesisValidatorsRoot(genesisHash common.Hash) [32]byte {
	return sha256.Sum256(append([]byte("gavel dev genesis validators root "), genesisHash[:]...))
}

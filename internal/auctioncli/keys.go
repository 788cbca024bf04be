package auctioncli

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// ErrNoKey is returned when a command that sends transactions got no key.
var ErrNoKey = errors.New("no key: pass --key <hex private key> or --keystore <file or dir> (with --account and --password)")

// ErrBadKey is returned for a key that cannot be used.
var ErrBadKey = errors.New("invalid key")

// keySource says where the signing key comes from.
type keySource struct {
	hex      string // --key
	keystore string // --keystore: key file or directory
	account  string // --account: address to pick in a keystore directory
	password string // --password: file holding the passphrase
}

func (k keySource) empty() bool { return k.hex == "" && k.keystore == "" }

// load returns the private key.
func (k keySource) load() (*ecdsa.PrivateKey, error) {
	if k.hex != "" {
		key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(k.hex), "0x"))
		if err != nil {
			return nil, fmt.Errorf("%w: --key must be 32 bytes of hex: %v", ErrBadKey, err)
		}
		return key, nil
	}
	if k.keystore == "" {
		return nil, ErrNoKey
	}
	file, err := k.keyFile()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadKey, err)
	}
	pass := ""
	if k.password != "" {
		p, err := os.ReadFile(k.password)
		if err != nil {
			return nil, fmt.Errorf("%w: reading --password: %v", ErrBadKey, err)
		}
		pass = strings.TrimRight(string(p), "\r\n")
	}
	key, err := keystore.DecryptKey(data, pass)
	if err != nil {
		return nil, fmt.Errorf("%w: decrypting %s: %v", ErrBadKey, file, err)
	}
	return key.PrivateKey, nil
}

// keyFile finds the keystore file: --keystore itself, or the file of --account
// in the --keystore directory (the only one when there is one).
func (k keySource) keyFile() (string, error) {
	info, err := os.Stat(k.keystore)
	if err != nil {
		return "", fmt.Errorf("%w: --keystore: %v", ErrBadKey, err)
	}
	if !info.IsDir() {
		return k.keystore, nil
	}
	entries, err := os.ReadDir(k.keystore)
	if err != nil {
		return "", fmt.Errorf("%w: --keystore: %v", ErrBadKey, err)
	}
	var want common.Address
	if k.account != "" {
		if !common.IsHexAddress(k.account) {
			return "", fmt.Errorf("%w: --account %q is not an address", ErrBadKey, k.account)
		}
		want = common.HexToAddress(k.account)
	}
	var found []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		path := filepath.Join(k.keystore, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var head struct {
			Address string `json:"address"`
		}
		if json.Unmarshal(data, &head) != nil || !common.IsHexAddress(head.Address) {
			continue
		}
		if k.account == "" || common.HexToAddress(head.Address) == want {
			found = append(found, path)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0 && k.account != "":
		return "", fmt.Errorf("%w: no key for %s in %s", ErrBadKey, want, k.keystore)
	case len(found) == 0:
		return "", fmt.Errorf("%w: no key files in %s", ErrBadKey, k.keystore)
	}
	return "", fmt.Errorf("%w: %d keys in %s: choose one with --account", ErrBadKey, len(found), k.keystore)
}

package auctioncli

import "crypto/ecdsa"

// LoadKey loads a signing key as `gavel auction` does: a hex private key, or
// a keystore file (or directory, with account choosing the key) decrypted
// with the passphrase in the password file. Other commands (`gavel bundle`)
// share it.
func LoadKey(hexKey, keystore, account, password string) (*ecdsa.PrivateKey, error) {
	return keySource{hex: hexKey, keystore: keystore, account: account, password: password}.load()
}

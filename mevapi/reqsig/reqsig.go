// Package reqsig verifies the request signatures searchers put on JSON-RPC
// calls to the MEV listener: X-Ethereum-Signature and its Flashbots twin
// X-Flashbots-Signature. Both carry "<address>:<signature>", where the
// signature is an EIP-191 personal_sign over the text "0x" + lowercase hex of
// keccak256(raw body). Verification runs over the raw bytes, before parsing,
// because any re-serialisation would change the hash.
package reqsig

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// Header names that carry a request signature. Lookups through
// http.Header.Get are case-insensitive, so "x-flashbots-signature" (what
// ethers v6 sends) matches too.
const (
	HeaderEthereum  = "X-Ethereum-Signature"
	HeaderFlashbots = "X-Flashbots-Signature"
)

// Errors a verification can end in. Every error Verify returns wraps one of
// them, so callers can branch with errors.Is and still show the detail.
var (
	ErrNoSignature       = errors.New("no request signature")
	ErrMalformedHeader   = errors.New("malformed signature header")
	ErrBadAddress        = errors.New("bad signer address")
	ErrBadSignatureHex   = errors.New("bad signature hex")
	ErrBadSignatureLen   = errors.New("bad signature length")
	ErrBadRecoveryID     = errors.New("bad signature recovery id")
	ErrSignerMismatch    = errors.New("signer mismatch")
	ErrConflictingHeader = errors.New("conflicting signature headers")
	ErrHighS             = errors.New("non-canonical signature")
)

// FromRequest returns the signature header value of r: X-Ethereum-Signature,
// or X-Flashbots-Signature when the former is absent. Every value of both
// headers (a header may be repeated) must carry the same address and
// signature (compared case-insensitively): otherwise the caller could not say
// which one the server checked, so it is an error. The first value is
// returned.
func FromRequest(h http.Header) (string, error) {
	var value, from string
	for _, name := range []string{HeaderEthereum, HeaderFlashbots} {
		for _, v := range h.Values(name) {
			switch {
			case value == "":
				value, from = v, name
			case !sameSignature(v, value) && name == from:
				return "", fmt.Errorf("%w: %s is repeated with different values, expected every value to carry the same address and signature", ErrConflictingHeader, name)
			case !sameSignature(v, value):
				return "", fmt.Errorf("%w: the values of %s and %s differ, expected both to carry the same address and signature", ErrConflictingHeader, from, name)
			}
		}
	}
	return value, nil
}

// sameSignature reports whether two header values carry the same address and
// signature. Hex is case-insensitive, and addresses are commonly sent in their
// checksummed (mixed) case by one library and in lower case by another.
func sameSignature(a, b string) bool {
	addrA, sigA, _ := strings.Cut(a, ":")
	addrB, sigB, _ := strings.Cut(b, ":")
	return strings.EqualFold(strings.TrimSpace(addrA), strings.TrimSpace(addrB)) &&
		strings.EqualFold(strings.TrimSpace(sigA), strings.TrimSpace(sigB))
}

// Hash returns the digest a signer signs for body: the EIP-191 text hash of
// "0x" + lowercase hex keccak256(body).
func Hash(body []byte) []byte {
	return accounts.TextHash([]byte(crypto.Keccak256Hash(body).Hex()))
}

// Sign returns the header value "<checksummed address>:<0x signature>" for
// body, with v = 27/28 as ethers and Flashbots' go-utils emit it. Tests and
// clients use it.
func Sign(body []byte, key *ecdsa.PrivateKey) (string, error) {
	sig, err := crypto.Sign(Hash(body), key)
	if err != nil {
		return "", err
	}
	sig[crypto.RecoveryIDOffset] += 27
	return crypto.PubkeyToAddress(key.PublicKey).Hex() + ":" + hexutil.Encode(sig), nil
}

// Verify checks a header value against body and returns the signer. The
// value is "<address>:<signature>", both 0x-prefixed hex; the split is at the
// first colon. v may be 27/28 or 0/1. The stated address is compared with the
// recovered one case-insensitively (checksummed or not).
func Verify(header string, body []byte) (common.Address, error) {
	if header == "" {
		return common.Address{}, ErrNoSignature
	}
	addrText, sigText, ok := strings.Cut(header, ":")
	if !ok {
		return common.Address{}, fmt.Errorf("%w: expected \"<address>:<signature>\", found no colon", ErrMalformedHeader)
	}
	addrText, sigText = strings.TrimSpace(addrText), strings.TrimSpace(sigText)
	if !has0x(addrText) || len(addrText) != 42 {
		return common.Address{}, fmt.Errorf("%w: expected 0x followed by 40 hex digits, got %q", ErrBadAddress, clip(addrText))
	}
	claimed, err := hexutil.Decode(addrText)
	if err != nil {
		return common.Address{}, fmt.Errorf("%w: %q: %v", ErrBadAddress, clip(addrText), err)
	}
	if !has0x(sigText) {
		return common.Address{}, fmt.Errorf("%w: signature must start with 0x, got %q", ErrBadSignatureHex, clip(sigText))
	}
	sig, err := hexutil.Decode(sigText)
	if err != nil {
		return common.Address{}, fmt.Errorf("%w: %q: %v", ErrBadSignatureHex, clip(sigText), err)
	}
	if len(sig) != crypto.SignatureLength {
		return common.Address{}, fmt.Errorf("%w: got %d bytes, expected %d", ErrBadSignatureLen, len(sig), crypto.SignatureLength)
	}
	if sig[crypto.RecoveryIDOffset] >= 27 {
		sig[crypto.RecoveryIDOffset] -= 27
	}
	if v := sig[crypto.RecoveryIDOffset]; v > 1 {
		return common.Address{}, fmt.Errorf("%w: v is %d, expected 27, 28, 0 or 1", ErrBadRecoveryID, v)
	}
	if !crypto.ValidateSignatureValues(sig[crypto.RecoveryIDOffset], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:64]), true) {
		return common.Address{}, fmt.Errorf("%w: r or s out of range (s must be in the lower half of the curve order, EIP-2)", ErrHighS)
	}
	digest := Hash(body)
	pub, err := crypto.SigToPub(digest, sig)
	if err != nil {
		return common.Address{}, fmt.Errorf("%w: cannot recover a key: %v", ErrSignerMismatch, err)
	}
	signer := crypto.PubkeyToAddress(*pub)
	if signer != common.BytesToAddress(claimed) {
		return common.Address{}, fmt.Errorf("%w: header names %s but the body was signed by %s (was the body changed, or signed as 32 raw bytes instead of the 0x-hex text?)",
			ErrSignerMismatch, common.BytesToAddress(claimed).Hex(), signer.Hex())
	}
	return signer, nil
}

func has0x(s string) bool { return len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') }

// clip keeps error messages short when a client sends something huge.
func clip(s string) string {
	if len(s) > 140 {
		return s[:140] + "..."
	}
	return s
}

type signerKey struct{}

// WithSigner returns ctx carrying the verified signer of the request, for
// services that keep per-signer records.
func WithSigner(ctx context.Context, signer common.Address) context.Context {
	return context.WithValue(ctx, signerKey{}, signer)
}

// SignerFrom returns the verified signer WithSigner stored, if any.
func SignerFrom(ctx context.Context) (common.Address, bool) {
	a, ok := ctx.Value(signerKey{}).(common.Address)
	return a, ok
}

type clientIPKey struct{}

// WithClientIP returns ctx carrying the client IP address of the request,
// for services that keep per-IP quotas.
func WithClientIP(ctx context.Context, ip string) context.Context {
	return context.WithValue(ctx, clientIPKey{}, ip)
}

// ClientIPFrom returns the client IP WithClientIP stored or, for calls on
// geth's own RPC endpoints, the RPC peer's address ("" when neither).
func ClientIPFrom(ctx context.Context) string {
	if ip, _ := ctx.Value(clientIPKey{}).(string); ip != "" {
		return ip
	}
	addr := rpc.PeerInfoFromContext(ctx).RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

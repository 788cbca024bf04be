package jsonrpc

import (
	"fmt"
	"strings"

	"github.com/gavel-eth/gavel/internal/defaults"
)

// AuthMode says when the MEV listener's JSON-RPC endpoints require a request
// signature. /v1/auction always requires one.
type AuthMode string

// Auth modes.
const (
	// AuthOptional verifies a signature when present (a bad one is 401) and
	// accepts unsigned requests.
	AuthOptional AuthMode = "optional"
	// AuthRequired answers unsigned requests with 401 on every endpoint.
	AuthRequired AuthMode = "required"
)

// Config is the MEV listener's JSON-RPC configuration ([Mev] section,
// --mev.* flags).
type Config struct {
	// Auth is "optional" (default) or "required" (--mev.auth).
	Auth AuthMode `toml:",omitempty"`
	// BodyLimit is the largest JSON-RPC body accepted, in bytes (5 MiB);
	// one more byte is answered with 413.
	BodyLimit int64 `toml:",omitempty"`
	// BatchItemLimit is the most calls one batch may hold (100).
	BatchItemLimit int `toml:",omitempty"`
	// BatchResponseLimit caps a batch response, in bytes (25 MiB).
	BatchResponseLimit int `toml:",omitempty"`
	// IPRate is the sustained requests per second allowed per client IP;
	// 0 turns the per-IP limit off (default). IPBurst is the bucket size.
	IPRate  float64 `toml:",omitempty"`
	IPBurst int     `toml:",omitempty"`
	// SignerRate and SignerBurst are the same per request signer; 0 = off.
	SignerRate  float64 `toml:",omitempty"`
	SignerBurst int     `toml:",omitempty"`
}

// DefaultConfig is what gavel uses when nothing is configured: optional
// signatures, 5 MiB bodies, batches of 100, no rate limits.
var DefaultConfig = Config{
	Auth:               AuthOptional,
	BodyLimit:          5 << 20,
	BatchItemLimit:     100,
	BatchResponseLimit: 25 << 20,
}

// withDefaults fills zero fields from DefaultConfig and checks the rest.
func (c Config) withDefaults() (Config, error) {
	if c.Auth == "" {
		c.Auth = DefaultConfig.Auth
	}
	c.Auth = AuthMode(strings.ToLower(string(c.Auth)))
	if c.Auth != AuthOptional && c.Auth != AuthRequired {
		return c, fmt.Errorf("mev auth mode %q: expected %q or %q", c.Auth, AuthOptional, AuthRequired)
	}
	defaults.Set(&c.BodyLimit, DefaultConfig.BodyLimit)
	defaults.Set(&c.BatchItemLimit, DefaultConfig.BatchItemLimit)
	defaults.Set(&c.BatchResponseLimit, DefaultConfig.BatchResponseLimit)
	if c.IPRate < 0 || c.SignerRate < 0 {
		return c, fmt.Errorf("negative rate limit (ip %v, signer %v): use 0 to turn a limit off", c.IPRate, c.SignerRate)
	}
	if c.IPRate > 0 && c.IPBurst <= 0 {
		c.IPBurst = max(1, int(c.IPRate))
	}
	if c.SignerRate > 0 && c.SignerBurst <= 0 {
		c.SignerBurst = max(1, int(c.SignerRate))
	}
	return c, nil
}

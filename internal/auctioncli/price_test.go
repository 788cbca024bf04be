package auctioncli

import (
	"errors"
	"strings"
	"testing"
)

// TestParsePrice: a price per gas names its unit; a bare number, which
// would be wei, is refused with an example.
func TestParsePrice(t *testing.T) {
	for in, want := range map[string]string{"1gwei": "1000000000", "0.5gwei": "500000000", "1000wei": "1000", "1 GWEI": "1000000000"} {
		got, err := ParsePrice(in)
		if err != nil || got.String() != want {
			t.Errorf("ParsePrice(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	_, err := ParsePrice("1")
	if !errors.Is(err, ErrPriceUnit) || !strings.Contains(err.Error(), `"1", expected e.g. 1gwei or 1wei`) {
		t.Fatalf("bare number: %v", err)
	}
	if _, err := ParsePrice("x"); !errors.Is(err, ErrBadAmount) {
		t.Fatalf("not a number: %v", err)
	}
}

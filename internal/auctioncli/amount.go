package auctioncli

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrBadAmount is returned for an amount that does not parse.
var ErrBadAmount = errors.New("invalid amount")

// maxAmountLen bounds the input so hostile strings cannot cost much.
const maxAmountLen = 100

var units = []struct {
	suffix   string
	decimals int
}{
	{"ether", 18}, {"eth", 18}, {"gwei", 9}, {"wei", 0},
}

// ErrPriceUnit is returned for a price per gas given without a unit.
var ErrPriceUnit = errors.New("a price per gas needs a unit")

// ParsePrice parses a price per gas, which must name its unit ("2gwei",
// "0.5gwei", "1000wei"): a bare number would be wei, a billionth of the
// gwei a bidder usually means, and a bid at it is placed without a word.
func ParsePrice(s string) (*big.Int, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	for _, u := range units {
		if strings.HasSuffix(in, u.suffix) {
			return ParseAmount(s)
		}
	}
	if _, err := ParseAmount(s); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: %q, expected e.g. %sgwei or %swei", ErrPriceUnit, s, in, in)
}

// ParseAmount parses a wei amount: a plain integer ("1000"), or a decimal
// with a unit ("1.5ether", "2 gwei", "10eth", "7wei"). It rejects negative
// values, more decimals than the unit has, and anything else with ErrBadAmount.
func ParseAmount(s string) (*big.Int, error) {
	if len(s) > maxAmountLen {
		return nil, fmt.Errorf("%w: %d characters, at most %d", ErrBadAmount, len(s), maxAmountLen)
	}
	in := strings.ToLower(strings.TrimSpace(s))
	decimals := 0
	for _, u := range units {
		if strings.HasSuffix(in, u.suffix) {
			in = strings.TrimSpace(strings.TrimSuffix(in, u.suffix))
			decimals = u.decimals
			break
		}
	}
	whole, frac, hasDot := strings.Cut(in, ".")
	if whole == "" && (!hasDot || frac == "") {
		return nil, fmt.Errorf("%w: %q, expected a number such as 1000, 2gwei or 1.5ether", ErrBadAmount, s)
	}
	if !digits(whole) || !digits(frac) {
		return nil, fmt.Errorf("%w: %q, expected a non-negative number such as 1000, 2gwei or 1.5ether", ErrBadAmount, s)
	}
	if len(frac) > decimals {
		return nil, fmt.Errorf("%w: %q has more decimals than the unit allows (%d)", ErrBadAmount, s, decimals)
	}
	v, _ := new(big.Int).SetString(whole+frac+strings.Repeat("0", decimals-len(frac)), 10)
	if v == nil {
		v = new(big.Int)
	}
	return v, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// FormatWei writes wei with its ether or gwei value when that is shorter to read.
func FormatWei(v *big.Int) string {
	if v == nil {
		return "0"
	}
	switch {
	case v.Sign() == 0:
		return "0"
	case v.CmpAbs(big.NewInt(1e15)) >= 0:
		return fmt.Sprintf("%s wei (%s ether)", v, decimal(v, 18))
	case v.CmpAbs(big.NewInt(1e6)) >= 0:
		return fmt.Sprintf("%s wei (%s gwei)", v, decimal(v, 9))
	}
	return v.String() + " wei"
}

func decimal(v *big.Int, decimals int) string {
	s := new(big.Int).Abs(v).String()
	if len(s) <= decimals {
		s = strings.Repeat("0", decimals-len(s)+1) + s
	}
	whole, frac := s[:len(s)-decimals], strings.TrimRight(s[len(s)-decimals:], "0")
	if v.Sign() < 0 {
		whole = "-" + whole
	}
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

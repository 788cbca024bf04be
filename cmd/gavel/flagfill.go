package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// How gavel's flags meet the config file: a flag given on the command line
// wins over the file; a flag not given leaves the file's setting, except
// where the file left a setting out and the flag's default fills it
// (fillFromFlag).

// setIfGiven sets *dst to get(name) when the flag called name is given, and
// reports whether it was. get is the cli.Context getter of the flag's type
// (ctx.String for a StringFlag, ctx.StringSlice for a StringSliceFlag, ...).
func setIfGiven[T any](ctx *cli.Context, name string, get func(string) T, dst *T) bool {
	if !ctx.IsSet(name) {
		return false
	}
	*dst = get(name)
	return true
}

// fillFromFlag sets *dst to the value of the flag called name when the flag
// is given, or when *dst is still zero (the config file left it out): a
// given flag wins over the file, the flag's default fills what the file left
// out. T is the flag's value type (uint64 for a Uint64Flag, int for an
// IntFlag, time.Duration for a DurationFlag).
func fillFromFlag[T comparable](ctx *cli.Context, name string, dst *T) {
	var zero T
	if ctx.IsSet(name) || *dst == zero {
		*dst = ctx.Value(name).(T)
	}
}

// positiveValue is a flag value type that checkPositive can compare with 0
// (time.Duration is an int64).
type positiveValue interface {
	~int | ~int64 | ~float64
}

// checkPositive fails with a usage error naming --name when v, the flag's
// effective value, is not above 0.
func checkPositive[T positiveValue](name string, v T) error {
	if v <= 0 {
		return fmt.Errorf("%w: --%s must be positive: got %v", errUsage, name, v)
	}
	return nil
}

// setPositiveIfGiven is setIfGiven for a flag whose value must be above 0:
// a given value that is not fails with a usage error and leaves *dst alone.
func setPositiveIfGiven[T positiveValue](ctx *cli.Context, name string, get func(string) T, dst *T) error {
	if !ctx.IsSet(name) {
		return nil
	}
	v := get(name)
	if err := checkPositive(name, v); err != nil {
		return err
	}
	*dst = v
	return nil
}

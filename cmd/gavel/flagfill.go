package main

import "github.com/urfave/cli/v2"

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

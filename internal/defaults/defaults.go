// Package defaults fills in the numeric config fields a user left out.
package defaults

// Number is a numeric config field: a count, a size or a time.Duration.
type Number interface {
	~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64 | ~float64
}

// Set sets *v to d when *v is zero or below, that is left out of the config
// (or given as a value that means nothing for a count, a size or a timeout).
func Set[T Number](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

package defaults

import (
	"testing"
	"time"
)

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		name    string
		v, want time.Duration
	}{
		{"zero takes the default", 0, time.Second},
		{"negative takes the default", -1, time.Second},
		{"given stays", time.Minute, time.Minute},
	} {
		v := tc.v
		Set(&v, time.Second)
		if v != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, v, tc.want)
		}
	}
	var n uint64
	Set(&n, 7)
	if n != 7 {
		t.Errorf("unsigned zero: got %d, want 7", n)
	}
	n = 3
	Set(&n, 7)
	if n != 3 {
		t.Errorf("unsigned given: got %d, want 3", n)
	}
}

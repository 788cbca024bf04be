package main

import (
	"strings"
	"testing"
)

// TestSchedShareFlag: --sched.share lands in [Mev.Sched] Share (0.5 by
// default, 0 for no bound); a negative share is refused naming the flag.
func TestSchedShareFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "Share = 5e-01"},
		{[]string{"--sched.share", "0.25"}, "Share = 2.5e-01"},
		{[]string{"--sched.share", "0"}, "Share = 0e+00"},
	} {
		out, errOut, code := gavel(t, append([]string{"dumpconfig", "--ipcdisable"}, tc.args...)...)
		if code != 0 || !strings.Contains(out, "[Mev.Sched]") || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d %s: dumpconfig lacks %q:\n%s", tc.args, code, errOut, tc.want, out)
		}
	}
	_, errOut, code := gavel(t, "dumpconfig", "--ipcdisable", "--sched.share", "-1")
	if code == 0 || !strings.Contains(errOut, "--sched.share") {
		t.Errorf("--sched.share -1: exit %d, stderr %q should name the flag", code, errOut)
	}
}

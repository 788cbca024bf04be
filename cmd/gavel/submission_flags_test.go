package main

import (
	"strings"
	"testing"
)

func TestSubmissionFlags(t *testing.T) {
	out, errOut, code := gavel(t, "dumpconfig", "--ipcdisable", "--mev.auth", "required", "--beta.horizon", "7",
		"--mev.rpc.maxbody", "1000", "--mev.ratelimit.ip", "50", "--mev.ratelimit.signer", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"[Mev.Submission.RPC]", `Auth = "required"`, "BodyLimit = 1000", "IPRate = 5e+01", "SignerRate = 5e+00", "Horizon = 7"} {
		if !strings.Contains(out, want) {
			t.Errorf("dumpconfig lacks %q:\n%s", want, out)
		}
	}
	for _, tc := range []struct{ args []string }{
		{[]string{"--mev.auth", "sometimes"}},
		{[]string{"--beta.horizon", "0"}},
		{[]string{"--mev.rpc.maxbody", "0"}},
		{[]string{"--mev.ratelimit.ip", "-1"}},
	} {
		_, errOut, code := gavel(t, append([]string{"dumpconfig", "--ipcdisable"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.args[0]) {
			t.Errorf("%v: exit %d, stderr %q should name the flag", tc.args, code, errOut)
		}
	}
}

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

func TestBetaFlags(t *testing.T) {
	out, errOut, code := gavel(t, "dumpconfig", "--ipcdisable", "--beta.l2rpc", "ws://127.0.0.1:9999", "--beta.network", "main",
		"--beta.settlementhouse", "0x00000000000000000000000000000000000000aa")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"[Mev.Beta]", `L2RPC = "ws://127.0.0.1:9999"`, `Network = "main"`, `SettlementHouse = "0x00000000000000000000000000000000000000aa"`, "[Mev.Beta.Settlement]"} {
		if !strings.Contains(out, want) {
			t.Errorf("dumpconfig lacks %q:\n%s", want, out)
		}
	}
	for _, args := range [][]string{{"--beta.network", "moon"}, {"--beta.l2rpc", "127.0.0.1:8545"}} {
		_, errOut, code := gavel(t, append([]string{"dumpconfig", "--ipcdisable"}, args...)...)
		if code == 0 || !strings.Contains(errOut, args[0]) {
			t.Errorf("%v: exit %d, stderr %q should name the flag", args, code, errOut)
		}
	}
}

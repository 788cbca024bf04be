package relayapi_test

import (
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestUnsupportedContentType: registrations and builder submissions decode
// application/json and application/octet-stream, and a body without
// Content-Type as JSON (the reference relay's reading); any other type is
// 415 naming the type and what is accepted (builder-specs), never decoded
// as JSON by guess.
func TestUnsupportedContentType(t *testing.T) {
	e, base := server(t)
	var regs []beacon.SignedValidatorRegistration
	for _, v := range e.Validators {
		regs = append(regs, e.Registration(v, relaytest.GasLimit, e.Beacon.GenesisTime+1))
	}
	regJSON, _ := beacon.EncodeRegistrationsJSON(regs)
	for _, ct := range []string{"text/plain", "application/xml", "application/x-www-form-urlencoded"} {
		code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, regJSON, map[string]string{"Content-Type": ct})
		want := `{"code":415,"message":"unsupported Content-Type \"` + ct + `\": expected application/json, application/octet-stream or none (JSON)"}` + "\n"
		if code != 415 || string(out) != want {
			t.Fatalf("registration as %s: %d %s, want 415 %s", ct, code, out, want)
		}
	}
	// No Content-Type: JSON.
	if code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, regJSON, nil); code != 200 {
		t.Fatalf("registration without Content-Type: %d %s", code, out)
	}
	// With parameters, as clients send it.
	if code, _, out := do(t, "POST", base+relayapi.PathRegisterValidator, regJSON, map[string]string{"Content-Type": "application/json; charset=utf-8"}); code != 200 {
		t.Fatalf("registration as JSON with charset: %d %s", code, out)
	}

	sub, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalJSON()
	for _, ct := range []string{"text/plain", "application/xml"} {
		code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, sub, map[string]string{"Content-Type": ct})
		if code != 415 || errorMessage(t, out) != `unsupported Content-Type "`+ct+`": expected application/json, application/octet-stream or none (JSON)` {
			t.Fatalf("submission as %s: %d %s", ct, code, out)
		}
	}
	if code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, sub, nil); code != 200 {
		t.Fatalf("submission without Content-Type: %d %s", code, out)
	}
}

package conformance

import (
	"strings"
	"testing"
)

// TestSchemaReports: each kind of departure from a spec schema is reported
// with its path, so that the conformance test can fail.
func TestSchemaReports(t *testing.T) {
	reg := `{"message":{"fee_recipient":"0x` + strings.Repeat("ab", 20) + `","gas_limit":"30000000","timestamp":"1","pubkey":"0x` + strings.Repeat("cd", 48) + `"},"signature":"0x` + strings.Repeat("ef", 96) + `"}`
	if p := Check(SignedValidatorRegistration, []byte(reg)); len(p) != 0 {
		t.Fatalf("a conforming registration: %v", p)
	}
	for _, tc := range []struct{ body, want string }{
		{strings.Replace(reg, `"30000000"`, `30000000`, 1), `$.message.gas_limit: a number, want a decimal string`},
		{strings.Replace(reg, `"timestamp":"1"`, `"timestamp":"01"`, 1), `$.message.timestamp: "01" is not a decimal integer without leading zeros`},
		{strings.Replace(reg, `"0xabab`, `"0xABAB`, 1), `$.message.fee_recipient: "0xABAB`},
		{strings.Replace(reg, `"0xabab`, `"0xab`, 1), `$.message.fee_recipient: 19 bytes, want 20`},
		{strings.Replace(reg, `,"signature":"0x`+strings.Repeat("ef", 96)+`"`, ``, 1), `$: required field "signature" missing`},
		{strings.Replace(reg, `"signature"`, `"extra":1,"signature"`, 1), `$: field "extra" is not in the schema`},
		{`[` + reg + `]`, `$: an array, want an object`},
	} {
		p := Check(SignedValidatorRegistration, []byte(tc.body))
		if len(p) == 0 || !strings.HasPrefix(p[0], tc.want) {
			t.Errorf("%s: %v, want %q", tc.body, p, tc.want)
		}
	}
	if p := Check(ErrorMessage, []byte(`{"code":"400","message":"x"}`)); len(p) != 1 {
		t.Errorf("a string code: %v", p)
	}
	if p := Check(Uint256, []byte(`"`+strings.Repeat("9", 79)+`"`)); len(p) != 1 {
		t.Errorf("79 digits: %v", p)
	}
}

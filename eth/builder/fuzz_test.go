package builder

import (
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

// FuzzParseValidators: an external relay's validators answer never panics
// the parser; a well-formed answer gives the slot's registration.
func FuzzParseValidators(f *testing.F) {
	reg := beacon.SignedValidatorRegistration{Message: beacon.ValidatorRegistration{GasLimit: 30_000_000, Timestamp: 1}}
	raw, err := beacon.EncodeRegistrationsJSON([]beacon.SignedValidatorRegistration{reg})
	if err != nil {
		f.Fatal(err)
	}
	entry := string(raw[1 : len(raw)-1])
	good := []byte(`[{"slot":"7","validator_index":"1","entry":` + entry + `,"beta_gas":"0"}]`)
	if ps, err := parseValidators(good); err != nil || ps[7].GasLimit != 30_000_000 {
		f.Fatalf("a relay's answer: %v %v", ps, err)
	}
	f.Add(good)
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"slot":"x","entry":{}}]`))
	f.Add([]byte(`[{"slot":"1"}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = parseValidators(body) // must not panic
	})
}

package beacon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

var validBidTrace = `{"slot":"1","parent_hash":"0x` + zeros32 + `","block_hash":"0x` + zeros32 + `","builder_pubkey":"0x` + zeros48 + `","proposer_pubkey":"0x` + zeros48 + `","proposer_fee_recipient":"0x` + zeros20 + `","gas_limit":"30000000","gas_used":"0","value":"1000"}`

var (
	zeros20 = strings.Repeat("00", 20)
	zeros32 = strings.Repeat("00", 32)
	zeros48 = strings.Repeat("00", 48)
)

func TestJSONStrictness(t *testing.T) {
	var ok BidTrace
	if err := UnmarshalJSONStrict([]byte(validBidTrace), &ok); err != nil {
		t.Fatalf("valid bid trace rejected: %v", err)
	}
	if ok.Slot != 1 || ok.GasLimit != 30000000 || ok.Value != U256FromUint64(1000) {
		t.Fatalf("decoded wrong values: %+v", ok)
	}
	replace := func(old, new string) string { return strings.Replace(validBidTrace, old, new, 1) }
	tests := []struct {
		name  string
		input string
		want  error
		path  string
	}{
		{"unknown field", replace(`"slot":"1"`, `"slot":"1","extra":"1"`), ErrUnknownField, "extra"},
		{"field name case", replace(`"slot"`, `"Slot"`), ErrUnknownField, "Slot"},
		{"missing field", replace(`"gas_used":"0",`, ``), ErrMissingField, "gas_used"},
		{"duplicate field", replace(`"slot":"1"`, `"slot":"1","slot":"2"`), ErrDuplicateField, "slot"},
		{"null", replace(`"slot":"1"`, `"slot":null`), ErrInvalidJSON, "slot"},
		{"bare number", replace(`"slot":"1"`, `"slot":1`), ErrInvalidJSON, "slot"},
		{"leading zero", replace(`"slot":"1"`, `"slot":"01"`), ErrInvalidNumber, "slot"},
		{"sign", replace(`"slot":"1"`, `"slot":"+1"`), ErrInvalidNumber, "slot"},
		{"negative", replace(`"slot":"1"`, `"slot":"-1"`), ErrInvalidNumber, "slot"},
		{"hex uint64", replace(`"slot":"1"`, `"slot":"0x1"`), ErrInvalidNumber, "slot"},
		{"empty number", replace(`"slot":"1"`, `"slot":""`), ErrInvalidNumber, "slot"},
		{"uint64 overflow", replace(`"slot":"1"`, `"slot":"18446744073709551616"`), ErrInvalidNumber, "slot"},
		{"uint256 overflow", replace(`"value":"1000"`, `"value":"115792089237316195423570985008687907853269984665640564039457584007913129639936"`), ErrInvalidNumber, "value"},
		{"hex without prefix", replace(`"parent_hash":"0x`, `"parent_hash":"00`), ErrInvalidHex, "parent_hash"},
		{"upper-case prefix", replace(`"parent_hash":"0x`, `"parent_hash":"0X`), ErrInvalidHex, "parent_hash"},
		{"odd hex", replace(`"proposer_fee_recipient":"0x`+zeros20, `"proposer_fee_recipient":"0x0`+zeros20), ErrInvalidHex, "proposer_fee_recipient"},
		{"short hash", replace(`"block_hash":"0x`+zeros32, `"block_hash":"0x`+zeros20), ErrInvalidLength, "block_hash"},
		{"long pubkey", replace(`"builder_pubkey":"0x`+zeros48, `"builder_pubkey":"0x`+zeros48+"00"), ErrInvalidLength, "builder_pubkey"},
		{"bad hex digit", replace(`"parent_hash":"0x00`, `"parent_hash":"0xzz`), ErrInvalidHex, "parent_hash"},
		{"trailing data", validBidTrace + `{}`, ErrInvalidJSON, ""},
		{"truncated", validBidTrace[:len(validBidTrace)-5], ErrInvalidJSON, ""},
		{"array instead of object", `[]`, ErrInvalidJSON, ""},
		{"empty input", ``, ErrInvalidJSON, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b BidTrace
			err := UnmarshalJSONStrict([]byte(tt.input), &b)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			var je *JSONError
			if !errors.As(err, &je) {
				t.Fatalf("error %v is not a *JSONError", err)
			}
			if tt.path != "" && je.Path != tt.path {
				t.Fatalf("path %q, want %q (%v)", je.Path, tt.path, err)
			}
		})
	}
}

func TestJSONLimits(t *testing.T) {
	payload := func(extra, txs, withdrawals string) string {
		return `{"parent_hash":"0x` + zeros32 + `","fee_recipient":"0x` + zeros20 + `","state_root":"0x` + zeros32 +
			`","receipts_root":"0x` + zeros32 + `","logs_bloom":"0x` + strings.Repeat("00", 256) + `","prev_randao":"0x` + zeros32 +
			`","block_number":"1","gas_limit":"1","gas_used":"1","timestamp":"1","extra_data":"0x` + extra +
			`","base_fee_per_gas":"7","block_hash":"0x` + zeros32 + `","transactions":[` + txs + `],"withdrawals":[` + withdrawals + `]}`
	}
	w := `{"index":"1","validator_index":"2","address":"0x` + zeros20 + `","amount":"3"}`
	ws := func(n int) string { return strings.TrimSuffix(strings.Repeat(w+",", n), ",") }

	var p ExecutionPayloadCapella
	if err := UnmarshalJSONStrict([]byte(payload(strings.Repeat("ab", 32), `"0x02","0x"`, ws(16))), &p); err != nil {
		t.Fatalf("payload at the limits rejected: %v", err)
	}
	if len(p.ExtraData) != 32 || len(p.Withdrawals) != 16 || len(p.Transactions) != 2 || len(p.Transactions[1]) != 0 {
		t.Fatalf("decoded wrong shapes")
	}
	var je *JSONError
	err := UnmarshalJSONStrict([]byte(payload(strings.Repeat("ab", 33), `"0x02"`, ws(1))), &p)
	if !errors.Is(err, ErrListTooLong) || !errors.As(err, &je) || je.Path != "extra_data" {
		t.Fatalf("33-byte extra data: got %v", err)
	}
	err = UnmarshalJSONStrict([]byte(payload("", `"0x02"`, ws(17))), &p)
	if !errors.Is(err, ErrListTooLong) || !errors.As(err, &je) || je.Path != "withdrawals[16]" {
		t.Fatalf("17 withdrawals: got %v", err)
	}
	err = UnmarshalJSONStrict([]byte(payload("", `"0x02",7`, ws(1))), &p)
	if !errors.Is(err, ErrInvalidJSON) || !errors.As(err, &je) || je.Path != "transactions[1]" {
		t.Fatalf("number as transaction: got %v", err)
	}

	// Vectors: a deposit proof has exactly 33 branches.
	dep := func(n int) string {
		return `{"proof":[` + strings.TrimSuffix(strings.Repeat(`"0x`+zeros32+`",`, n), ",") + `],"data":{"pubkey":"0x` + zeros48 +
			`","withdrawal_credentials":"0x` + zeros32 + `","amount":"1","signature":"0x` + strings.Repeat("00", 96) + `"}}`
	}
	var d Deposit
	if err := UnmarshalJSONStrict([]byte(dep(33)), &d); err != nil {
		t.Fatalf("33-branch proof rejected: %v", err)
	}
	for _, n := range []int{32, 34} {
		if err := UnmarshalJSONStrict([]byte(dep(n)), &d); !errors.Is(err, ErrInvalidLength) {
			t.Fatalf("%d-branch proof: got %v", n, err)
		}
	}

	// Bitlists need their delimiter bit and respect the bit limit.
	att := func(bits string) string {
		cp := `{"epoch":"1","root":"0x` + zeros32 + `"}`
		return `{"aggregation_bits":"0x` + bits + `","data":{"slot":"1","index":"0","beacon_block_root":"0x` + zeros32 +
			`","source":` + cp + `,"target":` + cp + `},"signature":"0x` + strings.Repeat("00", 96) + `"}`
	}
	var a Attestation
	if err := UnmarshalJSONStrict([]byte(att("ff01")), &a); err != nil {
		t.Fatalf("valid bitlist rejected: %v", err)
	}
	if err := UnmarshalJSONStrict([]byte(att("ff00")), &a); !errors.Is(err, ErrInvalidLength) {
		t.Fatalf("bitlist without delimiter: got %v", err)
	}
	if err := UnmarshalJSONStrict([]byte(att(strings.Repeat("ff", 256)+"03")), &a); !errors.Is(err, ErrListTooLong) && !errors.Is(err, ErrInvalidLength) {
		t.Fatalf("bitlist over 2048 bits: got %v", err)
	}
}

func TestJSONEscapesAndWhitespace(t *testing.T) {
	// Escaped characters in a string are JSON; they decode like their plain form.
	in := strings.Replace(validBidTrace, `"slot":"1"`, "\n\t\"slot\" :  \"\\u0031\" ", 1)
	var b BidTrace
	if err := UnmarshalJSONStrict([]byte(in), &b); err != nil || b.Slot != 1 {
		t.Fatalf("escaped digit: %v %d", err, b.Slot)
	}
}

func TestRegistrationsDecodeErrors(t *testing.T) {
	if _, err := DecodeRegistrationsSSZ(make([]byte, 181)); !errors.Is(err, ErrInvalidSSZ) {
		t.Fatalf("181 bytes: got %v", err)
	}
	regs, err := DecodeRegistrationsSSZ(nil)
	if err != nil || len(regs) != 0 {
		t.Fatalf("empty list: %v %d", err, len(regs))
	}
	if _, err := DecodeRegistrationsJSON([]byte(`{}`)); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("object instead of array: got %v", err)
	}
	if regs, err := DecodeRegistrationsJSON([]byte(` [ ] `)); err != nil || len(regs) != 0 {
		t.Fatalf("empty array: %v", err)
	}
}

func TestSubmissionSlotJSONErrors(t *testing.T) {
	if _, err := SubmissionSlotJSON([]byte(`{"message":{}}`)); !errors.Is(err, ErrMissingField) {
		t.Fatalf("no slot: got %v", err)
	}
	// Messages name the JSON path, never a Go type of this package.
	_, err := SubmissionSlotJSON([]byte(`{}`))
	if msg := fmt.Sprint(err); !errors.Is(err, ErrMissingField) || msg != `json message (offset 2): missing field: "message" is required` {
		t.Fatalf("no message: got %q", msg)
	}
	var bt BidTrace
	err = UnmarshalJSONStrict([]byte(strings.Replace(validBidTrace, `"slot":"1"`, `"slot":"1","extra":"1"`, 1)), &bt)
	if msg := fmt.Sprint(err); !errors.Is(err, ErrUnknownField) || strings.Contains(msg, "BidTrace") {
		t.Fatalf("unknown field: got %q", msg)
	}
	if _, err := SubmissionSlotJSON([]byte(`{"message":{"slot":"x"}}`)); !errors.Is(err, ErrInvalidNumber) {
		t.Fatalf("bad slot: got %v", err)
	}
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if _, err := SubmissionSlotJSON([]byte(`{"x":` + deep + `,"message":{"slot":"1"}}`)); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("deep nesting: got %v", err)
	}
	slot, err := SubmissionSlotJSON([]byte(`{"x":[1,{"a":true},null,-2.5e3],"message":{"other":"y","slot":"9"}}`))
	if err != nil || slot != 9 {
		t.Fatalf("skipping unknown values: %d %v", slot, err)
	}
	if _, err := SubmissionSlotSSZ([]byte{1, 2, 3}); !errors.Is(err, ErrInvalidSSZ) {
		t.Fatalf("short SSZ: got %v", err)
	}
}

func TestBidTraceV2JSON(t *testing.T) {
	in := `{"slot":"1","parent_hash":"0x` + zeros32 + `","block_hash":"0x` + zeros32 + `","builder_pubkey":"0x` + zeros48 +
		`","proposer_pubkey":"0x` + zeros48 + `","proposer_fee_recipient":"0x` + zeros20 + `","gas_limit":"30000000","gas_used":"0","value":"1000",` +
		`"block_number":"17","num_tx":"3","timestamp":"1700000000","timestamp_ms":"1700000000123","optimistic_submission":true}`
	var v BidTraceV2WithTimestamp
	if err := UnmarshalJSONStrict([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.Slot != 1 || v.BlockNumber != 17 || v.NumTx != 3 || v.TimestampMs != 1700000000123 || !v.OptimisticSubmission {
		t.Fatalf("decoded %+v", v)
	}
	out, err := v.MarshalJSON()
	if err != nil || string(out) != in {
		t.Fatalf("re-encoding differs (%v):\n%s\n%s", err, out, in)
	}
	bad := strings.Replace(in, `"optimistic_submission":true`, `"optimistic_submission":"true"`, 1)
	if err := UnmarshalJSONStrict([]byte(bad), &v); !errors.Is(err, ErrInvalidJSON) {
		t.Fatalf("string bool: got %v", err)
	}
}

func TestVersionedJSON(t *testing.T) {
	b, err := DecodeSignedBuilderBidSSZ(MainnetSpec, params.ForkDeneb, readVector(t, "getHeaderResponseDeneb_Goerli.ssz"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := b.VersionedJSON()
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	json.Compact(&compact, readVector(t, "getHeaderResponseDeneb_Goerli.json"))
	if !bytes.Equal(out, bytes.ToLower(compact.Bytes())) {
		t.Fatalf("versioned getHeader JSON differs from the vector:\n%s", out)
	}
}

// SEED's Deneb payload spells excess_blob_gas by its pre-rename name,
// excess_data_gas: both are read, only the current name is written.
func TestExcessDataGasAlias(t *testing.T) {
	in := ExecutionPayloadDeneb{ExcessBlobGas: 7, BlobGasUsed: 3}
	out, err := MarshalJSONCompact(&in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"excess_blob_gas":"7"`) || strings.Contains(string(out), "excess_data_gas") {
		t.Fatalf("written with the wrong name: %s", out)
	}
	old := strings.Replace(string(out), "excess_blob_gas", "excess_data_gas", 1)
	var got ExecutionPayloadDeneb
	if err := UnmarshalJSONStrict([]byte(old), &got); err != nil || got.ExcessBlobGas != 7 {
		t.Fatalf("excess_data_gas: %v, got %d", err, got.ExcessBlobGas)
	}
	both := strings.Replace(string(out), `"excess_blob_gas":"7"`, `"excess_blob_gas":"7","excess_data_gas":"8"`, 1)
	if err := UnmarshalJSONStrict([]byte(both), &got); !errors.Is(err, ErrDuplicateField) {
		t.Fatalf("both names: %v", err)
	}
}

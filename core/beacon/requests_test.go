package beacon

import (
	"errors"
	"reflect"
	"testing"
)

func TestEngineRequests(t *testing.T) {
	r := &ExecutionRequests{
		Deposits:       []DepositRequest{{Amount: 32e9, Index: 7}, {Amount: 1}},
		Withdrawals:    []WithdrawalRequest{},
		Consolidations: []ConsolidationRequest{{SourceAddress: Address{1}}},
	}
	enc, err := r.EngineRequests()
	if err != nil {
		t.Fatal(err)
	}
	if len(enc) != 2 || enc[0][0] != 0 || len(enc[0]) != 1+2*192 || enc[1][0] != 2 || len(enc[1]) != 1+116 {
		t.Fatalf("wrong engine form: %d entries", len(enc))
	}
	back, err := ExecutionRequestsFromEngine(enc)
	if err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("round trip: %v", err)
	}
	empty, err := (&ExecutionRequests{}).EngineRequests()
	if err != nil || len(empty) != 0 {
		t.Fatalf("no requests: %v %d", err, len(empty))
	}
	bad := []struct {
		name string
		in   [][]byte
		want error
	}{
		{"empty entry", [][]byte{{0}}, ErrInvalidSSZ},
		{"descending types", [][]byte{enc[1], enc[0]}, ErrInvalidSSZ},
		{"repeated type", [][]byte{enc[0], enc[0]}, ErrInvalidSSZ},
		{"unknown type", [][]byte{{3, 1}}, ErrInvalidSSZ},
		{"partial request", [][]byte{enc[0][:100]}, ErrInvalidSSZ},
		{"three consolidations", [][]byte{append([]byte{2}, make([]byte, 3*116)...)}, ErrListTooLong},
	}
	for _, tt := range bad {
		if _, err := ExecutionRequestsFromEngine(tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

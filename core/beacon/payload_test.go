package beacon

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/params"
)

func validExecutableData() *engine.ExecutableData {
	blobGas, excess := uint64(131072), uint64(0)
	return &engine.ExecutableData{
		LogsBloom:     make([]byte, 256),
		BaseFeePerGas: big.NewInt(7),
		Transactions:  [][]byte{{0x02, 0x01}},
		Withdrawals:   []*types.Withdrawal{{Index: 1, Amount: 2}},
		BlobGasUsed:   &blobGas,
		ExcessBlobGas: &excess,
		ExtraData:     []byte("gavel"),
	}
}

func TestExecutableDataConversionErrors(t *testing.T) {
	for _, fork := range []params.ConsensusFork{params.ForkBellatrix, params.ForkCapella, params.ForkDeneb, params.ForkElectra, params.ForkFulu} {
		p, err := ExecutionPayloadFromExecutableData(fork, validExecutableData())
		if err != nil {
			t.Fatalf("%s: %v", fork, err)
		}
		back, err := ExecutionPayloadFromExecutableData(fork, p.ToExecutableData())
		if err != nil {
			t.Fatalf("%s: %v", fork, err)
		}
		r1, _ := p.HashTreeRoot()
		r2, _ := back.HashTreeRoot()
		if r1 != r2 {
			t.Fatalf("%s: round trip changed the payload", fork)
		}
		if (p.ToExecutableData().Withdrawals != nil) != (fork >= params.ForkCapella) || (p.ToExecutableData().BlobGasUsed != nil) != (fork >= params.ForkDeneb) {
			t.Fatalf("%s: fork fields wrong in engine form", fork)
		}
	}
	tests := []struct {
		name   string
		fork   params.ConsensusFork
		change func(d *engine.ExecutableData)
		want   error
	}{
		{"short bloom", params.ForkDeneb, func(d *engine.ExecutableData) { d.LogsBloom = d.LogsBloom[:255] }, ErrInvalidLength},
		{"33-byte extra data", params.ForkDeneb, func(d *engine.ExecutableData) { d.ExtraData = make([]byte, 33) }, ErrListTooLong},
		{"no base fee", params.ForkDeneb, func(d *engine.ExecutableData) { d.BaseFeePerGas = nil }, ErrMissingField},
		{"negative base fee", params.ForkDeneb, func(d *engine.ExecutableData) { d.BaseFeePerGas = big.NewInt(-1) }, ErrInvalidNumber},
		{"base fee over 256 bits", params.ForkDeneb, func(d *engine.ExecutableData) { d.BaseFeePerGas = new(big.Int).Lsh(big.NewInt(1), 256) }, ErrInvalidNumber},
		{"17 withdrawals", params.ForkCapella, func(d *engine.ExecutableData) { d.Withdrawals = make([]*types.Withdrawal, 17) }, ErrListTooLong},
		{"nil withdrawal", params.ForkCapella, func(d *engine.ExecutableData) { d.Withdrawals = []*types.Withdrawal{nil} }, ErrMissingField},
		{"no blob gas", params.ForkDeneb, func(d *engine.ExecutableData) { d.BlobGasUsed = nil }, ErrMissingField},
		{"altair", params.ForkAltair, func(d *engine.ExecutableData) {}, ErrUnsupportedFork},
	}
	for _, tt := range tests {
		d := validExecutableData()
		tt.change(d)
		if _, err := ExecutionPayloadFromExecutableData(tt.fork, d); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestEncodeRejectsOverLimit(t *testing.T) {
	p := &ExecutionPayloadCapella{Withdrawals: make([]Withdrawal, 17)}
	if _, err := MarshalJSONCompact(p); !errors.Is(err, ErrListTooLong) {
		t.Fatalf("17 withdrawals encoded as JSON: %v", err)
	}
	d := &Deposit{Proof: make([][32]byte, 32)}
	if _, err := MarshalJSONCompact(d); !errors.Is(err, ErrInvalidLength) {
		t.Fatalf("32-branch proof encoded as JSON: %v", err)
	}
	if _, err := PayloadResponse(&ExecutionPayload{Fork: params.ForkDeneb, Deneb: &ExecutionPayloadDeneb{}}, nil); !errors.Is(err, ErrMissingField) {
		t.Fatalf("deneb response without bundle: %v", err)
	}
}

package relay

import (
	"fmt"

	"github.com/gavel-eth/gavel/core/beacon"
)

// EIP-7685 request types.
const (
	depositRequestType       = 0x00
	withdrawalRequestType    = 0x01
	consolidationRequestType = 0x02
)

// SSZ sizes of the request containers.
const (
	depositRequestSize       = 192
	withdrawalRequestSize    = 76
	consolidationRequestSize = 116
)

// encodeRequests turns consensus execution requests into the execution
// layer's EIP-7685 list: per non-empty type, the type byte followed by the
// SSZ encodings of its requests, in type order.
func encodeRequests(r *beacon.ExecutionRequests) ([][]byte, error) {
	out := [][]byte{}
	add := func(typ byte, n int, marshal func(i int, dst []byte) ([]byte, error)) error {
		if n == 0 {
			return nil
		}
		b := []byte{typ}
		for i := 0; i < n; i++ {
			var err error
			if b, err = marshal(i, b); err != nil {
				return err
			}
		}
		out = append(out, b)
		return nil
	}
	if err := add(depositRequestType, len(r.Deposits), func(i int, dst []byte) ([]byte, error) { return r.Deposits[i].MarshalSSZTo(dst) }); err != nil {
		return nil, err
	}
	if err := add(withdrawalRequestType, len(r.Withdrawals), func(i int, dst []byte) ([]byte, error) { return r.Withdrawals[i].MarshalSSZTo(dst) }); err != nil {
		return nil, err
	}
	if err := add(consolidationRequestType, len(r.Consolidations), func(i int, dst []byte) ([]byte, error) { return r.Consolidations[i].MarshalSSZTo(dst) }); err != nil {
		return nil, err
	}
	return out, nil
}

// DecodeRequests turns an EIP-7685 request list (as the engine API returns
// it) into consensus execution requests.
func DecodeRequests(reqs [][]byte) (*beacon.ExecutionRequests, error) {
	out := &beacon.ExecutionRequests{
		Deposits: []beacon.DepositRequest{}, Withdrawals: []beacon.WithdrawalRequest{}, Consolidations: []beacon.ConsolidationRequest{},
	}
	for _, r := range reqs {
		if len(r) == 0 {
			return nil, fmt.Errorf("empty execution request")
		}
		data := r[1:]
		switch r[0] {
		case depositRequestType:
			if len(data)%depositRequestSize != 0 {
				return nil, fmt.Errorf("deposit requests: %d bytes is not a multiple of %d", len(data), depositRequestSize)
			}
			for i := 0; i < len(data); i += depositRequestSize {
				var d beacon.DepositRequest
				if err := d.UnmarshalSSZ(data[i : i+depositRequestSize]); err != nil {
					return nil, err
				}
				out.Deposits = append(out.Deposits, d)
			}
		case withdrawalRequestType:
			if len(data)%withdrawalRequestSize != 0 {
				return nil, fmt.Errorf("withdrawal requests: %d bytes is not a multiple of %d", len(data), withdrawalRequestSize)
			}
			for i := 0; i < len(data); i += withdrawalRequestSize {
				var w beacon.WithdrawalRequest
				if err := w.UnmarshalSSZ(data[i : i+withdrawalRequestSize]); err != nil {
					return nil, err
				}
				out.Withdrawals = append(out.Withdrawals, w)
			}
		case consolidationRequestType:
			if len(data)%consolidationRequestSize != 0 {
				return nil, fmt.Errorf("consolidation requests: %d bytes is not a multiple of %d", len(data), consolidationRequestSize)
			}
			for i := 0; i < len(data); i += consolidationRequestSize {
				var c beacon.ConsolidationRequest
				if err := c.UnmarshalSSZ(data[i : i+consolidationRequestSize]); err != nil {
					return nil, err
				}
				out.Consolidations = append(out.Consolidations, c)
			}
		default:
			return nil, fmt.Errorf("unknown execution request type %#x", r[0])
		}
	}
	return out, nil
}

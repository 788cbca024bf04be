package beacon

import "fmt"

// EIP-7685 request types and the SSZ sizes of one request of each type.
const (
	DepositRequestType       = 0x00
	WithdrawalRequestType    = 0x01
	ConsolidationRequestType = 0x02

	depositRequestSize       = 192
	withdrawalRequestSize    = 76
	consolidationRequestSize = 116
)

// EngineRequests returns the requests in the engine API's EIP-7685 form (the
// executionRequests of engine_newPayloadV4 and later): for each type that has requests, in
// ascending type order, the type byte followed by the SSZ encodings of its requests.
func (r *ExecutionRequests) EngineRequests() ([][]byte, error) {
	if len(r.Deposits) > MaxDepositRequests || len(r.Withdrawals) > MaxWithdrawalRequests || len(r.Consolidations) > MaxConsolidationRequests {
		return nil, fmt.Errorf("%w: %d deposits (limit %d), %d withdrawals (limit %d), %d consolidations (limit %d)", ErrListTooLong,
			len(r.Deposits), MaxDepositRequests, len(r.Withdrawals), MaxWithdrawalRequests, len(r.Consolidations), MaxConsolidationRequests)
	}
	out := [][]byte{}
	if n := len(r.Deposits); n > 0 {
		b := make([]byte, 1, 1+n*depositRequestSize)
		b[0] = DepositRequestType
		for i := range r.Deposits {
			b, _ = r.Deposits[i].MarshalSSZTo(b)
		}
		out = append(out, b)
	}
	if n := len(r.Withdrawals); n > 0 {
		b := make([]byte, 1, 1+n*withdrawalRequestSize)
		b[0] = WithdrawalRequestType
		for i := range r.Withdrawals {
			b, _ = r.Withdrawals[i].MarshalSSZTo(b)
		}
		out = append(out, b)
	}
	if n := len(r.Consolidations); n > 0 {
		b := make([]byte, 1, 1+n*consolidationRequestSize)
		b[0] = ConsolidationRequestType
		for i := range r.Consolidations {
			b, _ = r.Consolidations[i].MarshalSSZTo(b)
		}
		out = append(out, b)
	}
	return out, nil
}

// ExecutionRequestsFromEngine parses the engine API's EIP-7685 form: types strictly
// ascending, no empty entries, each entry's data a whole number of requests within the
// type's limit.
func ExecutionRequestsFromEngine(reqs [][]byte) (*ExecutionRequests, error) {
	r := &ExecutionRequests{Deposits: []DepositRequest{}, Withdrawals: []WithdrawalRequest{}, Consolidations: []ConsolidationRequest{}}
	last := -1
	for i, req := range reqs {
		if len(req) < 2 {
			return nil, fmt.Errorf("%w: request entry %d is empty (empty types must be left out)", ErrInvalidSSZ, i)
		}
		typ, data := int(req[0]), req[1:]
		if typ <= last {
			return nil, fmt.Errorf("%w: request type %d after type %d, types must ascend", ErrInvalidSSZ, typ, last)
		}
		last = typ
		var size, limit int
		switch typ {
		case DepositRequestType:
			size, limit = depositRequestSize, MaxDepositRequests
		case WithdrawalRequestType:
			size, limit = withdrawalRequestSize, MaxWithdrawalRequests
		case ConsolidationRequestType:
			size, limit = consolidationRequestSize, MaxConsolidationRequests
		default:
			return nil, fmt.Errorf("%w: unknown request type %d", ErrInvalidSSZ, typ)
		}
		if len(data)%size != 0 {
			return nil, fmt.Errorf("%w: type %d requests are %d bytes each, got %d bytes", ErrInvalidSSZ, typ, size, len(data))
		}
		n := len(data) / size
		if n > limit {
			return nil, fmt.Errorf("%w: %d requests of type %d, limit %d", ErrListTooLong, n, typ, limit)
		}
		for j := 0; j < n; j++ {
			chunk := data[j*size : (j+1)*size]
			var err error
			switch typ {
			case DepositRequestType:
				var d DepositRequest
				err = d.UnmarshalSSZ(chunk)
				r.Deposits = append(r.Deposits, d)
			case WithdrawalRequestType:
				var w WithdrawalRequest
				err = w.UnmarshalSSZ(chunk)
				r.Withdrawals = append(r.Withdrawals, w)
			default:
				var c ConsolidationRequest
				err = c.UnmarshalSSZ(chunk)
				r.Consolidations = append(r.Consolidations, c)
			}
			if err != nil {
				return nil, sszError(fmt.Sprintf("request %d of type %d", j, typ), size, err)
			}
		}
	}
	return r, nil
}

package errclass

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
)

func TestClasses(t *testing.T) {
	base := errors.New("disk full")
	for _, tt := range []struct {
		name   string
		err    error
		status int
		code   int
	}{
		{"unmarked", base, http.StatusBadRequest, CodeInvalidParams},
		{"internal", Internal(base), http.StatusInternalServerError, CodeInternal},
		{"internal wrapped", fmt.Errorf("save bid: %w", Internal(base)), http.StatusInternalServerError, CodeInternal},
		{"limit", Limited(base), http.StatusTooManyRequests, CodeLimitExceeded},
	} {
		if got := HTTPStatus(tt.err); got != tt.status {
			t.Errorf("%s: status %d, want %d", tt.name, got, tt.status)
		}
		rpcErr := RPC(tt.err, 0).(*Error)
		if rpcErr.ErrorCode() != tt.code || !errors.Is(rpcErr, base) || rpcErr.Error() != tt.err.Error() {
			t.Errorf("%s: rpc error %d %q, want %d %q", tt.name, rpcErr.ErrorCode(), rpcErr, tt.code, tt.err)
		}
	}
	if code := RPC(base, -32000).(*Error).ErrorCode(); code != -32000 {
		t.Errorf("client error with its own code: %d, want -32000", code)
	}
	if code := RPC(Internal(base), -32000).(*Error).ErrorCode(); code != CodeInternal {
		t.Errorf("internal error keeps the internal code: %d", code)
	}
	if Internal(nil) != nil || RPC(nil, 0) != nil || IsInternal(nil) {
		t.Error("nil must stay nil")
	}
}

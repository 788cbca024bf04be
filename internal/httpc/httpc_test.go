package httpc

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, r.Method+" "+r.Header.Get("X-Test")+" "+string(b))
	}))
	defer srv.Close()
	ctx := context.Background()

	status, body, err := Do(ctx, srv.Client(), http.MethodPost, srv.URL, []byte("hi"), map[string]string{"X-Test": "v"}, 64)
	if err != nil || status != http.StatusAccepted || string(body) != "POST v hi" {
		t.Fatalf("got %d %q %v, want 202 \"POST v hi\"", status, body, err)
	}
	status, body, err = Do(ctx, srv.Client(), http.MethodGet, srv.URL, nil, nil, 6)
	if err != nil || string(body) != "GET  " {
		t.Fatalf("at the limit: got %d %q %v", status, body, err)
	}
	_, _, err = Do(ctx, srv.Client(), http.MethodPost, srv.URL, []byte(strings.Repeat("x", 10)), nil, 6)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: got %v, want ErrTooLarge", err)
	}
}

package mevapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

func startServer(t *testing.T, cfg Config, ready func() error, mount func(*Server)) *Server {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	s := New(cfg, ready)
	if mount != nil {
		mount(s)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

func decodeError(t *testing.T, resp *http.Response) ErrorBody {
	t.Helper()
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q, want application/json", ct)
	}
	var e ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		t.Fatalf("error body: %v", err)
	}
	if e.Code != resp.StatusCode {
		t.Fatalf("body code %d differs from status %d", e.Code, resp.StatusCode)
	}
	return e
}

func TestHealthRoutes(t *testing.T) {
	var notReady error
	s := startServer(t, Config{}, func() error { return notReady }, nil)
	for _, path := range []string{"/livez", "/readyz"} {
		resp, err := http.Get(s.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d, want 200", path, resp.StatusCode)
		}
	}
	notReady = errors.New("execution client is syncing")
	resp, err := http.Get(s.URL() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("readyz while syncing: %d, want 503", resp.StatusCode)
	}
	if e := decodeError(t, resp); !strings.Contains(e.Message, "syncing") {
		t.Fatalf("readyz message %q does not say why", e.Message)
	}
	// livez stays up: the process is alive even when not ready.
	resp, err = http.Get(s.URL() + "/livez")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("livez while syncing: %d", resp.StatusCode)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	s := startServer(t, Config{}, nil, nil)
	resp, err := http.Get(s.URL() + "/nope")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown route: %d", resp.StatusCode)
	}
	if e := decodeError(t, resp); !strings.Contains(e.Message, "/nope") {
		t.Fatalf("404 message %q does not name the path", e.Message)
	}
}

func TestBodyLimit(t *testing.T) {
	const limit = 1024
	echo := func(s *Server) {
		s.Handle("POST /echo", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, err := ReadBody(r, limit)
			if errors.Is(err, ErrBodyTooLarge) {
				WriteError(w, http.StatusRequestEntityTooLarge, err.Error())
				return
			}
			w.Write(body)
		}))
	}
	s := startServer(t, Config{MaxBodyBytes: limit}, nil, echo)

	// At the limit: accepted.
	resp, err := http.Post(s.URL()+"/echo", "text/plain", strings.NewReader(strings.Repeat("a", limit)))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(got) != limit {
		t.Fatalf("body at limit: status %d, %d bytes echoed", resp.StatusCode, len(got))
	}
	// One past the limit, announced: refused before the handler runs.
	resp, err = http.Post(s.URL()+"/echo", "text/plain", strings.NewReader(strings.Repeat("a", limit+1)))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("body over limit: %d, want 413", resp.StatusCode)
	}
	if e := decodeError(t, resp); !strings.Contains(e.Message, "1025") || !strings.Contains(e.Message, "1024") {
		t.Fatalf("413 message %q should give size and limit", e.Message)
	}
	// One past the limit, chunked (no Content-Length): cut off while reading.
	req, _ := http.NewRequest("POST", s.URL()+"/echo", io.MultiReader(strings.NewReader(strings.Repeat("a", limit+1))))
	req.ContentLength = -1
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked body over limit: %d, want 413", resp.StatusCode)
	}
	decodeError(t, resp)
}

func TestPanicBecomes500(t *testing.T) {
	s := startServer(t, Config{}, nil, func(s *Server) {
		s.Handle("GET /boom", http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("secret detail") }))
	})
	resp, err := http.Get(s.URL() + "/boom")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("panic: %d, want 500", resp.StatusCode)
	}
	if e := decodeError(t, resp); e.Message != "internal server error" {
		t.Fatalf("500 message %q leaks details", e.Message)
	}
}

func TestHandleAfterStartPanics(t *testing.T) {
	s := startServer(t, Config{}, nil, nil)
	defer func() {
		if recover() == nil {
			t.Fatal("Handle after Start did not panic")
		}
	}()
	s.Handle("GET /late", http.NotFoundHandler())
}

func TestGracefulStop(t *testing.T) {
	s := startServer(t, Config{}, nil, nil)
	url := s.URL()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(url + "/livez"); err == nil {
		t.Fatal("listener still serving after Stop")
	}
}

package beaconclient

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeNode is an HTTP beacon node serving recorded-shaped answers. A real
// beacon node cannot run on this machine, so the client is tested against
// this fake over real loopback HTTP; the answers follow the Beacon API's
// shapes (testdata/ holds mainnet's genesis, fork schedule and spec).
type fakeNode struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	routes   map[string]http.HandlerFunc // "GET /path" -> handler
	hits     map[string]int
	failWith int // when non-zero every request gets this status
	failNext int // this many next requests get 503 (a node still starting)
	requests []*http.Request
	bodies   [][]byte

	// events: each subscription to a topic takes the next script; a script
	// is a list of raw SSE chunks written one after the other, then the
	// stream ends (the client re-opens it) unless hold is set.
	events map[string][][]string
	hold   chan struct{} // closed at cleanup; a stream without script waits on it
	ended  chan string   // gets the topic each time a scripted stream was fully written
}

func newFakeNode(t *testing.T) *fakeNode {
	f := &fakeNode{t: t, routes: map[string]http.HandlerFunc{}, hits: map[string]int{}, events: map[string][][]string{}, hold: make(chan struct{}), ended: make(chan string, 100)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(func() { close(f.hold); f.srv.Close() })
	return f
}

func (f *fakeNode) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	key := r.Method + " " + r.URL.Path
	f.mu.Lock()
	f.hits[key]++
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, body)
	fail := f.failWith
	if f.failNext > 0 {
		f.failNext--
		fail = 503
	}
	h := f.routes[key]
	f.mu.Unlock()
	switch {
	case fail != 0:
		w.WriteHeader(fail)
		fmt.Fprintf(w, `{"code":%d,"message":"fake node failing on purpose"}`, fail)
	case r.URL.Path == PathEvents:
		f.serveEvents(w, r)
	case h != nil:
		h(w, r)
	default:
		w.WriteHeader(404)
		fmt.Fprintf(w, `{"code":404,"message":"no route %s"}`, key)
	}
}

func (f *fakeNode) serveEvents(w http.ResponseWriter, r *http.Request) {
	topic := r.URL.Query().Get("topics")
	f.mu.Lock()
	var script []string
	scripted := len(f.events[topic]) > 0
	if scripted {
		script, f.events[topic] = f.events[topic][0], f.events[topic][1:]
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	fl := w.(http.Flusher)
	fl.Flush()
	for _, chunk := range script {
		io.WriteString(w, chunk)
		fl.Flush()
	}
	if scripted {
		select {
		case f.ended <- topic:
		default:
		}
		return
	}
	{
		select {
		case <-f.hold:
		case <-r.Context().Done():
		}
	}
}

// file serves testdata/name as JSON.
func (f *fakeNode) file(method, path, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.t.Fatal(err)
	}
	f.json(method, path, string(b))
}

// json serves body as a JSON answer.
func (f *fakeNode) json(method, path, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[method+" "+path] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}
}

func (f *fakeNode) handle(method, path string, h http.HandlerFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[method+" "+path] = h
}

func (f *fakeNode) script(topic string, chunks ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.events[topic] = append(f.events[topic], chunks)
}

func (f *fakeNode) fail(status int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failWith = status
}

func (f *fakeNode) count(method, path string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.hits[method+" "+path]
}

func (f *fakeNode) lastRequest() (*http.Request, []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests[len(f.requests)-1], f.bodies[len(f.bodies)-1]
}

func (f *fakeNode) mainnet() *fakeNode {
	f.file("GET", PathGenesis, "genesis_mainnet.json")
	f.file("GET", PathForkSchedule, "fork_schedule_mainnet.json")
	f.file("GET", PathSpec, "spec_mainnet.json")
	f.file("GET", PathSyncing, "syncing.json")
	return f
}

func readTestdata(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newClient(t *testing.T, nodes ...*fakeNode) *Client {
	var urls []string
	for _, n := range nodes {
		urls = append(urls, n.srv.URL)
	}
	c, err := New([]string{strings.Join(urls, ",")}, Options{RetryDelay: 1e6, MaxRetryDelay: 4e6})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

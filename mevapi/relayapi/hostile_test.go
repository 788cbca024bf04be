package relayapi_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// hostileConns is how many hostile connections the attack tests open: a
// few dozen in `go test`, more with -hostile.conns (make hostile).
var hostileConns = flag.Int("hostile.conns", 40, "hostile connections per attack test")

// heldBytes reads the bytes of live and not yet swept heap objects plus the
// listener's read chunks (outside the heap).
func heldBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + uint64(mevapi.ChunkBytes())
}

// TestStalledGzipSubmissions is finding 1's first attack: connections that
// each send a gzip stream inflating to just under the 15 MiB limit, then
// stall before its end. Without a body budget each holds 15 MiB until the
// read timeout (40 connections: 600 MiB); with it, what they hold together
// stays within one IP's share of the budget, the stalled bodies are cut by
// the minimum rate, an honest submission from another address is decoded
// and answered meanwhile, and every byte comes back afterwards.
func TestStalledGzipSubmissions(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	cfg := mevapi.Config{Addr: "127.0.0.1:0", BodyGrace: 500 * time.Millisecond, MaxConnsPerIP: 4096, MaxConns: 8192}
	srv := startListener(t, e, cfg)
	addr := strings.TrimPrefix(srv.URL(), "http://")

	// A real submission's bid trace and signature, then zeros: the checks
	// on the message pass, so the body is inflated.
	head, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	plain := make([]byte, relayapi.DefaultMaxSubmissionBytes-1024)
	copy(plain, head[:344])
	stream := gz(plain)
	stalled := stream[:len(stream)-8] // all but the trailer: the inflater waits for more

	runtime.GC()
	base := heldBytes()
	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // samples the heap while the attack runs
		defer close(sampled)
		for {
			peak = max(peak, heldBytes())
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()

	var wg sync.WaitGroup
	codes := make(chan int, *hostileConns)
	for i := 0; i < *hostileConns; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
			c, err := d.Dial("tcp", addr)
			if err != nil {
				codes <- 0
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", relayapi.PathBuilderBlocks, len(stream))
			c.Write(stalled)
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				codes <- 0
				return
			}
			io.Copy(io.Discard, res.Body)
			codes <- res.StatusCode
		}()
	}
	// An honest builder, from another address, during the attack.
	sub := e.Submission(e.BuildBlock(1, 2, nil))
	body, _ := sub.MarshalSSZ()
	code, _, out := do(t, "POST", srv.URL()+relayapi.PathBuilderBlocks, gz(body), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "gzip"})
	if code != http.StatusOK {
		t.Errorf("honest submission during the attack: %d %s", code, out)
	}
	wg.Wait()
	close(stop)
	<-sampled
	close(codes)
	seen := map[int]int{}
	for c := range codes {
		seen[c]++
	}
	for c := range seen {
		if c != http.StatusRequestTimeout && c != http.StatusTooManyRequests && c != http.StatusServiceUnavailable {
			t.Errorf("hostile connections answered %v: want only 408, 429 and 503", seen)
		}
	}
	grew := int64(peak) - int64(base)
	t.Logf("%d stalled gzip connections: answers %v, heap and read chunks grew by %d MiB at the peak", *hostileConns, seen, grew>>20)
	// The chunks are one IP's share of the budget (64 MiB) at most, and
	// outside the heap: no garbage of theirs adds to it. Allow 16 MiB for
	// the relay's own work. Without the budget: 15 MiB a connection.
	if limit := int64(mevapi.DefaultBodyBudgetPerIP + 16<<20); grew > limit {
		t.Errorf("heap and read chunks grew by %d MiB during the attack, want at most %d MiB", grew>>20, limit>>20)
	}
	// Inflating took turns of the CPU gate, never more than its size at
	// once: a core stayed free for the honest builder's other work.
	if st := srv.HeavyWork(); st.Peak > st.Size || st.Work < int64(len(plain)) {
		t.Errorf("CPU gate during the attack: %+v, want at most %d turns at once and the inflated bytes counted", st, st.Size)
	}
	if n := srv.BodyBytesInFlight(); n != 0 {
		t.Errorf("%d body bytes still reserved after the attack", n)
	}
}

// TestUnsignedGzipCut: a gzip submission whose signature does not verify
// is not inflated any further once the early check has failed, even while
// the server waits for bytes the client never sends (no minimum rate here:
// without the cut it would wait for the read timeout, an hour): the answer
// is the signature error, and what was inflated stays a fraction of the
// 15 MiB.
func TestUnsignedGzipCut(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	cfg := mevapi.Config{Addr: "127.0.0.1:0", BodyGrace: time.Hour, ReadTimeout: time.Hour}
	srv := startListener(t, e, cfg)

	sub := e.Submission(e.BuildBlock(1, 1, nil))
	head, _ := sub.MarshalSSZ()
	sig := sub.Signature()
	at := bytes.Index(head[:344], sig[:])
	if at < 0 {
		t.Fatal("signature not found in the submission's prefix")
	}
	plain := make([]byte, relayapi.DefaultMaxSubmissionBytes-1024)
	copy(plain, head[:344])
	plain[at+len(sig)-1] ^= 1 // the trace's checks pass, its signature does not
	stream := gz(plain)

	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	c, err := d.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second)) // a safety net, not a timing assertion
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", relayapi.PathBuilderBlocks, len(stream))
	c.Write(stream[:len(stream)-8]) // all but the trailer: then it stalls
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled unsigned submission: %v", err)
	}
	msg, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(msg), "signature") || !res.Close {
		t.Fatalf("stalled unsigned submission: %d %s (close %v), want 400 for its signature and the connection closed", res.StatusCode, msg, res.Close)
	}
	if st := srv.HeavyWork(); st.Work >= int64(len(plain)) {
		t.Errorf("%d bytes inflated of an unsigned %d-byte body, want it cut once the signature failed", st.Work, len(plain))
	}
	t.Logf("unsigned stream: %d of %d bytes inflated before the cut", srv.HeavyWork().Work, len(plain))
}

// TestMessageCheckedBeforePayload is finding 5: a submission that cannot
// win (here: a past slot) is refused from its message alone. SSZ: the
// answer comes after the first 344 bytes, while the rest of a 15 MiB body
// is never sent. JSON: the message is decoded first, so a payload that
// would not even decode is never looked at.
func TestMessageCheckedBeforePayload(t *testing.T) {
	e, base := server(t)
	registerHTTP(t, e, base, true)
	e.Relay.SetHeadSlot(5)
	sub := e.Submission(e.BuildBlock(1, 1, nil)) // slot 1 < head slot 5
	raw, _ := sub.MarshalSSZ()

	c, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", relayapi.PathBuilderBlocks, 15<<20)
	c.Write(raw[:344])
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != 400 || errorMessage(t, out) != "submission for past slot" {
		t.Fatalf("past-slot SSZ prefix: %d %s", res.StatusCode, out)
	}

	js, _ := sub.MarshalJSON()
	i := bytes.Index(js, []byte(`"transactions":[`))
	if i < 0 {
		t.Fatal("no transactions in the JSON submission")
	}
	broken := append(append(append([]byte{}, js[:i]...), `"transactions":"not a list",`...), js[i:]...)
	code, _, out := do(t, "POST", base+relayapi.PathBuilderBlocks, broken, map[string]string{"Content-Type": "application/json"})
	if code != 400 || errorMessage(t, out) != "submission for past slot" {
		t.Fatalf("past-slot JSON with an undecodable payload: %d %s", code, out)
	}
}

// TestBodyStatuses: a chunked 17 MiB blinded block is 413 like every other
// body over the limit (it was 400), and a submission in an unknown
// Content-Encoding is 415 (it was read as identity).
func TestBodyStatuses(t *testing.T) {
	_, base := server(t)
	req, _ := http.NewRequest("POST", base+relayapi.PathBlindedBlocksV1, io.LimitReader(zeroReader{}, 17<<20))
	req.ContentLength = -1 // chunked
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("Eth-Consensus-Version", "fulu")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked 17 MiB blinded block: %d %s", res.StatusCode, out)
	}
	code, _, body := do(t, "POST", base+relayapi.PathBuilderBlocks, []byte("x"), map[string]string{"Content-Type": "application/octet-stream", "Content-Encoding": "br"})
	if code != http.StatusUnsupportedMediaType || !strings.Contains(errorMessage(t, body), `unsupported Content-Encoding "br"`) {
		t.Fatalf("br submission: %d %s", code, body)
	}
	// The proposer API reads its bodies as they come: a compressed one is
	// refused, not decoded as if it were plain (a gzip "encoded" body that
	// is really plain JSON was accepted before).
	for _, path := range []string{relayapi.PathRegisterValidator, relayapi.PathBlindedBlocksV1, relayapi.PathBlindedBlocksV2} {
		for _, enc := range []string{"br", "gzip", "identity, deflate"} {
			code, _, body := do(t, "POST", base+path, []byte("[]"), map[string]string{"Content-Type": "application/json", "Content-Encoding": enc})
			if code != http.StatusUnsupportedMediaType || !strings.Contains(errorMessage(t, body), "unsupported Content-Encoding") {
				t.Errorf("%s with Content-Encoding %s: %d %s", path, enc, code, body)
			}
		}
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

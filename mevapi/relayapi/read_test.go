package relayapi_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// TestReadSubmission reads bodies around the pooled chunk size in every
// mode (plain with and without a length, gzipped, one byte per read, gzipped
// behind a header too long for the prefix to be inflated from the first
// compressed KiBs) and checks the bytes, the prefix callback and the length
// errors.
func TestReadSubmission(t *testing.T) {
	for _, n := range []int{0, 1, 343, 344, 345, 64<<10 - 1, 64 << 10, 64<<10 + 1, 3*64<<10 + 17} {
		body := make([]byte, n)
		for i := range body {
			body[i] = byte(i*7 + i/251)
		}
		for _, mode := range []string{"plain", "unknown-length", "gzip", "one-byte-reads", "gzip-one-byte-reads", "gzip-long-header"} {
			var src []byte
			size := int64(n)
			gzipped := false
			switch mode {
			case "plain", "one-byte-reads":
				src = body
			case "unknown-length":
				src, size = body, -1
			case "gzip", "gzip-one-byte-reads":
				src, size, gzipped = gz(body), -1, true
			case "gzip-long-header":
				var z bytes.Buffer
				zw := gzip.NewWriter(&z)
				zw.Extra = make([]byte, 8<<10)
				zw.Write(body)
				zw.Close()
				src, size, gzipped = z.Bytes(), -1, true
			}
			var rd io.Reader = bytes.NewReader(src)
			if mode == "one-byte-reads" || mode == "gzip-one-byte-reads" {
				rd = iotest.OneByteReader(rd)
			}
			var prefix []byte
			got, err := relayapi.ReadSubmission(rd, gzipped, size, 1<<20, func(p []byte) error { prefix = bytes.Clone(p); return nil })
			if err != nil {
				t.Fatalf("%d bytes %s: %v", n, mode, err)
			}
			if !bytes.Equal(got, body) {
				t.Fatalf("%d bytes %s: read %d bytes, not the body", n, mode, len(got))
			}
			if n >= 344 && !bytes.Equal(prefix, body[:344]) || n < 344 && prefix != nil {
				t.Fatalf("%d bytes %s: prefix %d bytes", n, mode, len(prefix))
			}
			if cap(got) != len(got) {
				t.Fatalf("%d bytes %s: capacity %d, want the exact length", n, mode, cap(got))
			}
		}
	}
	body := make([]byte, 1000)
	for _, c := range []struct {
		size     int64
		gzipped  bool
		limit    int64
		want     string
		sentinel error
	}{
		{1001, false, 2000, "1000 bytes, shorter than its announced 1001", nil},
		{999, false, 2000, "longer than its announced 999 bytes", nil},
		{1000, false, 999, "1000 bytes announced, the limit is 999", relayapi.ErrSubmissionTooLarge},
		{-1, false, 999, "more than 999 bytes", relayapi.ErrSubmissionTooLarge},
		{-1, true, 999, "more than 999 bytes after decompression", relayapi.ErrSubmissionTooLarge},
	} {
		src := body
		if c.gzipped {
			src = gz(body)
		}
		_, err := relayapi.ReadSubmission(bytes.NewReader(src), c.gzipped, c.size, c.limit, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || c.sentinel != nil && !errors.Is(err, c.sentinel) {
			t.Errorf("size %d gzip %v limit %d: %v, want %q", c.size, c.gzipped, c.limit, err, c.want)
		}
	}
	if _, err := relayapi.ReadSubmission(bytes.NewReader([]byte("not gzip")), true, 8, 1000, nil); err == nil || !strings.Contains(err.Error(), "invalid gzip body") {
		t.Errorf("not gzip: %v", err)
	}
}

// TestGzipPrefixBeforeWindow: the prefix of a gzip submission is handed
// over as soon as its compressed bytes are in, while the rest of the body
// has not arrived; an inflater alone hands out its first bytes only once
// it has inflated a 32 KiB window.
func TestGzipPrefixBeforeWindow(t *testing.T) {
	body := make([]byte, 256<<10)
	rand.NewChaCha8([32]byte{1}).Read(body) // incompressible: 32 KiB of output need 32 KiB of input
	stream := gz(body)
	more := make(chan struct{})
	src := io.MultiReader(bytes.NewReader(stream[:2<<10]), &waitReader{wait: more, r: bytes.NewReader(stream[2<<10:])})
	prefixed := make(chan []byte, 1)
	done := make(chan error, 1)
	var got []byte
	go func() {
		var err error
		got, err = relayapi.ReadSubmission(src, true, -1, 1<<20, func(p []byte) error { prefixed <- bytes.Clone(p); return nil })
		done <- err
	}()
	select {
	case p := <-prefixed:
		if !bytes.Equal(p, body[:344]) {
			t.Fatal("prefix is not the body's first 344 bytes")
		}
	case err := <-done:
		t.Fatalf("read ended (%v) before the prefix was handed over", err)
	case <-time.After(20 * time.Second): // a safety net, not a timing assertion
		t.Fatal("the prefix was not handed over from the first 2 KiB of the stream")
	}
	close(more)
	if err := <-done; err != nil || !bytes.Equal(got, body) {
		t.Fatalf("body: %d bytes, %v", len(got), err)
	}
}

// waitReader reads r once wait is closed.
type waitReader struct {
	wait <-chan struct{}
	r    io.Reader
}

func (w *waitReader) Read(p []byte) (int, error) {
	<-w.wait
	return w.r.Read(p)
}

// TestGzipPrefixInputBound: the first bytes of a gzip submission are
// inflated outside the CPU gate, so the compressed bytes they may take are
// bounded: a stream of empty deflate blocks before any output is refused
// once it passes 64 KiB; honest streams need a few hundred bytes.
func TestGzipPrefixInputBound(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	for range 20_000 { // 5 bytes each: an empty stored block
		zw.Flush()
	}
	zw.Write(make([]byte, 4096))
	zw.Close()
	if z.Len() < 64<<10 {
		t.Fatalf("the stream is %d bytes, want more than 64 KiB before its first output", z.Len())
	}
	_, err := relayapi.ReadSubmission(bytes.NewReader(z.Bytes()), true, int64(z.Len()), 1<<20, func([]byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "inflate to fewer than") {
		t.Fatalf("empty blocks before the prefix: %v, want refused", err)
	}
	// The same output with the empty blocks after the prefix is read whole.
	z.Reset()
	zw = gzip.NewWriter(&z)
	zw.Write(make([]byte, 4096))
	for range 20_000 {
		zw.Flush()
	}
	zw.Close()
	out, err := relayapi.ReadSubmission(bytes.NewReader(z.Bytes()), true, int64(z.Len()), 1<<20, func([]byte) error { return nil })
	if err != nil || len(out) != 4096 {
		t.Fatalf("empty blocks after the prefix: %d bytes, %v", len(out), err)
	}
}

package mevapi

import (
	"bytes"
	"errors"
	"testing"
)

// TestReleaseBodyReused: a released body's buffer takes the next large
// body, which is read in full over the old bytes; small and oversized
// buffers are not kept.
func TestReleaseBodyReused(t *testing.T) {
	tooLarge := func() error { return errors.New("too large") }
	first := bytes.Repeat([]byte{1}, 1<<20)
	a, err := ReadAll(nil, bytes.NewReader(first), 8<<20, -1, 0, nil, tooLarge)
	if err != nil || !bytes.Equal(a, first) {
		t.Fatalf("first body: %v", err)
	}
	ReleaseBody(a)
	second := bytes.Repeat([]byte{2, 3}, 400<<10) // 800 KiB: fits the released buffer
	b, err := ReadAll(nil, bytes.NewReader(second), 8<<20, -1, 0, nil, tooLarge)
	if err != nil || !bytes.Equal(b, second) {
		t.Fatalf("second body: %v (%d bytes, expected %d)", err, len(b), len(second))
	}
	if &a[0] != &b[0] {
		t.Fatal("the second body did not reuse the released buffer")
	}
	ReleaseBody(b)
	<-bodyPool // empty the pool again
	for _, n := range []int{bodyPoolMin - 1, bodyPoolMax + 1} {
		ReleaseBody(make([]byte, n))
		select {
		case <-bodyPool:
			t.Errorf("a buffer of %d bytes was kept, expected only %d to %d", n, bodyPoolMin, bodyPoolMax)
		default:
		}
	}
}

// TestReadIntoReleased: a body is read straight into a released buffer
// (no chunk to join), to the buffer's last byte; one longer than the buffer goes on in chunks and is
// joined whole; a small one gets a buffer of its own and leaves the
// released one for the next large body.
func TestReadIntoReleased(t *testing.T) {
	tooLarge := func() error { return errors.New("too large") }
	var at *byte // where the first bytes were read
	read := func(body []byte, size int64) []byte {
		t.Helper()
		out, err := ReadAll(nil, bytes.NewReader(body), 8<<20, size, 344, func(p []byte) error { at = &p[0]; return nil }, tooLarge)
		if err != nil || !bytes.Equal(out, body) {
			t.Fatalf("%d bytes (announced %d): %v, %d bytes read", len(body), size, err, len(out))
		}
		return out
	}
	released := make([]byte, 1<<20)
	for _, size := range []int64{-1, 900 << 10} {
		ReleaseBody(released)
		out := read(bytes.Repeat([]byte{4, 5, 6}, 300<<10), size)
		if at != &released[0] || &out[0] != &released[0] {
			t.Fatalf("announced %d: not read into the released buffer (read there first: %v)", size, at == &released[0])
		}
	}
	// A buffer that is not a whole number of chunks (a body's allocation)
	// holds a body that ends in its last, shorter piece.
	odd := make([]byte, 1<<20+8<<10)
	ReleaseBody(odd)
	if out := read(bytes.Repeat([]byte{9}, 1<<20+1000), -1); &out[0] != &odd[0] {
		t.Fatal("a body ending in the released buffer's last piece (under a chunk) was not returned in it")
	}
	ReleaseBody(released)
	long := read(bytes.Repeat([]byte{7}, 3<<20+5), -1) // spills into chunks
	if &long[0] == &released[0] || len(bodyPool) != 1 {
		t.Fatalf("a body longer than the released buffer: returned in it %v, %d kept", &long[0] == &released[0], len(bodyPool))
	}
	small := read(bytes.Repeat([]byte{8}, 100<<10), -1)
	if &small[0] == &released[0] || cap(small) != len(small) || len(bodyPool) != 1 {
		t.Fatalf("a small body: in the released buffer %v, capacity %d for %d bytes, %d kept", &small[0] == &released[0], cap(small), len(small), len(bodyPool))
	}
	<-bodyPool
}

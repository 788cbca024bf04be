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

package store

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestBidNote: a small bid travels whole in its notification and decodes
// to the bid stored; one that would reach PostgreSQL's payload limit is
// named by hash alone; malformed payloads are refused with errBidNote.
func TestBidNote(t *testing.T) {
	bid := sharedBid(1<<40, 9, 12345, -7)
	bid.Cancellable, bid.Origin = true, "0123456789abcdef"
	payload := bidNotePayload(bid)
	h, origin, carried, err := parseBidNote(payload)
	if err != nil || h != bid.BlockHash || origin != bid.Origin || carried == "" {
		t.Fatalf("parsed %s %q %q %v", h, origin, carried, err)
	}
	got, err := decodeCarriedBid(h, origin, carried)
	if err != nil || !reflect.DeepEqual(got, bid) {
		t.Fatalf("carried bid %+v %v, want %+v", got, err, bid)
	}

	// Near PostgreSQL's limit: a payload never goes over it, and past
	// some size the bid is no longer carried.
	carriedBefore := true
	for size := 5000; size <= 6000; size++ {
		bid.Submission = make([]byte, size)
		payload := bidNotePayload(bid)
		if len(payload) > maxNotifyPayload {
			t.Fatalf("%d-byte submission: payload of %d bytes, limit %d", size, len(payload), maxNotifyPayload)
		}
		_, _, carried, err := parseBidNote(payload)
		if err != nil || (carried != "" && !carriedBefore) {
			t.Fatalf("%d-byte submission: carried %d bytes after a smaller one was not, %v", size, len(carried), err)
		}
		carriedBefore = carried != ""
		if (size == 5000 && carried == "") || (size == 6000 && carried != "") {
			t.Fatalf("%d-byte submission: carried %d bytes", size, len(carried))
		}
	}

	for _, bad := range []string{"", "zz a", strings.Repeat("ab", 31) + " a", strings.Repeat("ab", 33) + " a"} {
		if _, _, _, err := parseBidNote(bad); !errors.Is(err, errBidNote) {
			t.Errorf("payload %q: %v, want errBidNote", bad, err)
		}
	}
	valid := bidNotePayload(sharedBid(1, 1, 1, 1))
	h, origin, carried, _ = parseBidNote(valid)
	raw, _ := base64.RawStdEncoding.DecodeString(carried)
	raw[184] = 2
	for name, c := range map[string]string{
		"not base64":         "!" + carried[1:],
		"short":              base64.RawStdEncoding.EncodeToString(raw[:bidNoteFixed-1]),
		"cancellable flag 2": base64.RawStdEncoding.EncodeToString(raw),
	} {
		if _, err := decodeCarriedBid(h, origin, c); !errors.Is(err, errBidNote) {
			t.Errorf("%s: %v, want errBidNote", name, err)
		}
	}
}

// FuzzBidNote: no payload makes the notification decoders panic, and a
// carried bid that decodes encodes back to the same payload.
func FuzzBidNote(f *testing.F) {
	f.Add(bidNotePayload(sharedBid(5, 2, 300, 20)))
	f.Add(strings.Repeat("00", 32) + " a")
	f.Add(strings.Repeat("00", 32) + " a AAAA")
	f.Add("")
	f.Fuzz(func(t *testing.T, payload string) {
		h, origin, carried, err := parseBidNote(payload)
		if err != nil || carried == "" {
			return
		}
		bid, err := decodeCarriedBid(h, origin, carried)
		if err != nil {
			return
		}
		_, _, again, _ := parseBidNote(bidNotePayload(bid))
		if again == "" {
			return // too large to carry: named by hash
		}
		if b2, err := decodeCarriedBid(h, origin, again); err != nil || !reflect.DeepEqual(b2, bid) {
			t.Fatalf("payload %q: re-encoded bid %+v, %v; want %+v", payload, b2, err, bid)
		}
	})
}

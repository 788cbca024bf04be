package bundle

import (
	"testing"
	"time"
)

func TestFormatTime(t *testing.T) {
	at := time.Date(2026, 11, 24, 23, 50, 1, 250e6, time.FixedZone("CET", 3600))
	if got := FormatTime(at); got != "2026-11-24T22:50:01.250Z" {
		t.Fatalf("FormatTime: %s", got)
	}
	if got := FormatUnixMilli(at.UnixMilli()); got != "2026-11-24T22:50:01.250Z" {
		t.Fatalf("FormatUnixMilli: %s", got)
	}
}

package bundle

import "time"

// TimeLayout is how the bundle APIs write a point in time: RFC 3339 in UTC
// with milliseconds, e.g. 2026-11-24T23:50:01.250Z.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// FormatTime writes t in TimeLayout.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// FormatUnixMilli writes a unix time in milliseconds in TimeLayout.
func FormatUnixMilli(ms int64) string { return FormatTime(time.UnixMilli(ms)) }

package api

import (
	"math"
	"time"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file decodes the timestamps of a match request: one per point, each either a number of seconds since
// 1970-01-01T00:00:00Z (what GPS loggers and OSRM's /match send) or an RFC 3339 date-time with a UTC offset (what
// departure_time takes), never earlier than the one before: a trace is matched in the order it was recorded, and
// a clock that runs backwards says the points are not in that order.

// maxUnixSeconds is the largest timestamp in seconds accepted: the year 9999, beyond which RFC 3339 cannot
// write the time back.
const maxUnixSeconds = 253402300799

// timestampList reads an array of timestamps, reporting each invalid item and each item earlier than the one
// before; n is how many items the array held, -1 when the member is not an array.
func (d *decoder) timestampList(p jsonscan.Pointer, max int) (list []time.Time, n int) {
	if !d.enterArray(p, "an array of timestamps (seconds since 1970 or RFC 3339 date-times), one per point") {
		return nil, -1
	}
	list = make([]time.Time, 0, 64)
	var prev time.Time
	prevAt := -1
	for first := true; d.s.Next(']', first); first = false {
		if n >= max {
			d.s.Skip()
			n++
			continue
		}
		t, ok := d.timestamp(p.Index(n))
		if ok && prevAt >= 0 && t.Before(prev) {
			d.errs.addf(p.Index(n), "is earlier than timestamp %d (%s): timestamps must not decrease",
				prevAt, prev.Format(time.RFC3339Nano))
		}
		if ok {
			prev, prevAt = t, n
		}
		list = append(list, t)
		n++
	}
	return list, n
}

// timestamp reads one timestamp: a number of seconds since 1970 (fractions allowed) or an RFC 3339 date-time
// with a UTC offset.
func (d *decoder) timestamp(p jsonscan.Pointer) (time.Time, bool) {
	const want = "seconds since 1970-01-01T00:00:00Z, or an RFC 3339 date-time with a UTC offset such as 2026-11-24T08:00:00+01:00"
	switch d.s.Kind() {
	case jsonscan.Number:
		v, ok := d.number(p, "timestamp in seconds")
		if !ok {
			return time.Time{}, false
		}
		if v < 0 || v > maxUnixSeconds {
			d.errs.addf(p, "must be %s, from 0 to %d seconds, got %s", want, maxUnixSeconds, formatNumber(v))
			return time.Time{}, false
		}
		sec, frac := math.Modf(v)
		return time.Unix(int64(sec), int64(math.Round(frac*1e9))).UTC(), true
	case jsonscan.String:
		s, _, ok := d.stringValue(p, want)
		if !ok {
			return time.Time{}, false
		}
		text := upperRFC3339(s)
		t, err := time.Parse(time.RFC3339, text)
		if err == nil {
			return t, true
		}
		if _, local := time.Parse("2006-01-02T15:04:05", text); local == nil {
			d.errs.addf(p, "has no UTC offset; must be %s", want)
		} else {
			d.errs.addf(p, "must be %s, got %s", want, quoteValue(s))
		}
		return time.Time{}, false
	default:
		d.errs.wrongType(p, want, d.s.Kind())
		d.s.Skip()
		return time.Time{}, false
	}
}

package ratelimit

import (
	"fmt"
	"time"
)

// Window is the window X-RateLimit-Limit counts over: a key limited to N
// requests per second may send N at once (its burst) and then one more
// every 1/N s. Limit, Remaining and Reset all speak of this one window, so
// the headers add up: Remaining starts at Limit, drops by one a request,
// and is back to Limit at Reset.
const Window = time.Second

// rate is a limit turned into GCRA quantities, in one time unit (ns for the
// in-process limiter, µs for Redis).
type rate struct {
	interval int64 // cost of one request: Window / limit
	span     int64 // limit * interval (= Window): how far TAT may run ahead of now
	limit    int
}

// newRate converts limit requests per Window, all of which may arrive at
// once, into units of unit.
func newRate(limit int, unit time.Duration) (rate, error) {
	if limit < 1 {
		return rate{}, fmt.Errorf("%w: got %d", ErrInvalidLimit, limit)
	}
	interval := max(1, int64(Window/unit)/int64(limit))
	return rate{interval: interval, span: int64(limit) * interval, limit: limit}, nil
}

// decide applies one request at now to a key whose theoretical arrival
// time is tat. It returns the new tat (unchanged when denied) and the
// decision, with times relative to now in the rate's unit.
func (r rate) decide(tat, now int64) (newTAT int64, d verdict) {
	tat = max(tat, now)
	next := tat + r.interval
	if next-now > r.span {
		return tat, verdict{resetIn: tat - now, retryIn: next - r.span - now}
	}
	return next, verdict{allowed: true, remaining: (r.span - (next - now)) / r.interval, resetIn: next - now}
}

// verdict is a decision before it is dated.
type verdict struct {
	allowed   bool
	remaining int64
	resetIn   int64 // until Remaining is back to the limit
	retryIn   int64 // until one request fits (denied only)
}

// decision dates a verdict taken at now, in units of unit.
func (v verdict) decision(limit int, now time.Time, unit time.Duration) Decision {
	return Decision{
		Allowed:    v.allowed,
		Limit:      limit,
		Remaining:  int(v.remaining),
		Reset:      now.Add(time.Duration(v.resetIn) * unit),
		RetryAfter: time.Duration(v.retryIn) * unit,
	}
}

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

func header() string {
	return fmt.Sprintf("%-34s %9s %9s %9s %9s %9s  %s", "test", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "status codes")
}

// row formats a run: throughput counts every answered request (any status);
// transport errors show as status 0.
func (r *result) row(label string) string {
	slices.Sort(r.latencies)
	pct := func(p float64) string {
		i := min(len(r.latencies)-1, int(p*float64(len(r.latencies))))
		return fmt.Sprintf("%.3f", float64(r.latencies[i])/float64(time.Millisecond))
	}
	codes := make([]int, 0, len(r.codes))
	for c := range r.codes {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d:%d", c, r.codes[c])
	}
	rps := float64(len(r.latencies)) / r.elapsed.Seconds()
	return fmt.Sprintf("%-34s %9d %9.0f %9s %9s %9s  %s", label, len(r.latencies), rps, pct(0.5), pct(0.9), pct(0.99), b.String())
}

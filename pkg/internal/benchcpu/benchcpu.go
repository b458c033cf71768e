// Package benchcpu reports a benchmark's CPU time per operation. On a
// machine shared with other work, wall time per op depends on how much of
// the cores the benchmark got; the process's CPU time per op (user and
// system, every thread, garbage collection included) much less so, and
// 1e9 / cpu-ns/op is what one core would sustain.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// Now returns the CPU time the process has used so far, or 0 if the system
// does not say.
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report starts counting; the function it returns reports the CPU time per
// operation since then as cpu-ns/op. Use it as `defer benchcpu.Report(b)()`.
func Report(b *testing.B) func() {
	start := Now()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(Now()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

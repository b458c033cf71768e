package ch_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// BenchmarkBuild contracts Andorra's turn graph of each profile, the work
// mapc build does once per profile (the 3M-node country's figures are in
// BENCHMARKS.md, "Compile"). cpu-ms/op is the process's CPU time, which a
// loaded machine inflates much less than the wall time.
func BenchmarkBuild(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	for _, profile := range []string{"car", "bicycle", "pedestrian"} {
		in := ch.FromGraph(rel.Routers[profile].Graph())
		b.Run(profile, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if _, err := ch.Build(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

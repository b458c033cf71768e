package match_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/match"
)

// BenchmarkMatch matches one trace of 100 and one of 2,000 fixes (chained
// random car routes on Andorra, 15 m of noise, 2 % outliers), recorded
// every 1 and every 5 seconds: the whole computation, candidates to the
// matchings' routes (geometry is drawn by the handler, not here).
func BenchmarkMatch(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	for _, every := range []float64{1, 5} {
		for _, n := range []int{100, 2000} {
			rng := rand.New(rand.NewPCG(38, uint64(n)))
			tr := traceOf(longTrace(b, rng, r, n, every, 15))
			b.Run(fmt.Sprintf("every=%gs/points=%d", every, n), func(b *testing.B) {
				b.ReportAllocs()
				cpu := cpuTime()
				for b.Loop() {
					if _, err := m.Match(context.Background(), tr); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// cpuTime is the process's user and system CPU time so far: on a shared
// machine, a benchmark's wall time says more about the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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
	"github.com/mapsco/maps/pkg/serving"
)

// BenchmarkMatch matches one trace of 100 and one of 2,000 fixes (chained
// random car routes on Andorra, 15 m of noise, 2 % outliers), recorded
// every 1, 5 and 15 seconds: the whole computation, candidates to the
// matchings' routes (geometry is drawn by the handler, not here).
func BenchmarkMatch(b *testing.B) {
	benchmarkMatch(b, compiletest.OpenAndorra(b))
}

// BenchmarkSynthMatch is BenchmarkMatch on the ~3M-node synthetic country
// (a release of `mapc synth --nodes 3000000` in MAPS_SYNTH_RELEASE; the
// chained routes cross it, so its traces leave every town they start in):
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthMatch -count 6 ./pkg/match
func BenchmarkSynthMatch(b *testing.B) {
	benchmarkMatch(b, compiletest.OpenSynth(b))
}

func benchmarkMatch(b *testing.B, rel *serving.Release) {
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	for _, every := range []float64{1, 5, 15} {
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

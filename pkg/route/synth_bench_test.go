package route_test

import (
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

// BenchmarkSynthLeg is the issue's "car route under 0.5 ms of compute on the
// ~3M-node synthetic country": one hierarchy query with unpacking between
// random car-road points anywhere in the country (snapping excluded, as in
// BenchmarkLeg), so most routes cross many tiles. It needs a release of
// `mapc synth --nodes 3000000` in MAPS_SYNTH_RELEASE:
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthLeg -count 6 ./pkg/route
func BenchmarkSynthLeg(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	pairs := legPairs(r, 1000)
	q := r.Query()
	for _, p := range pairs { // fault the hierarchy's pages in, as a warm server has
		r.Leg(q, p[0], p[1])
	}
	var km float64
	i := 0
	defer benchcpu.Report(b)()
	for b.Loop() {
		p := pairs[i%len(pairs)]
		i++
		leg, ok := r.Leg(q, p[0], p[1])
		if !ok {
			b.Fatal("no route")
		}
		km += leg.DistanceM / 1000
	}
	b.ReportMetric(km/float64(i), "km/route")
}

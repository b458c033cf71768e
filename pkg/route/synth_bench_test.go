package route_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
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
	g := r.Graph()
	rng := rand.New(rand.NewPCG(8, 9))
	var pairs [][2]snap.Result
	for len(pairs) < 1000 {
		p, err := r.Snap([]route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)})
		if err == nil && g.Big[p[0].Seg] == 1 && g.Big[p[1].Seg] == 1 {
			pairs = append(pairs, [2]snap.Result{p[0], p[1]})
		}
	}
	q := r.Query()
	for _, p := range pairs { // fault the hierarchy's pages in, as a warm server has
		r.Leg(q, p[0], p[1])
	}
	var km float64
	i := 0
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

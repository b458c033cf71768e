package route_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
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

// BenchmarkSynthPolyline is the answer's geometry alone on the ~3M-node
// synthetic country: walking a route found between random car-road points
// and encoding its shape as polyline6, as a directions answer does.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthPolyline -count 6 ./pkg/route
func BenchmarkSynthPolyline(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	var routes []*route.Route
	points := 0
	for _, p := range legPairs(r, 200) {
		rt, err := r.Route(context.Background(), []route.Point{{p[0].Lon, p[0].Lat}, {p[1].Lon, p[1].Lat}}, nil)
		if err != nil {
			b.Fatal(err)
		}
		routes = append(routes, rt)
		points += len(rt.Shape())
	}
	var buf []byte
	i := 0
	defer benchcpu.Report(b)()
	for b.Loop() {
		buf = routes[i%len(routes)].AppendPolyline(buf[:0], 6)
		i++
	}
	b.ReportMetric(float64(points)/float64(len(routes)), "points/route")
}

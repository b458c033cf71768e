package route_test

import (
	"math"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// BenchmarkSynthLegAvoid is a car leg between random car-road points of
// the ~3M-node synthetic country without an area and with a 2 km square
// avoided around the middle of the leg's own fastest path (each leg must
// leave its road: the worst case), the request's state (its overlay) made
// per leg as a request makes it; alternate rounds by repeating the run:
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthLegAvoid -benchtime 300x ./pkg/route
func BenchmarkSynthLegAvoid(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	type trip struct {
		a, b snap.Result
		area *geo.Area
	}
	var trips []trip
	q := r.Query()
	for _, p := range legPairs(r, 400) {
		q.SetState(nil)
		leg, ok := r.Leg(q, p[0], p[1])
		if !ok || len(leg.Arcs) < 3 {
			continue
		}
		s, _ := r.Graph().ArcSegment(leg.Arcs[len(leg.Arcs)/2])
		begin, end := r.Graph().Net.Points(s)
		lon, lat := r.Graph().Net.Point((begin + end) / 2)
		area := squareArea(lon, lat, 1000)
		_, aIn := area.Contains(p[0].Lon, p[0].Lat)
		_, bIn := area.Contains(p[1].Lon, p[1].Lat)
		if !aIn && !bIn {
			trips = append(trips, trip{p[0], p[1], area})
		}
	}
	r.PutQuery(q)
	for _, withArea := range []bool{false, true} {
		b.Run(map[bool]string{false: "none", true: "square-on-route"}[withArea], func(b *testing.B) {
			q := r.Query()
			defer r.PutQuery(q)
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				t := trips[i%len(trips)]
				i++
				var a route.Avoid
				if withArea {
					a.Areas = t.area
				}
				q.SetState(r.StateAvoiding(time.Time{}, 0, a))
				r.Leg(q, t.a, t.b)
			}
		})
	}
}

// squareArea is a square of half-side m metres around (lon, lat).
func squareArea(lon, lat, m float64) *geo.Area {
	dLat := m / geo.MetresPerDegreeLat
	dLon := dLat / math.Cos(lat*math.Pi/180)
	return geo.NewArea([][][][2]float64{{{{lon - dLon, lat - dLat}, {lon + dLon, lat - dLat}, {lon + dLon, lat + dLat},
		{lon - dLon, lat + dLat}, {lon - dLon, lat - dLat}}}})
}

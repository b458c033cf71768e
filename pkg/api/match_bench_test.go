package api

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkMatchHandler measures one unmetered map-matching request of
// 100 fixes through the whole handler (decode, candidates, transitions,
// routes, GeoJSON geometry, tracepoints, JSON) on Andorra: fixes taken
// every 1, 5 and 15 s along random car routes, with 15 m of Gaussian noise
// and timestamps, as TestSideBySideWithOSRM sends them (docs/matching.md):
//
//	go test -run X -bench MatchHandler -count 6 ./pkg/api
func BenchmarkMatchHandler(b *testing.B) {
	d := newDirectionsBench(b)
	r := d.rel.Routers["car"]
	for _, every := range []float64{1, 5, 15} {
		bodies := matchBodies(b, r, 64, 100, every, 15)
		b.Run(fmt.Sprintf("every=%gs/points=100", every), func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				d.handle(b, &ctx, "/v1/match", bodies[i%len(bodies)])
				i++
			}
		})
	}
}

// matchBodies returns n match requests of points fixes each, sampled
// every seconds along random car routes at their average speed, with
// Gaussian noise of sigma metres on each axis.
func matchBodies(b *testing.B, r *route.Router, n, points int, every, sigma float64) [][]byte {
	g := r.Graph()
	rng := rand.New(rand.NewPCG(38, uint64(every)))
	point := func() route.Point {
		for {
			seg := uint32(rng.IntN(g.Net.NumSegments()))
			if g.Big[seg] == 1 {
				lon, lat := g.Net.Point(g.Net.SegGeom[seg])
				return route.Point{lon, lat}
			}
		}
	}
	var out [][]byte
	for len(out) < n {
		rt, err := r.Route(context.Background(), []route.Point{point(), point()}, nil)
		if err != nil {
			continue
		}
		shape := rt.Shape()
		step := rt.DistanceM / max(rt.DurationS, 1) * every
		var coords, stamps []string
		along, next := 0.0, 0.0
		for i := 0; i+1 < len(shape) && len(coords) < points; i++ {
			a, c := shape[i], shape[i+1]
			d := geo.Distance(a[0], a[1], c[0], c[1])
			for next <= along+d && len(coords) < points {
				f := (next - along) / math.Max(d, 1e-9)
				lon, lat := a[0]+f*(c[0]-a[0]), a[1]+f*(c[1]-a[1])
				lat += rng.NormFloat64() * sigma / geo.MetresPerDegreeLat
				lon += rng.NormFloat64() * sigma / geo.MetresPerDegreeLat / geo.LonScale(lat)
				coords = append(coords, fmt.Sprintf("[%.6f,%.6f]", lon, lat))
				stamps = append(stamps, fmt.Sprint(1795852800+len(stamps)*int(every)))
				next += step
			}
			along += d
		}
		if len(coords) < points {
			continue // too short a drive
		}
		out = append(out, fmt.Appendf(nil, `{"coordinates":[%s],"timestamps":[%s],"geometry_format":"geojson"}`,
			strings.Join(coords, ","), strings.Join(stamps, ",")))
	}
	return out
}

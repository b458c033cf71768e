package api

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

// encamp is the centre of the benchmarks' avoided area: the CG-2 in
// Encamp, which most trips between the parishes of the east and the west
// cross.
var encamp = [2]float64{1.5800, 42.5355}

// avoidAreaJSON is a GeoJSON Polygon of n vertices (4: a square) around
// encamp, 1 km across.
func avoidAreaJSON(n int) string {
	const r = 0.0045 // degrees of latitude: 500 m
	k := 1 / math.Cos(encamp[1]*math.Pi/180)
	var pos []string
	for i := range n {
		ang := 2*math.Pi*float64(i)/float64(n) + math.Pi/4
		rad := r
		if n == 4 {
			rad = r * math.Sqrt2 // the square's corners
		}
		pos = append(pos, fmt.Sprintf("[%.7f,%.7f]", encamp[0]+rad*k*math.Cos(ang), encamp[1]+rad*math.Sin(ang)))
	}
	pos = append(pos, pos[0])
	return `{"type":"Polygon","coordinates":[[` + strings.Join(pos, ",") + `]]}`
}

// outsidePoints returns n random points on car roads of Andorra's main
// component, none within 1 km of encamp (so none lies inside the areas).
func (d *directionsBench) outsidePoints(rng *rand.Rand, n int) []string {
	g := d.rel.Routers["car"].Graph()
	var out []string
	for len(out) < n {
		seg := uint32(rng.IntN(g.Net.NumSegments()))
		if g.Big[seg] != 1 {
			continue
		}
		lon, lat := g.Net.Point(g.Net.SegGeom[seg])
		if geo.Distance(lon, lat, encamp[0], encamp[1]) < 1000 {
			continue
		}
		out = append(out, fmt.Sprintf("[%.6f,%.6f]", lon, lat))
	}
	return out
}

// BenchmarkAvoidArea measures server CPU per request (cpu-ns/op) for car
// directions between random points, a 100×100 table and a 10-minute
// isochrone on Andorra, each without an avoided area, with a 1 km square
// over the CG-2 at Encamp and with a 1,000-vertex polygon of the same
// size. One run measures each in turn; repeat runs, not -count (which
// repeats each sub-benchmark in a row), to alternate the rounds:
//
//	for i in 1 2 3 4 5 6; do go test -run X -bench AvoidArea -benchtime 20x ./pkg/api; done
func BenchmarkAvoidArea(b *testing.B) {
	d := newDirectionsBench(b)
	rng := rand.New(rand.NewPCG(35, 2))
	pts := d.outsidePoints(rng, 512)
	table := "[" + strings.Join(pts[:100], ",") + "]"
	areas := []struct{ name, member string }{{"none", ""}, {"square", `,"avoid_areas":` + avoidAreaJSON(4)},
		{"polygon1000", `,"avoid_areas":` + avoidAreaJSON(999)}}
	kinds := []struct {
		name, path string
		bodies     func(member string) [][]byte
	}{
		{"directions", "/v1/directions", func(member string) [][]byte {
			out := make([][]byte, 256)
			for i := range out {
				out[i] = fmt.Appendf(nil, `{"coordinates":[%s,%s],"alternatives":0%s}`, pts[2*i], pts[2*i+1], member)
			}
			return out
		}},
		{"table100", "/v1/matrix", func(member string) [][]byte {
			return [][]byte{fmt.Appendf(nil, `{"sources":%s,"targets":%s%s}`, table, table, member)}
		}},
		{"isochrone10min", "/v1/isochrone", func(member string) [][]byte {
			out := make([][]byte, 16)
			for i := range out {
				out[i] = fmt.Appendf(nil, `{"origin":%s,"contours":[{"time_minutes":10}]%s}`, pts[i], member)
			}
			return out
		}},
	}
	for _, k := range kinds {
		for _, a := range areas {
			bodies := k.bodies(a.member)
			b.Run(k.name+"/"+a.name, func(b *testing.B) {
				var ctx fasthttp.RequestCtx
				i := 0
				defer benchcpu.Report(b)()
				for b.Loop() {
					d.handle(b, &ctx, k.path, bodies[i%len(bodies)])
					i++
				}
			})
		}
	}
}

package snap_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/snap"
)

// BenchmarkNearest measures one car snap for points about 1 m, 1 km and
// 20 km from the nearest car road (64 points each, drawn once: the first
// two kinds inside Andorra's box, the last south of the extract, where the
// coverage check would refuse them, so the search runs without it).
func BenchmarkNearest(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	f := rel.Routers["car"].Finder()
	rng := rand.New(rand.NewPCG(8, 9))
	for _, want := range []float64{1, 1000, 20000} {
		pts := make([][2]float64, 0, 64)
		for len(pts) < cap(pts) {
			lon, lat := minLon+rng.Float64()*(maxLon-minLon), minLat+rng.Float64()*(maxLat-minLat)
			if want == 20000 {
				lon, lat = 1.35+rng.Float64()*0.5, 42.2+rng.Float64()*0.1
			}
			s, err := f.NearestAnywhere(lon, lat, snap.Options{}, nil)
			if err != nil {
				continue
			}
			if want == 1 { // 1 m off the road found, across it
				k := geo.LonScale(lat)
				dx, dy := (lon-s.Lon)*k, lat-s.Lat
				l := math.Hypot(dx, dy) * geo.MetresPerDegreeLat
				lon, lat = s.Lon+dx/l/k, s.Lat+dy/l
				if s, err = f.NearestAnywhere(lon, lat, snap.Options{}, nil); err != nil || s.Dist > 1.01 {
					continue
				}
			} else if math.Abs(s.Dist-want) > want/10 {
				continue
			}
			pts = append(pts, [2]float64{lon, lat})
		}
		b.Run(fmt.Sprintf("from=%gm", want), func(b *testing.B) {
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				p := pts[i%len(pts)]
				if _, err := f.NearestAnywhere(p[0], p[1], snap.Options{}, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

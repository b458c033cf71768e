package snap_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/snap"
)

// BenchmarkSynthNearest measures one car snap on the ~3M-node synthetic
// country (MAPS_SYNTH_RELEASE), of the 200 points the table benchmarks
// place (pkg/matrix: random shape points of main-component roads, moved up
// to about 30 m, every fifth near the one before), of 50,000 points drawn
// the same way (too many to stay in the cache between two snaps of one, as
// in a table, whose searches evict the index) and of 50,000 points drawn
// uniformly over the country's box within the radius of a road.
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m-q go test -run X -bench SynthNearest -count 6 ./pkg/snap
func BenchmarkSynthNearest(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	f := rel.Routers["car"].Finder()
	minLon, minLat, maxLon, maxLat := f.Index().Extent()
	uniform := make([][2]float64, 0, 50000)
	rng := rand.New(rand.NewPCG(10, 11))
	for len(uniform) < cap(uniform) {
		lon, lat := minLon+rng.Float64()*(maxLon-minLon), minLat+rng.Float64()*(maxLat-minLat)
		if _, err := f.Nearest(lon, lat, snap.Options{}, nil); err == nil { // not far out at sea
			uniform = append(uniform, [2]float64{lon, lat})
		}
	}
	for _, c := range []struct {
		name string
		pts  [][2]float64
	}{{"table", tablePoints(f, 200)}, {"roads", tablePoints(f, 50000)}, {"uniform", uniform}} {
		b.Run(c.name, func(b *testing.B) {
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				p := c.pts[i%len(c.pts)]
				if _, err := f.Nearest(p[0], p[1], snap.Options{}, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// tablePoints draws n points as pkg/matrix's table benchmarks do, a
// hundred at a time with their seed: both tables' sources then targets.
func tablePoints(f *snap.Finder, n int) [][2]float64 {
	rng := rand.New(rand.NewPCG(5, 6))
	var pts [][2]float64
	for len(pts) < n {
		pts = append(pts, compiletest.NearRoadPoints(rng, f.Graph(), min(100, n-len(pts)))...)
	}
	return pts
}

package elevation

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

func benchPoints() [][2]float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	pts := make([][2]float64, 1000)
	for i := range pts { // the Andorra box
		pts[i] = [2]float64{1.41 + 0.38*rng.Float64(), 42.43 + 0.23*rng.Float64()}
	}
	return pts
}

// BenchmarkAt1000Cold answers 1000 points with an empty cache each time
// (every block touched is decompressed once).
func BenchmarkAt1000Cold(b *testing.B) {
	f, err := artifact.Open(andorraFile(b))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	pts := benchPoints()
	hs, oks := make([]float64, 0, 1000), make([]bool, 0, 1000)
	b.ReportAllocs()
	for b.Loop() {
		d, err := Open(f, 0)
		if err != nil {
			b.Fatal(err)
		}
		hs, oks = d.AtMany(hs[:0], oks[:0], pts)
	}
}

// BenchmarkAt1000Warm answers 1000 points with every block already cached.
func BenchmarkAt1000Warm(b *testing.B) {
	d := openDEM(b, 0)
	pts := benchPoints()
	hs, oks := d.AtMany(nil, nil, pts)
	b.ReportAllocs()
	for b.Loop() {
		hs, oks = d.AtMany(hs[:0], oks[:0], pts)
	}
}

// BenchmarkEdgeClimb profiles a 300 m edge, the graph compiler's call.
func BenchmarkEdgeClimb(b *testing.B) {
	d := openDEM(b, 0)
	pts := [][2]float64{{1.5218, 42.5063}, {1.5230, 42.5070}, {1.5245, 42.5075}, {1.5252, 42.5080}}
	var p Profiler
	b.ReportAllocs()
	for b.Loop() {
		p.Edge(d, pts, Ground)
	}
}

func benchBuild(b *testing.B, tiles ...string) {
	rasters := openTiles(b, tiles...)
	b.ReportAllocs()
	for b.Loop() {
		w, _ := artifact.NewWriter("elevation", "bench")
		if _, err := Build(context.Background(), rasters, w, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildN42E001(b *testing.B)        { benchBuild(b, "N42E001") }
func BenchmarkBuildN42E001N41E001(b *testing.B) { benchBuild(b, "N42E001", "N41E001") }

// BenchmarkClimb turns sampled profiles into Climbs: the part of a
// directions request's terrain that runs on every request whatever is
// stored (fill, smooth, hysteresis, steepest grade). The 64 profiles, used
// in turn so that no branch predictor learns one, are meandering roads of
// 150 shape points with pieces of 1 to 40 m, about 1,000 samples each, as
// a random Andorra car route has.
func BenchmarkClimb(b *testing.B) {
	d := openDEM(b, 0)
	rng := rand.New(rand.NewPCG(5, 5))
	var profiles []Profiler
	for range 64 {
		pts := [][2]float64{{1.45 + 0.3*rng.Float64(), 42.45 + 0.15*rng.Float64()}}
		for range 600 {
			last := pts[len(pts)-1]
			step := (1 + 39*rng.Float64()) / 111000
			a := rng.Float64() * 2 * math.Pi
			pts = append(pts, [2]float64{last[0] + step*math.Cos(a)/0.737, last[1] + step*math.Sin(a)})
		}
		var p Profiler
		p.sampleLine(d, pts, nil, Ground)
		profiles = append(profiles, p)
	}
	samples := 0
	for _, p := range profiles {
		samples += len(p.d)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		profiles[i%len(profiles)].climb()
		i++
	}
	b.ReportMetric(float64(samples)/float64(len(profiles)), "samples/op")
}

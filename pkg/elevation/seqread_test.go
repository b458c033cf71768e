package elevation

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
)

// TestSeqReaderMatchesAt reads lines of samples through the sequential
// reader and checks every height and coverage flag against At: lines that
// cross block and tile edges, leave coverage, and a small cache that evicts
// while they are read.
func TestSeqReaderMatchesAt(t *testing.T) {
	for _, blocks := range []int{0, 2} {
		d := openDEM(t, blocks)
		rng := rand.New(rand.NewPCG(5, 6))
		var r seqReader
		for line := range 200 {
			// From around Andorra, out to 1.5° away: beyond the tile's edges.
			lon, lat := 1.3+0.5*rng.Float64(), 42.3+0.5*rng.Float64()
			dlon, dlat := (rng.Float64()-0.5)*3e-3, (rng.Float64()-0.5)*3e-3
			pts := make([][2]float64, 500)
			for i := range pts {
				pts[i] = [2]float64{lon + float64(i)*dlon, lat + float64(i)*dlat}
				if i == 250 && line%10 == 0 {
					pts[i] = [2]float64{float64(int(pts[i][0])), float64(int(pts[i][1]))} // a tile corner
				}
			}
			hs, oks := make([]float64, len(pts)), make([]bool, len(pts))
			r.begin(d)
			for i, p := range pts {
				hs[i], oks[i] = r.at(p[0], p[1])
			}
			r.end()
			for i, p := range pts {
				if h, ok := d.At(p[0], p[1]); h != hs[i] || ok != oks[i] {
					t.Fatalf("cache %d blocks, line %d sample %d %v: seq %v %v, At %v %v", blocks, line, i, p, hs[i], oks[i], h, ok)
				}
			}
		}
	}
}

// TestPieceLength checks that sampleLine's haversine with a carried cosine
// gives geo.Distance's result to the bit, so profiles (and the per-segment
// climbs mapc stores) do not change.
func TestPieceLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	a := [2]float64{1.5, 42.5}
	cosA := math.Cos(a[1] * math.Pi / 180)
	for i := range 100000 {
		b := [2]float64{a[0] + (rng.Float64()-0.5)*1e-3, a[1] + (rng.Float64()-0.5)*1e-3}
		if i%1000 == 0 {
			b = [2]float64{-180 + 360*rng.Float64(), -90 + 180*rng.Float64()}
		}
		l, cosB := pieceLength(a, b, cosA)
		if want := geo.Distance(a[0], a[1], b[0], b[1]); l != want {
			t.Fatalf("%v → %v: %v, geo.Distance %v", a, b, l, want)
		}
		a, cosA = b, cosB
	}
}

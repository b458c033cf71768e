package snap_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// TestCandidatesAreTheKNearestRoads checks Candidates against brute force:
// per usable segment its nearest piece, the k nearest segments within the
// radius, nearest first, at the same distances.
func TestCandidatesAreTheKNearestRoads(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	rng := rand.New(rand.NewPCG(38, 1))
	n := 400
	if testing.Short() {
		n = 100
	}
	for _, profile := range []string{"car", "pedestrian"} {
		f := rel.Routers[profile].Finder()
		g := f.Graph()
		found := 0
		for i := range n {
			lon, lat := roadOrNot(rng, g, i)
			radius := []float64{5, 30, 100, 400}[i%4]
			k := 1 + i%6
			got := f.Candidates(lon, lat, radius, k, nil, nil)
			want := bruteCandidates(g, lon, lat, radius, k)
			if len(got) != len(want) {
				t.Fatalf("%s (%v, %v) r=%v k=%d: %d candidates %+v, brute force %v", profile, lon, lat, radius, k, len(got), got, want)
			}
			for j := range got {
				if math.Abs(got[j].Dist-want[j]) > 1e-6 || got[j].Dist > radius {
					t.Fatalf("%s (%v, %v) r=%v k=%d: candidate %d at %.6f m, brute force %.6f", profile, lon, lat, radius, k, j, got[j].Dist, want[j])
				}
				if j > 0 && got[j].Seg == got[j-1].Seg {
					t.Fatalf("segment %d twice", got[j].Seg)
				}
			}
			found += len(got)
		}
		t.Logf("%s: %d candidates over %d points", profile, found, n)
	}
}

// bruteCandidates returns the distances of the k nearest usable segments.
func bruteCandidates(g *graph.Graph, lon, lat, radius float64, k int) []float64 {
	net := g.Net
	kk := geo.LonScale(lat)
	var ds []float64
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) {
			continue
		}
		begin, end := net.Points(s)
		best := math.Inf(1)
		for i := begin; i+1 < end; i++ {
			aLon, aLat := net.Point(i)
			bLon, bLat := net.Point(i + 1)
			best = min(best, geo.Project(lon, lat, kk, aLon, aLat, bLon, bLat).Dist)
		}
		if best <= radius && (g.ArcOf[graph.SegRef(s, false)] != graph.NoArc || g.ArcOf[graph.SegRef(s, true)] != graph.NoArc) {
			ds = append(ds, best)
		}
	}
	sort.Float64s(ds)
	return ds[:min(k, len(ds))]
}

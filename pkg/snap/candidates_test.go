package snap_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// TestCandidatesAreTheKNearestRoads checks Candidates against brute force:
// the pieces of usable segments by distance, each kept unless a kept one
// of its segment lies within snap.SameRoadApart, the k nearest within the
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
				for o := range j {
					if got[o].Seg == got[j].Seg && geo.Distance(got[o].Lon, got[o].Lat, got[j].Lon, got[j].Lat) <= snap.SameRoadApart {
						t.Fatalf("segment %d twice, %v and %v", got[j].Seg, got[o], got[j])
					}
				}
			}
			found += len(got)
		}
		t.Logf("%s: %d candidates over %d points", profile, found, n)
	}
}

// bruteCandidates returns the distances of the k nearest positions.
func bruteCandidates(g *graph.Graph, lon, lat, radius float64, k int) []float64 {
	net := g.Net
	kk := geo.LonScale(lat)
	type pos struct {
		seg      uint32
		lon, lat float64
		d        float64
	}
	var all []pos
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) || g.ArcOf[graph.SegRef(s, false)] == graph.NoArc && g.ArcOf[graph.SegRef(s, true)] == graph.NoArc {
			continue
		}
		begin, end := net.Points(s)
		for i := begin; i+1 < end; i++ {
			aLon, aLat := net.Point(i)
			bLon, bLat := net.Point(i + 1)
			if p := geo.Project(lon, lat, kk, aLon, aLat, bLon, bLat); p.Dist <= radius {
				all = append(all, pos{s, p.Lon, p.Lat, p.Dist})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].d < all[j].d })
	var kept []pos
	for _, p := range all {
		dup := false
		for _, o := range kept {
			dup = dup || o.seg == p.seg && geo.Distance(o.lon, o.lat, p.lon, p.lat) <= snap.SameRoadApart
		}
		if !dup {
			kept = append(kept, p)
		}
	}
	var ds []float64
	for _, p := range kept[:min(k, len(kept))] {
		ds = append(ds, p.d)
	}
	return ds
}

// TestNearestDistanceIsTheFirstCandidates checks NearestDistance against
// Candidates: the same distance as the first candidate, and none where
// there is none, with a CandidateFinder reused from point to point (its
// lists carried over must not leak into the next answer).
func TestNearestDistanceIsTheFirstCandidates(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	rng := rand.New(rand.NewPCG(38, 2))
	for _, profile := range []string{"car", "pedestrian"} {
		f := rel.Routers[profile].Finder()
		cf := f.CandidateFinder()
		found := 0
		for i := range 600 {
			lon, lat := roadOrNot(rng, f.Graph(), i)
			radius := []float64{5, 30, 150, 400}[i%4]
			d, ok := cf.NearestDistance(lon, lat, radius, nil)
			want := f.Candidates(lon, lat, radius, 1, nil, nil)
			if ok != (len(want) == 1) || ok && d != want[0].Dist {
				t.Fatalf("%s (%v, %v) r=%v: NearestDistance %v %v, Candidates %+v", profile, lon, lat, radius, d, ok, want)
			}
			if again := cf.Candidates(lon, lat, radius, 3, nil, nil); len(again) != len(f.Candidates(lon, lat, radius, 3, nil, nil)) {
				t.Fatalf("%s (%v, %v): a reused CandidateFinder found %d candidates", profile, lon, lat, len(again))
			}
			if ok {
				found++
			}
		}
		if found < 200 {
			t.Errorf("%s: only %d of 600 points had a road in reach: the test tests little", profile, found)
		}
	}
}

package snap_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// andorraBox is the box the users draw points in.
const minLon, minLat, maxLon, maxLat = 1.46, 42.44, 1.74, 42.63

// brute is the reference: every piece of every segment, filtered as the
// package comment says, nearest, nearest on the main component and nearest
// on the main component of a class other than track and service (of
// several at one distance, the first in segment order).
type brute struct {
	seg, piece uint32
	dist       float64
}

func bruteNearest(g *graph.Graph, st *graph.State, lon, lat, radius float64, b *snap.Bearing) (best, main, road brute) {
	net := g.Net
	best, main, road = brute{dist: math.Inf(1)}, brute{dist: math.Inf(1)}, brute{dist: math.Inf(1)}
	k := geo.LonScale(lat)
	open := func(s uint32, rev bool) bool {
		a := g.ArcOf[graph.SegRef(s, rev)]
		return a != graph.NoArc && (st == nil || st.ArcTime(g, a) != graph.NoWay)
	}
	// The filters only ever exclude a piece, so they are applied to the
	// pieces that would otherwise be the nearest so far.
	admitted := func(s uint32, aLon, aLat, bLon, bLat float64) bool {
		fwd, bwd := open(s, false), open(s, true)
		if b != nil {
			dx, dy := (bLon-aLon)*k, bLat-aLat
			h := math.Atan2(dx, dy) * 180 / math.Pi
			near := func(h float64) bool {
				d := math.Mod(math.Abs(h-b.Degrees), 360)
				return math.Min(d, 360-d) <= b.Tolerance
			}
			fwd = fwd && (dx != 0 || dy != 0) && near(h)
			bwd = bwd && (dx != 0 || dy != 0) && near(h+180)
		}
		return fwd || bwd
	}
	for s := range uint32(net.NumSegments()) {
		begin, end := net.Points(s)
		for i := begin; i+1 < end; i++ {
			aLon, aLat := net.Point(i)
			bLon, bLat := net.Point(i + 1)
			d := geo.Project(lon, lat, k, aLon, aLat, bLon, bLat).Dist
			minor := net.Class(s) == "track" || net.Class(s) == "service"
			if d > radius || (d >= best.dist && (g.Big[s] == 0 || d >= main.dist) && (g.Big[s] == 0 || minor || d >= road.dist)) ||
				!admitted(s, aLon, aLat, bLon, bLat) {
				continue
			}
			if g.Big[s] == 1 && !minor && d < road.dist {
				road = brute{s, i, d}
			}
			if d < best.dist {
				best = brute{s, i, d}
			}
			if g.Big[s] == 1 && d < main.dist {
				main = brute{s, i, d}
			}
		}
	}
	return best, main, road
}

// TestNearestFollowsTheRule checks the R-tree's answers against brute force
// on thousands of points drawn as users draw them (uniform over Andorra's
// box, on roads, at vertices where several roads tie, a few metres off a
// road), for three profiles, some with a radius and some with a bearing.
func TestNearestFollowsTheRule(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	rng := rand.New(rand.NewPCG(4, 4))
	n := 800
	if testing.Short() {
		n = 150
	}
	stats := map[string]int{}
	for _, profile := range []string{"car", "pedestrian", "truck"} {
		f := rel.Routers[profile].Finder()
		g := f.Graph()
		for i := range n {
			lon, lat := roadOrNot(rng, g, i)
			var o snap.Options
			if i%7 == 3 {
				o.Radius = []float64{1, 30, 300, 3000}[rng.IntN(4)]
			}
			if i%5 == 1 {
				o.Bearing = &snap.Bearing{Degrees: rng.Float64() * 360, Tolerance: []float64{10, 45, 90, 180}[rng.IntN(4)]}
			}
			got, err := f.Nearest(lon, lat, o, nil)
			radius := o.Radius
			if radius == 0 {
				radius = snap.DefaultRadius
			}
			best, main, road := bruteNearest(g, nil, lon, lat, radius, o.Bearing)
			minor := func(s uint32) bool { return g.Net.Class(s) == "track" || g.Net.Class(s) == "service" }
			check(t, profile, lon, lat, o, got, err, best, main, road, minor, stats)
		}
	}
	t.Logf("outcomes over %d points per profile: %v", n, stats)
}

// roadOrNot draws point i: a third uniform over the box, a third on a road
// (along a piece, or at its first point), a third up to 30 m off one.
func roadOrNot(rng *rand.Rand, g *graph.Graph, i int) (lon, lat float64) {
	if i%3 == 0 {
		return minLon + rng.Float64()*(maxLon-minLon), minLat + rng.Float64()*(maxLat-minLat)
	}
	net := g.Net
	s := uint32(rng.IntN(net.NumSegments()))
	for !g.Usable(s) {
		s = uint32(rng.IntN(net.NumSegments()))
	}
	begin, end := net.Points(s)
	pt := begin + uint32(rng.IntN(int(end-begin-1)))
	aLon, aLat := net.Point(pt)
	bLon, bLat := net.Point(pt + 1)
	f := rng.Float64()
	if i%6 == 1 {
		f = 0
	}
	lon, lat = aLon+f*(bLon-aLon), aLat+f*(bLat-aLat)
	if i%3 == 2 {
		lon += (rng.Float64() - 0.5) * 60 / geo.MetresPerDegreeLat / geo.LonScale(lat)
		lat += (rng.Float64() - 0.5) * 60 / geo.MetresPerDegreeLat
	}
	return lon, lat
}

func check(t *testing.T, profile string, lon, lat float64, o snap.Options, got snap.Snapped, err error, best, main, road brute, minor func(seg uint32) bool, stats map[string]int) {
	t.Helper()
	where := func() string {
		return fmt.Sprintf("%s (%.6f,%.6f)", profile, lon, lat)
	}
	if math.IsInf(best.dist, 1) {
		if !errors.Is(err, snap.ErrTooFar) {
			t.Fatalf("%s: brute force finds no road within %v, Nearest answers %+v, %v", where(), o.Radius, got, err)
		}
		stats["too far"]++
		return
	}
	if err != nil {
		t.Fatalf("%s (options %+v): %v, brute force finds segment %d at %.3f m", where(), o, err, best.seg, best.dist)
	}
	wantSeg, wantDist, wantFallback := best.seg, best.dist, false
	switch {
	case best.seg == main.seg && best.dist == main.dist:
		stats["nearest is main"]++
	case !math.IsInf(main.dist, 1) && main.dist <= best.dist+max(snap.MainSlack, snap.MainSlackRatio*best.dist):
		wantSeg, wantDist = main.seg, main.dist
		stats["main within slack"]++
	default:
		wantFallback = !math.IsInf(main.dist, 1)
		stats["nearest off main"]++
	}
	if minor(wantSeg) && road.dist <= snap.RoadReach {
		wantSeg, wantDist, wantFallback = road.seg, road.dist, false
		stats["road within reach"]++
	}
	// Of roads at the same distance any may win (the index's first), so a
	// different segment is right when it lies exactly as far. With a
	// bearing the point may be placed up to BearingInset along its piece
	// from the piece's nearest point (off a bend or a node), so it lies
	// that much farther at most.
	inset := 0.0
	if o.Bearing != nil {
		inset = snap.BearingInset
	}
	off := got.Dist - wantDist
	if (got.Seg != wantSeg && off > inset+1e-9) || off < -1e-9 || off > inset+1e-9 || got.HasFallback != wantFallback {
		t.Fatalf("%s (options %+v): snapped to segment %d at %.3f m (fallback %v), want segment %d at %.3f m (fallback %v); nearest %d at %.3f, main %d at %.3f",
			where(), o, got.Seg, got.Dist, got.HasFallback, wantSeg, wantDist, wantFallback, best.seg, best.dist, main.seg, main.dist)
	}
	if off := got.Fallback.Dist - main.dist; wantFallback && (off < -1e-9 || off > inset+1e-9 || !got.Fallback.Main) {
		t.Fatalf("%s: fallback %+v, want segment %d at %.3f m", where(), got.Fallback, main.seg, main.dist)
	}
	if got.Frac < 0 || got.Frac > 1 || math.Abs(geo.Distance(lon, lat, got.Lon, got.Lat)-got.Dist) > 0.01*got.Dist+0.01 {
		t.Fatalf("%s: fraction %f, snapped point %f,%f %.3f m away by great circle, %.3f m reported", where(), got.Frac, got.Lon, got.Lat,
			geo.Distance(lon, lat, got.Lon, got.Lat), got.Dist)
	}
}

// TestCoverage: inside the box of the roads grown by CoverageMargin a point
// snaps at any distance; beyond it, it is refused whatever the radius.
func TestCoverage(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	f := rel.Routers["car"].Finder()
	minLon, minLat, maxLon, maxLat := f.Index().Extent()
	margin := snap.CoverageMargin / geo.MetresPerDegreeLat
	cases := []struct {
		name     string
		lon, lat float64
		want     error
	}{
		{"Andorra la Vella", 1.5218, 42.5063, nil},
		{"just inside the margin, south", (minLon + maxLon) / 2, minLat - 0.9*margin, nil},
		{"just outside the margin, south", (minLon + maxLon) / 2, minLat - 1.1*margin, snap.ErrOutside},
		{"just outside the margin, east", maxLon + 1.6*margin, (minLat + maxLat) / 2, snap.ErrOutside},
		{"Barcelona", 2.17, 41.38, snap.ErrOutside},
		{"swapped Andorra la Vella", 42.5063, 1.5218, snap.ErrOutside},
		{"the Mediterranean", 3.5, 42.0, snap.ErrOutside},
		{"NaN", math.NaN(), 42.5, snap.ErrOutside},
	}
	for _, c := range cases {
		got, err := f.Nearest(c.lon, c.lat, snap.Options{}, nil)
		if !errors.Is(err, c.want) || (c.want == nil && got.Dist > 10000) {
			t.Errorf("%s (%f, %f): %v at %.0f m, want %v", c.name, c.lon, c.lat, err, got.Dist, c.want)
		}
	}
	_, err := f.Nearest(1.6578, 42.4873, snap.Options{Radius: 100}, nil) // 860 m from the nearest car road
	var far *snap.FarError
	if !errors.As(err, &far) || far.Radius != 100 || far.Nearest < 500 || far.Nearest > 1500 {
		t.Fatalf("100 m radius on a mountainside: %v", err)
	}
}

// TestClosedRoadIsNotSnappedTo: at the end of a street closed on weekday
// mornings, a car snaps to the open road that meets it there at 08:00 on a
// Tuesday, and to the nearest of the two at 10:00.
func TestClosedRoadIsNotSnappedTo(t *testing.T) {
	town := compiletest.TimedTown{W: 7, H: 4}
	rel := town.Open(t)
	r := rel.Routers["car"]
	f, g := r.Finder(), r.Graph()
	zone, err := time.LoadLocation("Europe/Andorra")
	if err != nil {
		t.Fatal(err)
	}
	tue8 := r.StateAt(time.Date(2026, 11, 24, 8, 0, 0, 0, zone))
	tue10 := r.StateAt(time.Date(2026, 11, 24, 10, 0, 0, 0, zone))
	// Carrer Major's block from column 2 to 3 is closed Mo-Fr 07:00-09:00;
	// a point 5 m east of corner (0, 2)... on the closed block itself, and
	// one on the corner where it meets open streets.
	corner := town.Corner(0, 2)
	next := town.Corner(0, 3)
	onBlock := [2]float64{corner[0] + 0.1*(next[0]-corner[0]), corner[1] - 0.00002}
	for _, p := range [][2]float64{onBlock, next} {
		at10, err := f.Nearest(p[0], p[1], snap.Options{}, tue10)
		if err != nil {
			t.Fatal(err)
		}
		at8, err := f.Nearest(p[0], p[1], snap.Options{}, tue8)
		if err != nil {
			t.Fatal(err)
		}
		closed := func(s uint32) bool {
			a := g.ArcOf[graph.SegRef(s, false)]
			return a == graph.NoArc || tue8.ArcTime(g, a) == graph.NoWay
		}
		if !closed(at10.Seg) && p == onBlock {
			t.Fatalf("at 10:00 the point on the block should snap to the block (segment %d)", at10.Seg)
		}
		if closed(at8.Seg) {
			t.Fatalf("at 08:00 %v snapped to segment %d, closed then", p, at8.Seg)
		}
		best, _, _ := bruteNearest(g, tue8, p[0], p[1], snap.DefaultRadius, nil)
		if at8.Dist != best.dist {
			t.Fatalf("at 08:00: segment %d at %.2f m, brute force %d at %.2f m", at8.Seg, at8.Dist, best.seg, best.dist)
		}
	}
}

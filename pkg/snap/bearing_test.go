package snap_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// TestBearingPlacesInsideThePiece sends points lying exactly on a road's
// shape points (bends, junctions, road ends: where a point drawn far from
// the roads most often lands) with the bearing of the piece leaving them.
// Each is placed strictly inside a piece, BearingInset (or half the piece)
// from the end it was at when it stays there, and every direction the result allows
// travels that piece within the tolerance: the heading the bearing was
// matched against is the one the route drives (issue 36 item 2).
func TestBearingPlacesInsideThePiece(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	f := rel.Routers["car"].Finder()
	g := f.Graph()
	net := g.Net
	rng := rand.New(rand.NewPCG(36, 5))
	const tol = 10
	inset := 0
	for range 500 {
		s := uint32(rng.IntN(net.NumSegments()))
		if !g.Usable(s) || g.ArcOf[graph.SegRef(s, false)] == graph.NoArc {
			continue
		}
		begin, end := net.Points(s)
		pt := begin + uint32(rng.IntN(int(end-begin-1)))
		lon, lat := net.Point(pt)
		bLon, bLat := net.Point(pt + 1)
		if lon == bLon && lat == bLat {
			continue
		}
		b := &snap.Bearing{Degrees: compass(lon, lat, bLon, bLat), Tolerance: tol}
		got, err := f.Nearest(lon, lat, snap.Options{Bearing: b}, nil)
		if err != nil {
			t.Fatalf("(%.7f, %.7f) heading %.1f: %v", lon, lat, b.Degrees, err)
		}
		aLon, aLat, cLon, cLat, ok := pieceHolding(net, got)
		if !ok {
			t.Fatalf("(%.7f, %.7f) heading %.1f: placed at %+v, at a shape point of segment %d, not inside a piece",
				lon, lat, b.Degrees, got.Result, got.Seg)
		}
		// The point may go to another road (a main-class one within
		// RoadReach, say); when it stays at a shape point of its own it
		// is moved in from there.
		if atEnd := lon == aLon && lat == aLat || lon == cLon && lat == cLat; atEnd {
			inset++
			length := geo.Distance(aLon, aLat, cLon, cLat)
			fromEnd := min(geo.Distance(aLon, aLat, got.Lon, got.Lat), geo.Distance(cLon, cLat, got.Lon, got.Lat))
			if want := min(snap.BearingInset, length/2); math.Abs(fromEnd-want) > 0.01 || got.Dist > snap.BearingInset+0.01 {
				t.Errorf("(%.7f, %.7f): placed %.3f m from its piece's end and %.3f m from the point, want %.3f m in",
					lon, lat, fromEnd, got.Dist, want)
			}
		}
		h := compass(aLon, aLat, cLon, cLat)
		for _, d := range []struct {
			allowed bool
			h       float64
		}{{!got.NoForward && g.ArcOf[graph.SegRef(got.Seg, false)] != graph.NoArc, h}, {!got.NoBackward && g.ArcOf[graph.SegRef(got.Seg, true)] != graph.NoArc, h + 180}} {
			if off := math.Abs(math.Remainder(d.h-b.Degrees, 360)); d.allowed && off > tol+0.1 {
				t.Errorf("(%.7f, %.7f) heading %.1f: placed on a piece travelled heading %.1f", lon, lat, b.Degrees, math.Mod(d.h, 360))
			}
		}
	}
	if inset == 0 {
		t.Fatal("no point was moved into its piece: the test shows nothing")
	}
	t.Logf("%d points moved into their piece", inset)
}

// pieceHolding finds the piece of p's segment that p lies strictly inside.
func pieceHolding(net *graph.Network, p snap.Snapped) (aLon, aLat, bLon, bLat float64, ok bool) {
	begin, end := net.Points(p.Seg)
	k := geo.LonScale(p.Lat)
	for i := begin; i+1 < end; i++ {
		aLon, aLat = net.Point(i)
		bLon, bLat = net.Point(i + 1)
		if pr := geo.Project(p.Lon, p.Lat, k, aLon, aLat, bLon, bLat); pr.Dist < 1e-3 && pr.T > 1e-9 && pr.T < 1-1e-9 {
			return aLon, aLat, bLon, bLat, true
		}
	}
	return 0, 0, 0, 0, false
}

// compass is the bearing of travel from a to b, degrees clockwise from north.
func compass(aLon, aLat, bLon, bLat float64) float64 {
	k := geo.LonScale(aLat)
	return math.Mod(360+math.Atan2((bLon-aLon)*k, bLat-aLat)*180/math.Pi, 360)
}

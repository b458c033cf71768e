package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

var ramio = route.Point{1.57254, 42.49732} // hamlet above Escaldes, about 1620 m

// TestEnvaliraTunnel: the car route from Andorra la Vella to Pas de la
// Casa goes through the Envalira tunnel (2.9 km, portals about 2010 and 2090
// m) and must not climb the Port d'Envalira (2408 m) above it.
func TestEnvaliraTunnel(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	rt, err := r.Route(context.Background(), []route.Point{andorraLaVella, pasDeLaCasa}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !usesTunnel(rel, rt, "Túnel d'Envalira") {
		t.Fatal("the car route does not take the Envalira tunnel")
	}
	road := r.Elevation(rel.DEM, rel.Terrain, rt)
	mountain := elevation.RouteClimb(rel.DEM, rt.Shape(), nil) // every piece read from the DEM
	t.Logf("road: ascent %.0f m, descent %.0f m, max grade %.3f, %.0f → %.0f m", road.AscentM, road.DescentM, road.MaxGrade, road.StartM, road.EndM)
	t.Logf("read over the mountain: ascent %.0f m, descent %.0f m, max grade %.3f", mountain.AscentM, mountain.DescentM, mountain.MaxGrade)
	if top := road.StartM + road.AscentM; top > 2250 {
		t.Errorf("the route may reach %.0f m: it climbs over the pass, not through the tunnel", top)
	}
	if road.StartM < 950 || road.StartM > 1100 || road.EndM < 2000 || road.EndM > 2150 {
		t.Errorf("ends at %.0f m and %.0f m, want Andorra la Vella (~1020) and Pas de la Casa (~2080)", road.StartM, road.EndM)
	}
	if extra := road.AscentM - (road.EndM - road.StartM); extra < 0 || extra > 120 {
		t.Errorf("ascent %.0f m for a net rise of %.0f m: the CG-2 climbs almost steadily", road.AscentM, road.EndM-road.StartM)
	}
	if road.MaxGrade > 0.25 || road.MaxGrade > mountain.MaxGrade/2 || mountain.AscentM-road.AscentM < 300 {
		t.Errorf("road max grade %.3f ascent %.0f against the mountain's %.3f and %.0f", road.MaxGrade, road.AscentM, mountain.MaxGrade, mountain.AscentM)
	}
}

func usesTunnel(rel *serving.Release, rt *route.Route, name string) bool {
	g := rel.Routers["car"].Graph()
	for _, leg := range rt.Legs {
		for _, a := range leg.Arcs {
			s, _ := g.ArcSegment(a)
			if rel.Network.Name(s) == name && rel.Network.SegFlags[s]&graph.FlagTunnel != 0 {
				return true
			}
		}
	}
	return false
}

// TestToblerUphill: walking from Andorra la Vella up to Ràmio (about 600 m
// higher) takes markedly longer than walking the same path down, by the
// ratio Tobler's hiking function gives for the route's grade.
func TestToblerUphill(t *testing.T) {
	rel := openAndorra(t)
	walker := loadProfile(t, "pedestrian")
	r := rel.Routers["pedestrian"]
	up, err := r.Route(context.Background(), []route.Point{andorraLaVella, ramio}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := r.Elevation(rel.DEM, rel.Terrain, up)
	upS, downS := pathTimes(r.Graph(), up)
	predicted := walker.Grade.Seconds(up.DistanceM, c.AscentM, c.DescentM, 5) / walker.Grade.Seconds(up.DistanceM, c.DescentM, c.AscentM, 5)
	t.Logf("%.1f km, %.0f → %.0f m (ascent %.0f, descent %.0f): up %.0f min, same path down %.0f min, ratio %.3f; Tobler at the route's grade %.3f",
		up.DistanceM/1000, c.StartM, c.EndM, c.AscentM, c.DescentM, upS/60, downS/60, upS/downS, predicted)
	if c.EndM-c.StartM < 500 || c.EndM-c.StartM > 700 {
		t.Fatalf("climbs %.0f m, want about 600", c.EndM-c.StartM)
	}
	if ratio := upS / downS; ratio < 1.25 || math.Abs(ratio-predicted) > 0.08*predicted || ratio > math.Exp(0.35)+1e-9 {
		t.Errorf("up/down %.3f, Tobler predicts %.3f (and never more than exp(0.35) = 1.419)", ratio, predicted)
	}
	down, err := r.Route(context.Background(), []route.Point{ramio, andorraLaVella}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if up.DurationS < 1.25*down.DurationS {
		t.Errorf("routed up %.0f s, down %.0f s: not markedly longer", up.DurationS, down.DurationS)
	}
}

// pathTimes sums the travel times of a route's arcs as travelled and in the
// opposite direction (the same path walked back), the first and last arcs
// in part; turn costs are left out of both.
func pathTimes(g *graph.Graph, rt *route.Route) (along, back float64) {
	for i, leg := range rt.Legs {
		for j, a := range leg.Arcs {
			s, rev := g.ArcSegment(a)
			f := 1.0
			switch {
			case j == 0:
				f = partOf(rt.Snapped[i].Frac, rev, true)
			case j == len(leg.Arcs)-1:
				f = partOf(rt.Snapped[i+1].Frac, rev, false)
			}
			w, wBack := float64(g.WF[s]), float64(g.WB[s])
			if rev {
				w, wBack = wBack, w
			}
			along += f * w / 1000
			back += f * wBack / 1000
		}
	}
	return along, back
}

// partOf is the share of an arc travelled from (first) or to a snapped
// point at fraction frac of its segment.
func partOf(frac float64, reversed, first bool) float64 {
	if reversed == first {
		return frac
	}
	return 1 - frac
}

func loadProfile(t *testing.T, name string) *profile.Profile {
	t.Helper()
	p, err := profile.Load(filepath.Join(compiletest.Root(), "profiles", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClimbBalances is the property test: for many random routes, ascent
// minus descent equals the DEM's height at the route's end minus at its
// start, as /v1/elevation would read them.
func TestClimbBalances(t *testing.T) {
	rel := openAndorra(t)
	rng := rand.New(rand.NewPCG(4, 4))
	for _, name := range []string{"car", "pedestrian", "bicycle"} {
		r := rel.Routers[name]
		checked := 0
		for range 150 {
			a, b := randomSnap(t, rng, rel, r.Graph()), randomSnap(t, rng, rel, r.Graph())
			pts := []route.Point{pointAlong(t, rel, a.Seg, a.Frac), pointAlong(t, rel, b.Seg, b.Frac)}
			rt, err := r.Route(context.Background(), pts, nil)
			if err != nil {
				continue // islands
			}
			c := r.Elevation(rel.DEM, rel.Terrain, rt)
			first, last := rt.Shape()[0], rt.Shape()[len(rt.Shape())-1]
			h0, ok0 := rel.DEM.At(first[0], first[1])
			h1, ok1 := rel.DEM.At(last[0], last[1])
			if !c.Covered || !ok0 || !ok1 {
				t.Fatalf("%s route %v: outside coverage", name, pts)
			}
			if d := (c.AscentM - c.DescentM) - (h1 - h0); math.Abs(d) > 0.01 {
				t.Errorf("%s route %v: ascent %.2f − descent %.2f ≠ %.2f − %.2f (off by %.3f m)", name, pts, c.AscentM, c.DescentM, h1, h0, d)
			}
			if c.AscentM < 0 || c.DescentM < 0 || c.MaxGrade < 0 || c.MaxGrade > 1.5 {
				t.Errorf("%s route %v: %+v", name, pts, c)
			}
			checked++
		}
		if checked < 100 {
			t.Errorf("%s: only %d of 150 random routes found", name, checked)
		}
	}
}

// TestStoredTerrainMatchesSampling: routes read their whole segments'
// heights from the release's stored samples; the Climb must be what
// sampling every piece at request time gives, and what Profiler.Route gives
// over the route's line with each piece's structure (the definition), up to
// float32 rounding, for random routes of several profiles, some with a
// waypoint between.
func TestStoredTerrainMatchesSampling(t *testing.T) {
	rel := openAndorra(t)
	if rel.Terrain == nil || len(rel.Terrain.Off) == 0 {
		t.Fatal("the Andorra release has no stored terrain samples")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, name := range []string{"car", "pedestrian", "bicycle"} {
		r := rel.Routers[name]
		compared := 0
		for range n {
			pts := make([]route.Point, 2+rng.IntN(2))
			for i := range pts {
				s := randomSnap(t, rng, rel, r.Graph())
				pts[i] = pointAlong(t, rel, s.Seg, s.Frac)
			}
			rt, err := r.Route(context.Background(), pts, nil)
			if err != nil {
				continue // islands
			}
			got, now := r.Elevation(rel.DEM, rel.Terrain, rt), r.Elevation(rel.DEM, nil, rt)
			line, structs := routeLine(r.Graph(), rt)
			whole := elevation.RouteClimb(rel.DEM, line, structs)
			if !climbsAgree(got, now) || !climbsAgree(got, whole) {
				t.Fatalf("%s %v: stored %+v, sampled now %+v, whole line %+v", name, pts, got, now, whole)
			}
			compared++
		}
		t.Logf("%s: %d routes compared", name, compared)
		if compared < n*2/3 {
			t.Errorf("%s: only %d routes of %d", name, compared, n)
		}
	}
}

func climbsAgree(a, b elevation.Climb) bool {
	near := func(x, y, tol float64) bool { return math.Abs(x-y) <= tol }
	return a.Covered == b.Covered && near(a.AscentM, b.AscentM, 0.01) && near(a.DescentM, b.DescentM, 0.01) &&
		near(a.MaxGrade, b.MaxGrade, 1e-4) && near(a.StartM, b.StartM, 0.001) && near(a.EndM, b.EndM, 0.001) &&
		near(a.LengthM, b.LengthM, 0.01)
}

// routeLine is rt's line with the structure of each of its pieces: the
// part of each leg's first arc after its start, whole middle segments, the
// part of its last arc before its end, written out independently of
// Router.Elevation.
func routeLine(g *graph.Graph, rt *route.Route) ([]route.Point, []elevation.Structure) {
	var pts []route.Point
	var structs []elevation.Structure
	add := func(s uint32, part []route.Point) {
		f := g.Net.SegFlags[s]
		st := elevation.StructureOf(f&graph.FlagBridge != 0, f&graph.FlagTunnel != 0)
		for _, p := range part {
			if len(pts) > 0 && pts[len(pts)-1] == p {
				continue
			}
			if len(pts) > 0 {
				structs = append(structs, st)
			}
			pts = append(pts, p)
		}
	}
	end := func(rev bool) float64 {
		if rev {
			return 0
		}
		return 1
	}
	for i, leg := range rt.Legs {
		a, b := rt.Snapped[i], rt.Snapped[i+1]
		if leg.Direct {
			add(a.Seg, route.AppendPart(nil, g.Net, a.Seg, a.Frac, b.Frac))
			continue
		}
		_, rev := g.ArcSegment(leg.Arcs[0])
		add(a.Seg, route.AppendPart(nil, g.Net, a.Seg, a.Frac, end(rev)))
		for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
			s, rev := g.ArcSegment(arc)
			add(s, route.AppendPart(nil, g.Net, s, 1-end(rev), end(rev)))
		}
		_, rev = g.ArcSegment(leg.Arcs[len(leg.Arcs)-1])
		add(b.Seg, route.AppendPart(nil, g.Net, b.Seg, 1-end(rev), b.Frac))
	}
	return pts, structs
}

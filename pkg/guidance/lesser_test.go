package guidance_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// TestLesserRoadStraightAhead drives car routes between uniform points over
// Andorra and, at every junction where the route keeps its road (the same
// name, else reference) and bends while a lesser road of the same kind (a
// secondary or tertiary off a primary, a tertiary off a secondary: OSRM's
// group of main roads) goes on straighter (at most 0.9 times our bend from
// straight on, and under 40 degrees, as a driver perceives the angles),
// checks that a step is said there (within 25 m: a maneuver a few metres
// on may carry it): where the primary bends left and a secondary goes
// straight on, the driver is told. A street off a main road is another
// kind of road (OSRM's lower group) and is not taken for it. Read from the
// route's arcs and the graph's segments, not from the steps' own reasons.
func TestLesserRoadStraightAhead(t *testing.T) {
	r := compiletest.OpenAndorra(t).Routers["car"]
	g := r.Graph()
	rng := rand.New(rand.NewPCG(33, 13))
	box := bounds(g.Net)
	checked := 0
	for done := 0; done < 300; {
		pts := []route.Point{box.uniform(rng), box.uniform(rng)}
		rt, err := r.Route(context.Background(), pts, nil)
		if err != nil {
			continue
		}
		done++
		a, b := rt.Snapped[0], rt.Snapped[1]
		pieces := r.Pieces(rt.Legs[0], a, b)
		steps := guidance.Steps(g, guidance.Leg{Pieces: pieces, Start: [2]float64{a.Lon, a.Lat}, Snapped: [2]float64{b.Lon, b.Lat}, Dest: pts[1]})
		for i := 1; i < len(pieces); i++ {
			p, c := pieces[i-1].Arc, pieces[i].Arc
			if !lesserStraighter(g, p, c) {
				continue
			}
			checked++
			lon, lat := g.Net.Node(g.ArcHead(p))
			if !stepNear(steps, lon, lat, 25) {
				t.Errorf("%v: at %.7f,%.7f a lesser road goes on straighter than ours and nothing is said:\n%s", pts, lon, lat, itinerary(steps))
			}
		}
	}
	t.Logf("%d junctions where a lesser road goes on straighter than the route's own", checked)
	if checked == 0 {
		t.Fatal("no such junction checked")
	}
}

// lesserStraighter reports whether, from arc p onto arc c on one main
// road, a lesser main road leaves the node between them clearly straighter
// than c.
func lesserStraighter(g *graph.Graph, p, c uint32) bool {
	ps, _ := g.ArcSegment(p)
	cs, _ := g.ArcSegment(c)
	if g.Net.SegFlags[ps]&graph.FlagRoundabout != 0 || g.Net.SegFlags[cs]&graph.FlagRoundabout != 0 || ps == cs {
		return false
	}
	if !sameRoad(guidance.Step{RoadName: g.Net.Name(ps), RoadRef: g.Net.Ref(ps)}, guidance.Step{RoadName: g.Net.Name(cs), RoadRef: g.Net.Ref(cs)}) {
		return false
	}
	main := map[string]int{"primary": 1, "secondary": 2, "tertiary": 3}
	ours, ok := main[g.Net.Class(cs)]
	if !ok || g.Net.Class(ps) != g.Net.Class(cs) {
		return false
	}
	bend := math.Abs(g.PerceivedTurnAngle(g.ArcSegRef(p), g.ArcSegRef(c)))
	if bend >= 40 {
		return false
	}
	begin, end := g.Fwd.Out(g.ArcHead(p))
	for o := begin; o < end; o++ {
		os, _ := g.ArcSegment(o)
		if lesser, ok := main[g.Net.Class(os)]; os == ps || os == cs || !ok || lesser <= ours {
			continue
		}
		dev := math.Abs(g.PerceivedTurnAngle(g.ArcSegRef(p), g.ArcSegRef(o)))
		if dev < 40 && dev <= 0.9*bend {
			return true
		}
	}
	return false
}

func stepNear(steps []guidance.Step, lon, lat, within float64) bool {
	for _, s := range steps[1:] {
		if geo.Distance(s.Location[0], s.Location[1], lon, lat) <= within {
			return true
		}
	}
	return false
}

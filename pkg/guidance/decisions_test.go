package guidance_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// TestSpeakOnlyAtDecisions drives many routes between uniform random
// points over Andorra and Liechtenstein (as users draw them, not road
// nodes) for the motor profiles and checks issue 33's rule: two
// consecutive steps on one road must have a decision between them. A step
// that stays on its predecessor's road is a roundabout, a U-turn, a ramp,
// a turn sharper than slight, or a fork where, at the junction itself
// (read from the graph, not from the step), another way on of a
// comparable class (not a track, service road or path off a road, not a
// ramp off a road, not a class or more below) leaves within 45 degrees of
// straight on, or a lesser road does going on about as straight as ours. It also checks that no leg opens with a depart of no length.
func TestSpeakOnlyAtDecisions(t *testing.T) {
	routes := 200
	if testing.Short() {
		routes = 60
	}
	for _, ex := range []struct {
		name string
		rel  func(testing.TB) *serving.Release
	}{
		{"andorra", func(tb testing.TB) *serving.Release { return compiletest.OpenAndorra(tb) }},
		{"liechtenstein", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "liechtenstein.osm.pbf") }},
	} {
		rel := ex.rel(t)
		for _, profile := range []string{"car", "moto", "truck"} {
			t.Run(ex.name+"/"+profile, func(t *testing.T) {
				r := rel.Routers[profile]
				nodes := nodeIndex(r.Graph().Net)
				rng := rand.New(rand.NewPCG(33, uint64(len(profile))))
				box := bounds(r.Graph().Net)
				stays, steps := 0, 0
				for done := 0; done < routes; {
					pts := []route.Point{box.uniform(rng), box.uniform(rng)}
					d, err := r.Directions(context.Background(), route.Request{Points: pts, Steps: true})
					if err != nil {
						continue
					}
					done++
					leg := d.Routes[0].Steps[0]
					if d.Routes[0].DistanceM > 0 && leg[0].DistanceM == 0 && len(leg) > 2 {
						t.Errorf("%v: the depart has no length:\n%s", pts, itinerary(leg))
					}
					for i := 1; i < len(leg)-1; i++ {
						steps++
						if why := nothingHappens(r.Graph(), nodes, leg[i-1], leg[i]); why != "" {
							t.Errorf("%v: step %d starts where nothing happens (%s):\n%s", pts, i+1, why, itinerary(leg))
						}
						if !sameRoad(leg[i-1], leg[i]) {
							continue
						}
						stays++
						if why := notDecision(r.Graph(), nodes, leg[i]); why != "" {
							t.Errorf("%v: step %d stays on %q at %v without a decision (%s):\n%s",
								pts, i+1, leg[i].RoadName+" "+leg[i].RoadRef, leg[i].Location, why, itinerary(leg))
						}
					}
				}
				t.Logf("%d routes, %d steps between depart and arrive, %d stay on their predecessor's road", routes, steps, stays)
			})
		}
	}
}

// nothingHappens says why step s starts where a driver has nothing to do,
// or "" when something happens there: a maneuver at a junction node with
// another way on than the step's own and the way back, a roundabout, a
// U-turn, a turn of 90 degrees or more, or a continue onto a road of
// another name than prev's (the signs change).
func nothingHappens(g *graph.Graph, nodes map[[2]int32]uint32, prev, s guidance.Step) string {
	v, ok := nodes[fixed(s.Location)]
	if !ok {
		return "not at a junction node"
	}
	switch {
	case s.Maneuver == guidance.Roundabout || s.Maneuver == guidance.UTurn:
		return ""
	case s.Maneuver == guidance.Turn && (math.Abs(s.Turned) >= 89 || angleBetween(s.BearingBefore, s.BearingAfter) >= 89):
		return ""
	case s.Maneuver == guidance.Continue && (s.RoadName != "" || s.RoadRef != "") && !sameRoad(prev, s):
		return ""
	}
	begin, end := g.Fwd.Out(v)
	for a := begin; a < end; a++ {
		b := compassOf(g.Net.Heading(g.ArcSegRef(a), true))
		if angleBetween(b, s.BearingAfter) >= 1 && angleBetween(b, s.BearingBefore) <= 178 {
			return "" // another way on
		}
	}
	for _, r := range g.Entries(v, nil) {
		b := compassOf(g.Net.Heading(r, true))
		if angleBetween(b, s.BearingAfter) >= 1 && angleBetween(b, s.BearingBefore) <= 178 {
			return "" // a one-way road comes in: a junction a driver sees
		}
	}
	return "no other way on"
}

// notDecision says why step s, which stays on its predecessor's road, is
// not a decision, or "" when it is one: a roundabout, a U-turn, a ramp, a
// turn sharper than slight, or a fork, a slight turn or a "continue
// straight" where another way on could be taken for the road (see
// anotherWayOn).
func notDecision(g *graph.Graph, nodes map[[2]int32]uint32, s guidance.Step) string {
	switch s.Maneuver {
	case guidance.Roundabout, guidance.UTurn, guidance.Ramp, guidance.OffRamp, guidance.Merge:
		return ""
	case guidance.Turn:
		if !strings.HasPrefix(s.Modifier, "slight") {
			return ""
		}
	case guidance.Fork, guidance.Continue:
	default:
		return "maneuver " + s.Maneuver
	}
	v, ok := nodes[fixed(s.Location)]
	if !ok {
		return "no junction at the step's location"
	}
	if anotherWayOn(g, v, s) {
		return ""
	}
	return "a " + s.Maneuver + " " + s.Modifier + " with no other way on to take for the road"
}

// branch is a way on from a junction node as a test reads it: its class
// and its direction, perceived as guidance perceives it (degrees from the
// way in, positive to the left).
type branch struct {
	class string
	angle float64
}

// branchesAt lists the roads at node v other than step s's own and the
// way back (the ways on and the one-way roads coming in), with their
// perceived directions: the way in is read from the
// step's own out arc (found by its bearing) and the angle the step says
// was turned.
func branchesAt(g *graph.Graph, v uint32, s guidance.Step) []branch {
	begin, end := g.Fwd.Out(v)
	ours := graph.NoArc
	for a := begin; a < end; a++ {
		if angleBetween(compassOf(g.Net.Heading(g.ArcSegRef(a), true)), s.BearingAfter) < 1 {
			ours = a
		}
	}
	if ours == graph.NoArc {
		return nil
	}
	in := g.PerceivedHeading(g.ArcSegRef(ours)) - s.Turned
	var out []branch
	add := func(r uint32) {
		b := compassOf(g.Net.Heading(r, true))
		if r == g.ArcSegRef(ours) || angleBetween(b, s.BearingBefore) >= 179 {
			return // ours, or the way back
		}
		d := math.Mod(g.PerceivedHeading(r)-in+540, 360) - 180
		seg, _ := graph.SplitSegRef(r)
		out = append(out, branch{class: g.Net.Class(seg), angle: d})
	}
	for a := begin; a < end; a++ {
		add(g.ArcSegRef(a))
	}
	// One-way roads coming in are roads a driver sees there too: a road
	// that comes in straight ahead is taken for the way on.
	for _, r := range g.Entries(v, nil) {
		add(r)
	}
	return out
}

// anotherWayOn reports whether at node v another road leaves that a
// driver could take, or take for, the step's own: a road (a driveway,
// track or path only off one), not the road's own ramp.
func anotherWayOn(g *graph.Graph, v uint32, s guidance.Step) bool {
	for _, b := range branchesAt(g, v, s) {
		if strings.TrimSuffix(b.class, "_link") == s.RoadClass && b.class != s.RoadClass {
			continue
		}
		if aRoad(b.class) || strings.HasSuffix(b.class, "_link") || !aRoad(s.RoadClass) {
			return true
		}
	}
	return false
}

// aRoad reports whether a class is a road a driver could follow for
// another: not a driveway, track or path, not a ramp.
func aRoad(class string) bool {
	switch class {
	case "service", "track", "path", "footway", "cycleway", "bridleway", "steps", "pedestrian":
		return false
	}
	return !strings.HasSuffix(class, "_link")
}

func compassOf(h float64) int { return ((int(math.Round(90-h)) % 360) + 360) % 360 }

func angleBetween(a, b int) int {
	d := ((a-b)%360 + 360) % 360
	return min(d, 360-d)
}

func fixed(p [2]float64) [2]int32 {
	return [2]int32{int32(math.Round(p[0] * 1e7)), int32(math.Round(p[1] * 1e7))}
}

func nodeIndex(net *graph.Network) map[[2]int32]uint32 {
	m := make(map[[2]int32]uint32, net.NumNodes())
	for v := range net.NumNodes() {
		m[[2]int32{net.NodeCoord[2*v], net.NodeCoord[2*v+1]}] = uint32(v)
	}
	return m
}

type box struct{ minLon, minLat, maxLon, maxLat float64 }

// bounds is the box of the network's nodes: uniform points are drawn in it.
func bounds(net *graph.Network) box {
	b := box{180, 90, -180, -90}
	for v := range net.NumNodes() {
		lon, lat := net.Node(uint32(v))
		b = box{min(b.minLon, lon), min(b.minLat, lat), max(b.maxLon, lon), max(b.maxLat, lat)}
	}
	return b
}

func (b box) uniform(rng *rand.Rand) route.Point {
	return route.Point{b.minLon + rng.Float64()*(b.maxLon-b.minLon), b.minLat + rng.Float64()*(b.maxLat-b.minLat)}
}

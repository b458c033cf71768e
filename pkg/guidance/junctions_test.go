package guidance_test

import (
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
)

// TestJunctionRules narrates one maneuver at real junctions of Andorra,
// each the example of one of the rules by which guidance decides as
// OSRM's does (obvious.go, fork.go, steps.go): the car arrives along the
// road whose first piece leaves the OSM node at bearing from and goes on
// along the one at bearing to (compass degrees, as the OSM ways draw
// them), 400 m each, and the step said there, if any, is checked: its
// maneuver and the side or straight on it says.
func TestJunctionRules(t *testing.T) {
	g := openAndorra(t).Routers["car"].Graph()
	nodes := nodeIndex(g.Net)
	for _, c := range []struct {
		rule     string
		node     int64
		at       [2]float64
		from, to int
		want     string // maneuver and modifier, "" for nothing said
	}{
		// A road going on past a driveway or a service road says nothing,
		// however it bends (OSRM's driveway handler): the CS-140 of issue 33.
		{"driveway: track", 3610819800, [2]float64{1.4856459, 42.4605403}, 197, 3, ""},
		{"driveway: service road", 52578800, [2]float64{1.4821703, 42.4594104}, 349, 169, ""},
		// A street off a main road is another kind of road (OSRM's lower
		// group) and not taken for it, even going on straighter: the CS-330
		// past the Carrer Dr Vilanova.
		{"lower group", 53319576, [2]float64{1.5143665, 42.5444236}, 305, 156, ""},
		// The obvious way on takes another name: only the name is said.
		{"new name", 51449552, [2]float64{1.5848525, 42.5331697}, 23, 220, "continue straight"},
		// A primary_link is no ramp to OSRM, and beside the road's own way
		// on, about as straight, it is a way straight on.
		{"link of a primary", 51449552, [2]float64{1.5848525, 42.5331697}, 220, 58, "continue straight"},
		// Two branches alike fanning out from the CG-1: a fork.
		{"fork right", 5150460056, [2]float64{1.4915504, 42.4670635}, 349, 156, "fork right"},
		{"fork left", 5150460056, [2]float64{1.4915504, 42.4670635}, 349, 143, "fork left"},
		// No way is obvious where the CG-1 bends right and its own link
		// goes on straighter: the direction is said on the same road.
		{"not obvious, same road", 5292765288, [2]float64{1.4906618, 42.4762346}, 328, 167, "turn slight right"},
		// A T where the road arrived on ends (OSRM's end of road).
		{"end of road, left", 52262064, [2]float64{1.4915970, 42.4603316}, 171, 270, "turn left"},
		{"end of road, right", 52262064, [2]float64{1.4915970, 42.4603316}, 171, 64, "turn right"},
		// A one-way road coming in makes a junction of a bend: the CG-3
		// turning off Avinguda el Travès is a turn (issue 33, item 5).
		{"a one-way road coming in", 51581574, [2]float64{1.5142617, 42.5470878}, 58, 356, "turn right"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			v, ok := nodes[fixed(c.at)]
			if !ok {
				t.Fatalf("OSM node %d is not a node of the graph", c.node)
			}
			p, q := arcArriving(g, v, c.from), arcLeaving(g, v, c.to)
			if p == graph.NoArc || q == graph.NoArc {
				t.Fatalf("OSM node %d: no way in from %d or out to %d degrees", c.node, c.from, c.to)
			}
			steps := guidance.Steps(g, guidance.Leg{Pieces: []guidance.Piece{{Arc: p, DistanceM: 400, DurationS: 30}, {Arc: q, DistanceM: 400, DurationS: 30}},
				Start: c.at, Snapped: c.at, Dest: c.at})
			got := ""
			if len(steps) == 3 {
				got = strings.TrimSpace(steps[1].Maneuver + " " + steps[1].Modifier)
			}
			if got != c.want || len(steps) > 3 {
				t.Errorf("OSM node %d, from %d to %d degrees: said %q, want %q:\n%s", c.node, c.from, c.to, got, c.want, itinerary(steps))
			}
		})
	}
}

// arcArriving is the arc into node v along the road whose first piece
// leaves v at the given compass bearing (a one-way road coming in too).
func arcArriving(g *graph.Graph, v uint32, bearing int) uint32 {
	begin, end := g.Fwd.Out(v)
	refs := g.Entries(v, nil)
	for a := begin; a < end; a++ {
		refs = append(refs, g.ArcSegRef(a))
	}
	for _, r := range refs {
		if angleBetween(compassOf(g.Net.Heading(r, true)), bearing) <= 1 && g.ArcOf[r^1] != graph.NoArc {
			return g.ArcOf[r^1]
		}
	}
	return graph.NoArc
}

// arcLeaving is the arc out of node v whose first piece leaves at the given
// compass bearing.
func arcLeaving(g *graph.Graph, v uint32, bearing int) uint32 {
	begin, end := g.Fwd.Out(v)
	for a := begin; a < end; a++ {
		if angleBetween(compassOf(g.Net.Heading(g.ArcSegRef(a), true)), bearing) <= 1 {
			return a
		}
	}
	return graph.NoArc
}

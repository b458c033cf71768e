package route_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
)

// TestAlternativesEndAtTheirPoints checks every alternative between the
// corners of grid towns, for every profile, now and at rush hour, against
// a plain time-aware Dijkstra: its arcs run from a source arc to a target
// arc through turns allowed under the route's state, its duration is what
// those turns add up to, and no less than the Dijkstra's best. A via path
// that drove past the destination and turned back onto its arc lost its
// last arcs with the spur (unloop), and the rest, ending one segment short,
// was priced as faster than the best route (moto, 107.1 s against 121.5 s,
// before pathCost refused such paths). Car no longer turns back at
// ordinary junctions, so TestAlternativesOnGridTowns no longer meets it.
// Every other pair takes its candidates from the search spaces, as routes
// longer than Andorra's do.
func TestAlternativesEndAtTheirPoints(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	towns := []compiletest.TimedTown{{W: 7, H: 4}, {W: 9, H: 9, Random: 4, Seed: 11}, {W: 8, H: 6, Random: 4, Seed: 5}}
	checked, pairs := 0, 0
	for _, town := range towns {
		rel := town.Open(t)
		for name, r := range rel.Routers {
			g := r.Graph()
			for _, st := range []*graph.State{nil, r.StateAt(andorraTime(t, tuesday, 8))} {
				for from, to := range town.CornerPairs(testing.Short()) {
					best, err := r.Route(context.Background(), []route.Point{from, to}, st)
					if err != nil || best.Legs[0].Direct {
						continue
					}
					e := route.MakeEnds(g, st, best.Snapped[0], best.Snapped[1])
					tree := search.DijkstraAt(g, st, e.Sources)
					want, _ := search.Finish(func(arc uint32) uint32 { return tree[arc] }, e.Targets)
					alternatives := r.Alternatives
					if pairs++; pairs%2 == 0 {
						alternatives = r.AlternativesFromSpaces
					}
					for _, alt := range alternatives(context.Background(), best, 3) {
						got, err := walk(g, st, e, alt.Legs[0].Arcs)
						if err != nil || got < uint64(want) || got != uint64(alt.DurationS*1000+0.5) {
							t.Fatalf("%s %v→%v (state %v): alternative of %.3f s along %v walks as %d ms (%v); Dijkstra's best %d ms",
								name, from, to, st != nil, alt.DurationS, alt.Legs[0].Arcs, got, err, want)
						}
						checked++
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no alternative found: the test proves nothing")
	}
	t.Logf("%d alternatives walked", checked)
}

// walk prices arcs as a route from e's source seed to its target seed
// under st, failing when they do not start and end on seeds or a turn
// between them is missing or forbidden.
func walk(g *graph.Graph, st *graph.State, e route.Ends, arcs []uint32) (uint64, error) {
	first := slices.IndexFunc(e.Sources, func(s search.Seed) bool { return s.Node == arcs[0] })
	last := slices.IndexFunc(e.Targets, func(s search.Seed) bool { return s.Node == arcs[len(arcs)-1] })
	if first < 0 || last < 0 {
		return 0, fmt.Errorf("starts on a source seed: %v, ends on a target seed: %v", first >= 0, last >= 0)
	}
	c := uint64(e.Sources[first].Cost)
	for i := 1; i < len(arcs); i++ {
		w := uint32(graph.NoWay)
		begin, end := g.Turns.Out(arcs[i-1])
		for j := begin; j < end; j++ {
			if to, tw, _ := g.Turn(j); to == arcs[i] {
				w = st.Edge(arcs[i-1], arcs[i], tw, true)
			}
		}
		if w == graph.NoWay {
			return 0, fmt.Errorf("no turn now from arc %d to %d", arcs[i-1], arcs[i])
		}
		c += uint64(w)
	}
	return c - min(c, uint64(e.Targets[last].Cost)), nil
}

package isochrone

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// metric is what a search adds up: travel time with turn costs
// (milliseconds) or length (centimetres).
type metric uint8

const (
	byTime     metric = metric(Minutes)
	byDistance metric = metric(Kilometers)
)

// seed is an arc the origin lies on.
type seed struct {
	arc   uint32
	along uint32 // cost from the arc's start to the origin
	// loop is the earliest cost at which a path comes back to the arc's
	// start (search.Unreached if none within the limit): the part of the
	// arc behind the origin is reached only that way.
	loop uint32
}

// weight returns arc a's own cost.
func weight(g *graph.Graph, m metric, a uint32) uint32 {
	if m == byTime {
		return g.ArcTime(a)
	}
	s, _ := g.ArcSegment(a)
	return uint32(math.Round(float64(g.Net.SegLength[s]) * 100))
}

// arcWeight is arc a's own cost under the search's conditions: its
// travel time now, or its length; NoWay when it is closed now.
func (sc *scratch) arcWeight(g *graph.Graph, a uint32) uint32 {
	if sc.metric == byTime {
		return sc.st.ArcTime(g, a)
	}
	if sc.st.ArcTime(g, a) == graph.NoWay {
		return graph.NoWay
	}
	return weight(g, byDistance, a)
}

// search runs a Dijkstra from the origin's seeds over g's turn graph,
// labelling every arc whose start lies within limit with the cost of
// reaching its end (sc.costs). Arcs are expanded
// only while their end is within limit, and an arc is labelled only if
// its start is, so the work is bounded by the reachable area, not the
// graph. Time conditions are those in force at departure (the zero time
// means now), for the whole search. It returns false when the origin lies
// on no arc of g usable then.
func (sc *scratch) search(g *graph.Graph, origin snap.Result, m metric, limit uint32, st *graph.State) bool {
	sc.st, sc.operated = st, search.Unreached
	sc.resetSearch(g)
	if !sc.placeSeeds(g, origin, m) {
		return false
	}
	for _, s := range sc.seeds {
		sc.label(s.arc, sc.arcWeight(g, s.arc)-s.along)
	}
	for sc.heap.Len() > 0 {
		c, u := sc.heap.Pop()
		if c != sc.cost(u) {
			continue
		}
		if c >= limit {
			break // every arc left starts beyond the limit
		}
		sc.relax(g, u, c, limit)
	}
	return true
}

// placeSeeds sets sc.metric and sc.seeds, the arcs origin lies on; it
// returns false when there are none.
func (sc *scratch) placeSeeds(g *graph.Graph, origin snap.Result, m metric) bool {
	sc.metric = m
	sc.seeds = sc.seeds[:0]
	for rev := range 2 {
		a := g.ArcOf[graph.SegRef(origin.Seg, rev == 1)]
		if a == graph.NoArc || (rev == 0 && origin.NoForward) || (rev == 1 && origin.NoBackward) {
			continue // no way, or not the way a bearing asked for
		}
		w := sc.arcWeight(g, a)
		if w == graph.NoWay {
			continue // closed now
		}
		f := origin.Frac
		if rev == 1 {
			f = 1 - f
		}
		along := min(w, uint32(math.Round(f*float64(w))))
		sc.seeds = append(sc.seeds, seed{arc: a, along: along, loop: search.Unreached})
	}
	return len(sc.seeds) > 0
}

// relax labels the arcs reachable by one turn from arc u, reached at c.
func (sc *scratch) relax(g *graph.Graph, u, c, limit uint32) {
	begin, end := g.Turns.Out(u)
	for i := begin; i < end; i++ {
		b, w, turn := g.Turn(i)
		if sc.st.Overlay().HasOperation(b) {
			sc.operated = min(sc.operated, c) // a changed road starts here
		}
		w = sc.st.Edge(u, b, w, true)
		if w == graph.NoWay {
			continue // closed or forbidden now
		}
		// An area is reachable whether or not a route may pass through
		// it: destination penalties (graph.DestinationPenalty) are no time.
		w, turn = graph.Unpenalised(w), graph.Unpenalised(turn)
		start, nc := c, uint32(0) // cost at b's start and end
		if sc.metric == byTime {
			start = search.Add(c, turn)
			nc = search.Add(c, w)
		} else {
			nc = search.Add(c, weight(g, byDistance, b))
		}
		if start >= limit {
			continue
		}
		for k := range sc.seeds {
			if sc.seeds[k].arc == b {
				sc.seeds[k].loop = min(sc.seeds[k].loop, start)
			}
		}
		if nc < sc.cost(b) {
			sc.label(b, nc)
		}
	}
}

func (sc *scratch) label(a, c uint32) {
	l := sc.costs.Get(a) // inlines: most arcs reached are labelled already
	if l == nil {
		l, _ = sc.costs.Add(a)
	} else if c >= *l {
		return
	}
	*l = c
	sc.heap.Push(c, a)
}

// cost is arc a's label, search.Unreached when it has none.
func (sc *scratch) cost(a uint32) uint32 {
	if l := sc.costs.Get(a); l != nil {
		return *l
	}
	return search.Unreached
}

// resetSearch forgets every label, for a search on g.
func (sc *scratch) resetSearch(g *graph.Graph) {
	sc.costs.Fit(len(g.Turns.First) - 1) // the turn graph's nodes: arcs and their duplicates
	sc.heap.Reset()
}

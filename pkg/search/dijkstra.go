package search

import "github.com/mapsco/maps/pkg/graph"

// Dijkstra runs a plain one-directional Dijkstra (Dijkstra 1959) from
// source seeds over the whole turn graph of g, returning every arc's cost
// (Unreached where no path leads). It is the reference that faster searches
// are tested against and allocates per call.
func Dijkstra(g *graph.Graph, seeds []Seed) []uint32 { return DijkstraAt(g, nil, seeds) }

// DijkstraAt is Dijkstra under the conditions in force in st (nil: none):
// the time-aware reference.
func DijkstraAt(g *graph.Graph, st *graph.State, seeds []Seed) []uint32 {
	cost := make([]uint32, len(g.Turns.First)-1)
	for i := range cost {
		cost[i] = Unreached
	}
	var h Heap
	for _, s := range seeds {
		if s.Cost < cost[s.Node] {
			cost[s.Node] = s.Cost
			h.Push(s.Cost, s.Node)
		}
	}
	for h.Len() > 0 {
		c, u := h.Pop()
		if c != cost[u] {
			continue
		}
		begin, end := g.Turns.Out(u)
		for i := begin; i < end; i++ {
			e := g.Turns.At(i)
			w := st.Edge(u, e.Head, e.Weight, true)
			if w == graph.NoWay {
				continue
			}
			if nc := Add(c, w); nc < cost[e.Head] {
				cost[e.Head] = nc
				h.Push(nc, e.Head)
			}
		}
	}
	return cost
}

// Finish returns the cheapest cost of reaching any target seed given the
// costs of a search from the sources: for each target arc reached, the cost
// of its end minus what remains beyond the point.
func Finish(cost func(arc uint32) uint32, targets []Seed) (best uint32, which int) {
	best, which = Unreached, -1
	for i, t := range targets {
		c := cost(t.Node)
		if c == Unreached || c < t.Cost {
			continue
		}
		if c-t.Cost < best {
			best, which = c-t.Cost, i
		}
	}
	return best, which
}

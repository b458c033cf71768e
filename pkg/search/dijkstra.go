package search

import "github.com/mapsco/maps/pkg/graph"

// Tree is the result of a one-to-all search: the cost of every node from the
// nearest seed, Unreached where no path exists.
type Tree struct {
	Cost []uint32
}

// Dijkstra runs a plain one-directional Dijkstra (Dijkstra 1959) from seeds
// over the whole graph. It is the reference that faster searches are tested
// against, and allocates a fresh Tree per call.
func Dijkstra(g *graph.Graph, seeds []Seed) Tree {
	n := g.Net.NumNodes()
	t := Tree{Cost: make([]uint32, n)}
	for i := range t.Cost {
		t.Cost[i] = Unreached
	}
	var h minHeap
	for _, s := range seeds {
		if s.Cost < t.Cost[s.Node] {
			t.Cost[s.Node] = s.Cost
			h.push(s.Cost, s.Node)
		}
	}
	for h.len() > 0 {
		c, u := h.pop()
		if c != t.Cost[u] {
			continue
		}
		begin, end := g.Fwd.Out(u)
		for i := begin; i < end; i++ {
			e := g.Fwd.At(i)
			if nc := add(c, e.Weight); nc < t.Cost[e.Head] {
				t.Cost[e.Head] = nc
				h.push(nc, e.Head)
			}
		}
	}
	return t
}

package ch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// randomGraph makes a sparse random directed graph with a grid-like shape
// (each node linked to a few near ids), the kind of locality road graphs
// have, with parallel edges and loops thrown in.
func randomGraph(rng *rand.Rand, n int) Input {
	in := Input{First: make([]uint32, n+1)}
	for u := range n {
		for range 1 + rng.IntN(4) {
			v := (u + rng.IntN(21) - 10 + n) % n
			in.Edges = append(in.Edges, InputEdge{Head: uint32(v), Weight: 1 + rng.Uint32N(1000), Dist: rng.Uint32N(5000)})
		}
		in.First[u+1] = uint32(len(in.Edges))
	}
	return in
}

func dijkstra(in Input, src uint32) []uint32 {
	cost := make([]uint32, len(in.First)-1)
	for i := range cost {
		cost[i] = search.Unreached
	}
	var h search.Heap
	cost[src] = 0
	h.Push(0, src)
	for h.Len() > 0 {
		c, u := h.Pop()
		if c != cost[u] {
			continue
		}
		for _, e := range in.Edges[in.First[u]:in.First[u+1]] {
			if e.Weight == graph.NoWay {
				continue // closed (customize_test.go)
			}
			if nc := c + e.Weight; nc < cost[e.Head] {
				cost[e.Head] = nc
				h.Push(nc, e.Head)
			}
		}
	}
	return cost
}

// TestQueryMatchesDijkstra contracts random graphs and checks every query
// cost and the unpacked path against Dijkstra.
func TestQueryMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for round := range 5 {
		in := randomGraph(rng, 300+rng.IntN(300))
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		q := NewQuery(h)
		n := len(in.First) - 1
		for range 200 {
			s, d := uint32(rng.IntN(n)), uint32(rng.IntN(n))
			want := dijkstra(in, s)[d]
			res, ok := q.Shortest([]search.Seed{{Node: s}}, []search.Seed{{Node: d}}, nil)
			if !ok {
				if want != search.Unreached {
					t.Fatalf("round %d: %d→%d unreached, Dijkstra %d", round, s, d, want)
				}
				continue
			}
			if res.Cost != want {
				t.Fatalf("round %d: %d→%d cost %d, Dijkstra %d", round, s, d, res.Cost, want)
			}
			if res.Arcs[0] != s || res.Arcs[len(res.Arcs)-1] != d || pathCost(in, res.Arcs) != want {
				t.Fatalf("round %d: path %v does not cost %d from %d to %d", round, res.Arcs, want, s, d)
			}
		}
	}
}

func pathCost(in Input, path []uint32) uint32 {
	var total uint32
	for i := 1; i < len(path); i++ {
		best := uint32(search.Unreached)
		for _, e := range in.Edges[in.First[path[i-1]]:in.First[path[i-1]+1]] {
			if e.Head == path[i] && e.Weight != graph.NoWay {
				best = min(best, e.Weight)
			}
		}
		total += best
	}
	return total
}

// TestTableMatchesQueries checks the bucket many-to-many against
// point-to-point queries.
func TestTableMatchesQueries(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	in := randomGraph(rng, 500)
	h, err := Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	q := NewQuery(h)
	ends := func(k int) []Endpoint {
		e := make([]Endpoint, k)
		for i := range e {
			e[i] = Endpoint{Seeds: []search.Seed{{Node: uint32(rng.IntN(500)), Cost: rng.Uint32N(50)}}, Dists: []int64{10}}
		}
		return e
	}
	src, dst := ends(20), ends(25)
	cells := make([]Cell, len(src)*len(dst))
	q.Table(src, dst, cells)
	for i := range src {
		for j := range dst {
			if src[i].Seeds[0].Node == dst[j].Seeds[0].Node {
				continue // shared arcs are the caller's to answer (see Table)
			}
			res, ok := q.Shortest(src[i].Seeds, dst[j].Seeds, nil)
			got := cells[i*len(dst)+j].Cost
			if !ok {
				if got != search.Unreached {
					t.Fatalf("[%d][%d]: table %d, query none", i, j, got)
				}
				continue
			}
			if got != res.Cost {
				t.Fatalf("[%d][%d]: table %d, query %d", i, j, got, res.Cost)
			}
		}
	}
}

package ch

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// TestContractInOrderMatchesDijkstra is customization's exactness
// property: a random graph contracted by Build, its weights then raised
// and some nodes closed (as road operations do: every edge into a changed
// node weighs more, or is gone), and contracted again in Build's order,
// answers thousands of random queries and a table exactly as Dijkstra on
// the changed graph, with paths that cost what they say; and the order is
// one Build's hierarchy is consistent with.
func TestContractInOrderMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 42))
	pairs := 0
	for round := range 8 {
		in := randomGraph(rng, 2000+rng.IntN(2000))
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		order := h.Order()
		checkOrder(t, h, order)
		changed := raise(rng, in, round)
		c, err := Contract(context.Background(), changed, order)
		if err != nil {
			t.Fatal(err)
		}
		checkOrder(t, c, order)
		q := NewQuery(c)
		n := len(in.First) - 1
		differ := 0
		for range 400 {
			s, d := uint32(rng.IntN(n)), uint32(rng.IntN(n))
			want := dijkstra(changed, s)[d]
			if dijkstra(in, s)[d] != want {
				differ++
			}
			res, ok := q.Shortest([]search.Seed{{Node: s}}, []search.Seed{{Node: d}}, nil)
			if !ok {
				res.Cost = search.Unreached
			}
			if res.Cost != want {
				t.Fatalf("round %d: %d→%d cost %d customized, Dijkstra on the changed graph %d", round, s, d, res.Cost, want)
			}
			if ok && (res.Arcs[0] != s || res.Arcs[len(res.Arcs)-1] != d || pathCost(changed, res.Arcs) != want) {
				t.Fatalf("round %d: path %v does not cost %d from %d to %d on the changed graph", round, res.Arcs, want, s, d)
			}
			pairs++
		}
		checkTable(t, rng, q, changed)
		if differ < 40 {
			t.Fatalf("round %d: only %d of 400 pairs changed by the raises: the test proves little", round, differ)
		}
	}
	t.Logf("%d pairs on 8 random graphs under raised and closed nodes equal Dijkstra", pairs)
}

// raise returns in with about a quarter of its nodes made dearer to enter
// (by up to three times an edge's weight) and, from round 1, one in fifty
// closed (edges into it NoWay, which Contract leaves out).
func raise(rng *rand.Rand, in Input, round int) Input {
	n := len(in.First) - 1
	extra := make([]uint32, n)
	for v := range extra {
		switch {
		case round > 0 && rng.IntN(50) == 0:
			extra[v] = graph.NoWay
		case rng.IntN(4) == 0:
			extra[v] = 1 + rng.Uint32N(3000)
		}
	}
	out := Input{First: in.First, Edges: slices.Clone(in.Edges)}
	for i := range out.Edges {
		e := &out.Edges[i]
		if x := extra[e.Head]; x == graph.NoWay {
			e.Weight = graph.NoWay
		} else {
			e.Weight += x
		}
	}
	return out
}

// checkOrder fails unless every edge of h goes from a node to one later
// in order, which holds every node once.
func checkOrder(t *testing.T, h *Hierarchy, order []uint32) {
	t.Helper()
	rank := make([]int, h.NumNodes())
	for i := range rank {
		rank[i] = -1
	}
	for i, v := range order {
		if rank[v] >= 0 {
			t.Fatalf("node %d twice in the order", v)
		}
		rank[v] = i
	}
	if len(order) != h.NumNodes() {
		t.Fatalf("order of %d nodes, hierarchy of %d", len(order), h.NumNodes())
	}
	for u := range uint32(h.NumNodes()) {
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			if v := h.Up[4*i]; rank[v] <= rank[u] {
				t.Fatalf("edge %d→%d up, but %d comes at %d, before %d at %d", u, v, v, rank[v], u, rank[u])
			}
		}
		for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
			if v := h.Dn[4*i]; rank[v] <= rank[u] {
				t.Fatalf("edge %d→%d down, but %d comes at %d, before %d at %d", v, u, v, rank[v], u, rank[u])
			}
		}
	}
}

// checkTable compares a random table on q's hierarchy with Dijkstra on in.
func checkTable(t *testing.T, rng *rand.Rand, q *Query, in Input) {
	t.Helper()
	n := len(in.First) - 1
	ends := make([]Endpoint, 20)
	for i := range ends {
		ends[i] = Endpoint{Seeds: []search.Seed{{Node: uint32(rng.IntN(n))}}, Dists: []int64{0}}
	}
	src, dst := ends[:10], ends[10:]
	cells := make([]Cell, len(src)*len(dst))
	q.Table(src, dst, cells)
	for i, s := range src {
		cost := dijkstra(in, s.Seeds[0].Node)
		for j, d := range dst {
			if got, want := cells[i*len(dst)+j].Cost, cost[d.Seeds[0].Node]; got != want {
				t.Fatalf("table [%d][%d] %d customized, Dijkstra %d", i, j, got, want)
			}
		}
	}
}

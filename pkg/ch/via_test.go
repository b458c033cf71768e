package ch

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/search"
)

// TestViasMatchDijkstra checks Vias on random graphs, with several seeds a
// side, around the route alone, around a random tenth of the nodes too, and
// around all of them, against Dijkstra: every candidate's cost is the exact
// cost of the best path through its node (X-BDV's), below the limit; its
// path is a real path from its source seed to its target seed through the
// node, costing that; the route arcs it names as left and rejoined come
// before and after the node on it; and around every node, every node with
// such a path below the limit is a candidate. Two rounds of six keep the
// search's marks in an array by node (Andorra's case), the others in a hash
// table (a country's).
func TestViasMatchDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	candidates := 0
	for round := range 6 {
		in := randomGraph(rng, 300+rng.IntN(300))
		if round%2 == 1 { // marked nodes (time conditions): variable shortcuts, kept beside parallel edges
			in.Marked = func(v uint32) bool { return v%11 == 0 }
		}
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		n := len(in.First) - 1
		rev := reverse(in)
		q := NewQuery(h)
		if round >= 2 { // marks in a hash table, as on a country
			q.via = newViaScratch(h, false)
		}
		for _, mode := range []string{"route", "tenth", "all"} {
			for range 40 {
				sources, targets := randomSeedsN(rng, n), randomSeedsN(rng, n)
				from, to := dijkstraSeeds(in, sources, 0), dijkstraSeeds(rev, targets, bias(targets))
				best, ok := q.Shortest(sources, targets, nil)
				if !ok {
					continue
				}
				route := slices.Clone(best.Arcs)
				around := slices.Clone(route)
				for u := range uint32(n) {
					if mode == "all" || mode == "tenth" && rng.IntN(10) == 0 {
						around = append(around, u)
					}
				}
				limit := best.Cost + best.Cost/3 + 1
				vias := q.Vias(sources, targets, route, around, limit, nil)
				seen := make([]bool, n)
				for _, v := range vias {
					candidates++
					if seen[v.Node] {
						t.Fatalf("round %d: node %d a candidate twice", round, v.Node)
					}
					seen[v.Node] = true
					checkVia(t, q, in, v, sources, targets, route, from, to)
				}
				if mode != "all" {
					continue
				}
				for u := range n {
					if want := exactVia(from, to, uint32(u), bias(targets)); want < uint64(limit) && !seen[u] {
						t.Fatalf("round %d: node %d has a path of %d below %d, not a candidate", round, u, want, limit)
					}
				}
			}
		}
	}
	if candidates < 2000 {
		t.Fatalf("only %d candidates over all queries", candidates)
	}
}

func checkVia(t *testing.T, q *Query, in Input, v Via, sources, targets []search.Seed, route []uint32, from, to []uint64) {
	t.Helper()
	if want := exactVia(from, to, v.Node, bias(targets)); uint64(v.Cost) != want {
		t.Fatalf("via %d costs %d, Dijkstra %d", v.Node, v.Cost, want)
	}
	checkViaPath(t, q, in, v, sources, targets, route)
}

// checkViaPath checks that candidate v's path is a real path from a source
// seed to a target seed through its node, costing what v says, and that
// the route arcs v names as left and rejoined come before and after the
// node on it.
func checkViaPath(t *testing.T, q *Query, in Input, v Via, sources, targets []search.Seed, route []uint32) {
	t.Helper()
	res := q.ViaPath(v, nil)
	p, s, d := res.Arcs, sources[res.Source], targets[res.Target]
	at := slices.Index(p, v.Node)
	cost := uint64(s.Cost) + uint64(pathCost(in, p)) - uint64(d.Cost)
	if p[0] != s.Node || p[len(p)-1] != d.Node || at < 0 || cost != uint64(v.Cost) {
		t.Fatalf("via %d from seed %v to %v: path %v costs %d, candidate says %d", v.Node, s, d, p, cost, v.Cost)
	}
	if v.Leaves >= 0 && !slices.Contains(p[:at+1], route[v.Leaves]) || v.Joins < len(route) && !slices.Contains(p[at:], route[v.Joins]) {
		t.Fatalf("via %d: path %v does not leave route %v at %d and rejoin it at %d", v.Node, p, route, v.Leaves, v.Joins)
	}
}

// exactVia is the cost of the best path through u, as Vias counts it.
func exactVia(from, to []uint64, u uint32, shift uint32) uint64 {
	if from[u] == search.Unreached || to[u] == search.Unreached || from[u]+to[u] < uint64(shift) {
		return search.Unreached
	}
	return from[u] + to[u] - uint64(shift)
}

func randomSeedsN(rng *rand.Rand, n int) []search.Seed {
	s := make([]search.Seed, 1+rng.IntN(3))
	for i := range s {
		s[i] = search.Seed{Node: uint32(rng.IntN(n)), Cost: rng.Uint32N(3000)}
	}
	return s
}

// dijkstraSeeds is Dijkstra from seeds at their costs, or, with shift > 0
// on the reversed graph, at shift minus their costs (as Shortest's
// backward search starts its targets).
func dijkstraSeeds(in Input, seeds []search.Seed, shift uint32) []uint64 {
	cost := make([]uint64, len(in.First)-1)
	for i := range cost {
		cost[i] = search.Unreached
	}
	var h search.Heap
	for _, s := range seeds {
		c := uint64(s.Cost)
		if shift > 0 {
			c = uint64(shift - s.Cost)
		}
		if c < cost[s.Node] {
			cost[s.Node] = c
			h.Push(uint32(c), s.Node)
		}
	}
	for h.Len() > 0 {
		c, u := h.Pop()
		if uint64(c) != cost[u] {
			continue
		}
		for _, e := range in.Edges[in.First[u]:in.First[u+1]] {
			if nc := uint64(c) + uint64(e.Weight); nc < cost[e.Head] {
				cost[e.Head] = nc
				h.Push(uint32(nc), e.Head)
			}
		}
	}
	return cost
}

// reverse returns in with every edge turned around.
func reverse(in Input) Input {
	n := len(in.First) - 1
	out := Input{First: make([]uint32, n+1), Edges: make([]InputEdge, len(in.Edges))}
	for _, e := range in.Edges {
		out.First[e.Head+1]++
	}
	for v := range n {
		out.First[v+1] += out.First[v]
	}
	next := slices.Clone(out.First[:n])
	for u := range n {
		for _, e := range in.Edges[in.First[u]:in.First[u+1]] {
			out.Edges[next[e.Head]] = InputEdge{Head: uint32(u), Weight: e.Weight, Dist: e.Dist}
			next[e.Head]++
		}
	}
	return out
}

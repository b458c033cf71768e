package ch

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSpaceViasAreTreePaths checks SpaceVias on random graphs, with several
// seeds a side, some with marked nodes (variable shortcuts), with the
// marks in an array and in a hash table: every candidate is a distinct
// node whose path (ViaPath) runs from a source seed to a target seed
// through it and costs what the candidate says, below the limit and no
// less than the best path through the node (Dijkstra's); the route arcs it
// names as left and rejoined come before and after the node on it; and the
// best route's own meeting is among the candidates, at the route's cost.
// Two queries in three pass the best route's meeting, so that paths copy
// what they share with it: exactly what unpacking them whole gives. Half
// the graphs have zero-weight edges.
func TestSpaceViasAreTreePaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 37))
	candidates, dearer, along := 0, 0, 0
	for round := range 8 {
		in := randomGraph(rng, 300+rng.IntN(300))
		if round%2 == 1 {
			in.Marked = func(v uint32) bool { return v%11 == 0 }
		}
		if round%4 >= 2 { // a third of the edges weigh nothing (zero-length segments)
			for i := range in.Edges {
				if rng.IntN(3) == 0 {
					in.Edges[i].Weight = 0
				}
			}
		}
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		n := len(in.First) - 1
		rev := reverse(in)
		q := NewQuery(h)
		if round >= 4 {
			q.via = newViaScratch(h, false)
		}
		for range 150 {
			sources, targets := randomSeedsN(rng, n), randomSeedsN(rng, n)
			from, to := dijkstraSeeds(in, sources, 0), dijkstraSeeds(rev, targets, bias(targets))
			best, ok := q.Shortest(sources, targets, nil)
			if !ok {
				continue
			}
			route := slices.Clone(best.Arcs)
			best.Arcs = route
			if rng.IntN(3) == 0 {
				best.Meet = NoMeet // unpacked whole
			} else {
				along++
			}
			limit := best.Cost + best.Cost/3 + 1
			vias := q.SpaceVias(sources, targets, best, limit, nil)
			if q.via.along != (best.Meet != NoMeet && q.via.simple) {
				t.Fatalf("round %d: copies of the best route %v with meeting %d", round, q.via.along, best.Meet)
			}
			seen := make([]bool, n)
			atBest := false
			for _, v := range vias {
				candidates++
				if seen[v.Node] {
					t.Fatalf("round %d: node %d a candidate twice", round, v.Node)
				}
				seen[v.Node] = true
				exact := exactVia(from, to, v.Node, bias(targets))
				if v.Cost >= limit || uint64(v.Cost) < exact {
					t.Fatalf("round %d: via %d costs %d, limit %d, best through it %d", round, v.Node, v.Cost, limit, exact)
				}
				if uint64(v.Cost) > exact {
					dearer++
				}
				atBest = atBest || v.Cost == best.Cost
				checkViaPath(t, q, in, v, sources, targets, route)
				if q.via.along { // what is copied is what unpacking gives
					copied := q.ViaPath(v, nil)
					q.via.along = false
					whole := q.ViaPath(v, nil)
					q.via.along = true
					if !slices.Equal(copied.Arcs, whole.Arcs) || copied.Source != whole.Source || copied.Target != whole.Target {
						t.Fatalf("round %d: via %d: copied %v, unpacked %v", round, v.Node, copied, whole)
					}
				}
			}
			if !atBest {
				t.Fatalf("round %d: no candidate at the best cost %d among %d", round, best.Cost, len(vias))
			}
		}
	}
	if candidates < 1000 || dearer == 0 || along == 0 {
		t.Fatalf("%d candidates, %d dearer than the best path through their node: the test proves little", candidates, dearer)
	}
	t.Logf("%d candidates, %d dearer than the best path through their node", candidates, dearer)
}

package ch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/search"
)

// TestZeroWeightsMatchDijkstra contracts graphs where a third of the edges
// weigh nothing (a zero-length segment entered without a turn cost) and
// checks query costs against Dijkstra: a path through zero-weight edges has
// a limit of 0, which must not read as "no path through this node".
func TestZeroWeightsMatchDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for round := range 4 {
		in := randomGraph(rng, 400+rng.IntN(400))
		for i := range in.Edges {
			if rng.IntN(3) == 0 {
				in.Edges[i].Weight = 0
			}
		}
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		q := NewQuery(h)
		n := len(in.First) - 1
		for range 20 {
			s := uint32(rng.IntN(n))
			want := dijkstra(in, s)
			for range 20 {
				d := uint32(rng.IntN(n))
				got := uint32(search.Unreached)
				if res, ok := q.Shortest([]search.Seed{{Node: s}}, []search.Seed{{Node: d}}, nil); ok {
					got = res.Cost
				}
				if got != want[d] {
					t.Fatalf("round %d: %d→%d cost %d, Dijkstra %d", round, s, d, got, want[d])
				}
			}
		}
	}
}

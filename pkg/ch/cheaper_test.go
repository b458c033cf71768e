package ch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/search"
)

// TestCheaperThanMatchesCost: on random graphs, some with marked nodes,
// CheaperThan answers whether Cost between two nodes is below the bound,
// for bounds at the cost, just above and below it, and anywhere, on
// reachable and unreachable pairs and from a node to itself.
func TestCheaperThanMatchesCost(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 38))
	yes, no := 0, 0
	for round := range 4 {
		in := randomGraph(rng, 200+rng.IntN(300))
		if round%2 == 1 {
			in.Marked = func(v uint32) bool { return v%7 == 0 }
		}
		h, err := Build(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		n := len(in.First) - 1
		q := NewQuery(h)
		for range 300 {
			from, to := uint32(rng.IntN(n)), uint32(rng.IntN(n))
			cost, ok := q.Cost([]search.Seed{{Node: from}}, []search.Seed{{Node: to}})
			bounds := []uint32{rng.Uint32N(20000), search.Unreached - 1}
			if ok {
				bounds = append(bounds, cost, cost+1, cost-min(cost, 1))
			}
			for _, b := range bounds {
				want := ok && cost < b
				if got := q.CheaperThan(from, to, b); got != want {
					t.Fatalf("round %d: %d→%d below %d: %v, Cost says %d (%v)", round, from, to, b, got, cost, ok)
				}
				if want {
					yes++
				} else {
					no++
				}
			}
		}
	}
	if yes < 500 || no < 500 {
		t.Fatalf("%d cheaper, %d not: the test proves little", yes, no)
	}
}

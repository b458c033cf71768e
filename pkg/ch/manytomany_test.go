package ch

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/search"
)

// TestParallelTableEqualsTable: sharing the searches among queries changes
// no cell, distances included, and neither does reusing the queries
// (search.Labels' own tests cover its generations wrapping).
func TestParallelTableEqualsTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	in := randomGraph(rng, 600)
	h, err := Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	ends := func(k int) []Endpoint {
		e := make([]Endpoint, k)
		for i := range e {
			for range 1 + rng.IntN(2) {
				e[i].Seeds = append(e[i].Seeds, search.Seed{Node: uint32(rng.IntN(600)), Cost: rng.Uint32N(50)})
				e[i].Dists = append(e[i].Dists, rng.Int64N(1000))
			}
		}
		return e
	}
	src, dst := ends(37), ends(29)
	want := make([]Cell, len(src)*len(dst))
	NewQuery(h).Table(src, dst, want)
	reached := 0
	for _, c := range want {
		if c.Cost != search.Unreached {
			reached++
		}
	}
	if reached < len(want)/2 {
		t.Fatalf("only %d of %d cells reached: the test proves little", reached, len(want))
	}
	for _, workers := range []int{1, 2, 3, 8} {
		qs := make([]*Query, workers)
		for w := range qs {
			qs[w] = NewQuery(h)
		}
		for round := range 3 {
			got := make([]Cell, len(want))
			ParallelTable(qs, src, dst, got)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%d queries, round %d: cell [%d][%d] = %+v, one query %+v", workers, round, i/len(dst), i%len(dst), got[i], want[i])
			}
		}
	}
}

func firstDiff(a, b []Cell) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Popping everything pushed yields the pushed entries in sorted order.
func TestHeapSorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 50 {
		var h Heap
		var want []uint64
		for range rng.IntN(500) {
			c, n := rng.Uint32N(1000), rng.Uint32()
			h.Push(c, n)
			want = append(want, pack(c, n))
		}
		slices.Sort(want)
		for i, w := range want {
			if h.MinCost() != uint32(w>>32) {
				t.Fatalf("round %d: MinCost %d, want %d", round, h.MinCost(), w>>32)
			}
			c, n := h.Pop()
			if pack(c, n) != w {
				t.Fatalf("round %d pop %d: got (%d,%d), want %x", round, i, c, n, w)
			}
		}
		if h.Len() != 0 || h.MinCost() != Unreached {
			t.Fatal("heap not empty")
		}
	}
}

func TestAddSaturates(t *testing.T) {
	if Add(Unreached-1, 5) != Unreached || Add(2, 3) != 5 {
		t.Fatal("Add")
	}
}

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

// Interleaved pushes and pops, as a search does them, always pop the
// smallest entry queued.
func TestHeapInterleaved(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var h Heap
	var ref []uint64
	for step := range 20000 {
		if len(ref) == 0 || rng.IntN(3) > 0 {
			c, n := rng.Uint32N(5000), rng.Uint32()
			h.Push(c, n)
			ref = append(ref, pack(c, n))
			continue
		}
		i := slices.Index(ref, slices.Min(ref))
		want := ref[i]
		ref = slices.Delete(ref, i, i+1)
		if c, n := h.Pop(); pack(c, n) != want {
			t.Fatalf("step %d: popped (%d,%d), want %x", step, c, n, want)
		}
		if h.Len() != len(ref) {
			t.Fatalf("step %d: Len %d, want %d", step, h.Len(), len(ref))
		}
	}
}

func TestAddSaturates(t *testing.T) {
	if Add(Unreached-1, 5) != Unreached || Add(2, 3) != 5 {
		t.Fatal("Add")
	}
}

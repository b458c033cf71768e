package search

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestLabelsMatchMap drives Labels and a Go map with the same random
// operations over many searches, across table growth, the shrink of an
// oversized table and wraps of the generation counter, and compares every
// answer.
func TestLabelsMatchMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var l Labels[uint64]
	for search := range 300 {
		want := map[uint32]uint64{}
		var order []uint32
		switch {
		case search == 100:
			l.gen = ^uint32(0) // the next Reset wraps
		case search == 200:
			for len(l.slots) <= keepSlots { // an isochrone-sized search once
				l.Add(rng.Uint32())
			}
		}
		l.Reset()
		if search > 200 && len(l.slots) > keepSlots {
			t.Fatalf("search %d: the table of %d slots was kept", search, len(l.slots))
		}
		ops := rng.IntN(5000)
		span := 1 + rng.Uint32N(1<<rng.IntN(24)) // dense or sparse node ids
		for range ops {
			node := rng.Uint32N(span)
			if rng.IntN(3) == 0 {
				got := l.Get(node)
				w, ok := want[node]
				if (got != nil) != ok || (ok && *got != w) {
					t.Fatalf("search %d: Get(%d) = %v, map has %d %v", search, node, got, w, ok)
				}
				continue
			}
			v, added := l.Add(node)
			if _, ok := want[node]; ok == added {
				t.Fatalf("search %d: Add(%d) added %v, map had it %v", search, node, added, ok)
			}
			if added {
				order = append(order, node)
				if *v != 0 {
					t.Fatalf("search %d: new label of %d is %d, want zero", search, node, *v)
				}
			}
			*v = rng.Uint64()
			want[node] = *v
		}
		if l.Len() != len(want) {
			t.Fatalf("search %d: Len %d, map %d", search, l.Len(), len(want))
		}
		for i, node := range order {
			if l.Node(i) != node || *l.At(i) != want[node] {
				t.Fatalf("search %d: label %d is node %d = %d, want node %d = %d", search, i, l.Node(i), *l.At(i), node, want[node])
			}
		}
	}
}

// TestLabelsZeroValue: the zero Labels answers Get without a table and
// grows on the first Add.
func TestLabelsZeroValue(t *testing.T) {
	var l Labels[int]
	if l.Get(3) != nil || l.Len() != 0 {
		t.Fatal("zero Labels is not empty")
	}
	l.Reset()
	if v, added := l.Add(3); !added || *v != 0 {
		t.Fatal("first Add did not add")
	}
	if l.Get(3) == nil || l.Get(4) != nil {
		t.Fatal("Get after Add is wrong")
	}
}

func BenchmarkLabelsAddGet(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	nodes := make([]uint32, 4096) // a CH search's order of magnitude
	for i := range nodes {
		nodes[i] = rng.Uint32N(20_000_000)
	}
	var l Labels[[4]uint32]
	for b.Loop() {
		l.Reset()
		for _, n := range nodes {
			v, _ := l.Add(n)
			v[0]++
		}
		for _, n := range nodes {
			if l.Get(n) == nil {
				b.Fatal("lost")
			}
		}
	}
}

// TestLabelsFit: a small graph's table is an array indexed by node, a large
// one's a hash table, and both answer alike; switching between graphs of
// either size forgets the labels.
func TestLabelsFit(t *testing.T) {
	var l Labels[uint64]
	for _, n := range []int{1000, 1 << 22, 500, 2000, 1 << 21} {
		l.Fit(n)
		if l.Len() != 0 {
			t.Fatalf("n=%d: %d labels after Fit", n, l.Len())
		}
		if dense := n*int(unsafe.Sizeof(slot[uint64]{})) <= denseBytes; l.dense != dense {
			t.Fatalf("n=%d: dense %v, want %v", n, l.dense, dense)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		want := map[uint32]uint64{}
		for range 3000 {
			node := rng.Uint32N(uint32(n))
			v, added := l.Add(node)
			if _, ok := want[node]; ok == added {
				t.Fatalf("n=%d: Add(%d) added %v", n, node, added)
			}
			*v = rng.Uint64()
			want[node] = *v
		}
		for node, w := range want {
			if got := l.Get(node); got == nil || *got != w {
				t.Fatalf("n=%d: Get(%d) = %v, want %d", n, node, got, w)
			}
		}
		if l.Len() != len(want) {
			t.Fatalf("n=%d: Len %d, want %d", n, l.Len(), len(want))
		}
	}
}

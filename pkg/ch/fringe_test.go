package ch_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
)

// TestFringeSplitsEdges: on random graphs contracted around a random core,
// a node below the core is in a direction's fringe exactly when one of its
// edges in that direction has a core node at its other end, and the fringe
// holds its edges in the hierarchy's order, split into those and the
// others.
func TestFringeSplitsEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	inFringe := 0
	for round := range 6 {
		_, n, h, _ := aroundCore(t, rng, round)
		core := coreSet(h, n)
		for _, up := range []bool{true, false} {
			first, list := h.DnFirst, h.Dn
			if up {
				first, list = h.UpFirst, h.Up
			}
			for u := range uint32(n) {
				if core[u] {
					continue
				}
				var wantInto, wantBelow [][2]uint32
				for i := first[u]; i < first[u+1]; i++ {
					e := [2]uint32{list[4*i], list[4*i+1]}
					if core[e[0]] {
						wantInto = append(wantInto, e)
					} else {
						wantBelow = append(wantBelow, e)
					}
				}
				into, below, ok := ch.FringeEdges(h, up, u)
				if ok != (len(wantInto) > 0) {
					t.Fatalf("round %d, up %v, node %d: in the fringe %v with %d edges into the core", round, up, u, ok, len(wantInto))
				}
				if !ok {
					continue
				}
				inFringe++
				if !slices.Equal(into, wantInto) || !slices.Equal(below, wantBelow) {
					t.Fatalf("round %d, up %v, node %d: fringe %v and %v, want %v and %v", round, up, u, into, below, wantInto, wantBelow)
				}
			}
		}
	}
	if inFringe < 100 {
		t.Fatalf("only %d fringe nodes: the test checks little", inFringe)
	}
}

// coreSet is which of h's n nodes are in its core (Hierarchy.SetCore).
func coreSet(h *ch.Hierarchy, n int) []bool {
	set := make([]bool, n)
	for _, v := range ch.CoreNodes(h) {
		set[v] = true
	}
	return set
}

// TestCoreArcsDropOnlyBeaten: of a fringe node's edges into the core, a
// core table keeps, in their order, exactly those that no other of them
// beats strictly through the core (w' + D(a', a) < w forward, D(a, a') +
// w' < w backward), the costs across the core checked against Dijkstra on
// the core's own edges by TestCoreTableMatchesDijkstra.
func TestCoreArcsDropOnlyBeaten(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	dropped, kept := 0, 0
	for round := range 6 {
		_, n, h, _ := aroundCore(t, rng, round)
		core := coreSet(h, n)
		for _, up := range []bool{true, false} {
			for u := range uint32(n) {
				if core[u] {
					continue
				}
				all, got, across, ok := ch.CoreArcs(h, up, u)
				if !ok {
					continue
				}
				var want [][2]uint32
				for _, a := range all {
					beaten := false
					for _, o := range all {
						d := across(o[0], a[0])
						if !up {
							d = across(a[0], o[0])
						}
						beaten = beaten || uint64(o[1])+uint64(d) < uint64(a[1])
					}
					if !beaten {
						want = append(want, a)
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("round %d, up %v, node %d: kept %v of %v, want %v", round, up, u, got, all, want)
				}
				dropped += len(all) - len(got)
				kept += len(got)
			}
		}
	}
	if dropped == 0 || kept == 0 {
		t.Fatalf("%d edges kept, %d dropped: the test checks little", kept, dropped)
	}
	t.Logf("%d edges into the core kept, %d dropped", kept, dropped)
}

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

package ch_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
)

// TestTaintMarksExactly: under random overlays on every profile of
// Andorra, an edge of the hierarchy is tainted exactly when its unpacked
// path enters a changed arc, checked edge by edge by unpacking all of them.
func TestTaintMarksExactly(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	for name, r := range rel.Routers {
		t.Run(name, func(t *testing.T) {
			g, h := r.Graph(), r.Hierarchy()
			rng := rand.New(rand.NewPCG(9, uint64(len(name))))
			arcs := int(g.Fwd.First[len(g.Fwd.First)-1])
			changes := map[uint32]uint32{}
			for range 40 {
				changes[uint32(rng.IntN(arcs))] = graph.NoWay
			}
			ov := graph.NewOverlay(g, changes)
			taint := h.Taint(ov)
			marked := 0
			q := ch.NewQuery(h)
			for _, up := range []bool{true, false} {
				first, list := h.DnFirst, h.Dn
				if up {
					first, list = h.UpFirst, h.Up
				}
				for u := range uint32(len(first) - 1) {
					for i := first[u]; i < first[u+1]; i++ {
						want := false
						for _, a := range ch.EdgeArcs(q, up, u, i) {
							want = want || ov.Has(a)
						}
						if got := ch.Tainted(taint, up, i); got != want {
							t.Fatalf("edge %d of node %d (up %v, %d words): tainted %v, its path enters a changed arc %v", i, u, up, len(list)/4, got, want)
						}
						if want {
							marked++
						}
					}
				}
			}
			t.Logf("%d changed arcs taint %d of %d edges", len(ov.Arcs()), marked, (len(h.Up)+len(h.Dn))/4)
			if marked != taint.Count() || marked == 0 {
				t.Errorf("%d edges enter a changed arc, the taint counts %d", marked, taint.Count())
			}
		})
	}
}

package guidance_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
)

// TestViaWayDuplicate narrates a path through a via-way restriction's
// duplicate arc: straight along one street, 1-2-3-4, whose middle block
// (way W, 2-3) is the via way of a no_right_turn from the first block into
// the side street at 3. The duplicate of W must read as W: no "keep" at 2,
// as if the original were another way on.
func TestViaWayDuplicate(t *testing.T) {
	coords := map[int64][2]int32{1: {10000000, 425000000}, 2: {10010000, 425000000}, 3: {10020000, 425000000},
		4: {10030000, 425000000}, 5: {10020000, 424990000}}
	way := func(id int64, name string, nodes ...int64) graph.Way {
		return graph.Way{ID: id, Nodes: nodes, Name: name, Class: "residential", Speeds: [][2]float32{{36, 36}}}
	}
	in := graph.Input{
		Profiles:     []string{"car"},
		Ways:         []graph.Way{way(1, "Carrer Major", 1, 2), way(2, "Carrer Major", 2, 3), way(3, "Carrer Major", 3, 4), way(4, "Carrer Nou", 3, 5)},
		Restrictions: []graph.Restriction{{Relation: 1, From: []int64{1}, Via: []int64{2}, ViaWays: true, To: []int64{4}, Profiles: 1}},
		Coord: func(id int64) (int32, int32, bool) {
			c, ok := coords[id]
			return c[0], c[1], ok
		},
		Barrier: func(int64) uint32 { return 0 },
	}
	_, graphs, _, err := graph.Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	g := graphs[0]
	if g.NumDuplicates() != 1 {
		t.Fatalf("%d duplicates, want 1", g.NumDuplicates())
	}
	dup := g.NumArcs() - 1
	w := g.Original(dup)
	var f, next uint32 = graph.NoArc, graph.NoArc
	for a := range g.NumArcs() {
		if g.IsDuplicate(a) {
			continue
		}
		b, e := g.Turns.Out(a)
		for i := b; i < e; i++ {
			if to, _, _ := g.Turn(i); to == dup {
				f = a
			}
		}
		if head := g.ArcHead(a); g.Net.NodeCoord[2*head] == coords[4][0] && isTurn(g, dup, a) {
			next = a // 3>4
		}
	}
	if f == graph.NoArc || next == graph.NoArc {
		t.Fatalf("no arc turns into the duplicate (%d) or none follows it (%d)", f, next)
	}
	steps := func(arcs ...uint32) []string {
		var pieces []guidance.Piece
		for _, a := range arcs {
			pieces = append(pieces, guidance.Piece{Arc: a, DistanceM: 80, DurationS: 8})
		}
		var out []string
		for _, s := range guidance.Steps(g, guidance.Leg{Pieces: pieces}) {
			out = append(out, s.Instruction)
		}
		return out
	}
	got, want := steps(f, dup, next), steps(f, w, next)
	if len(got) != len(want) || len(got) != 2 {
		t.Fatalf("through the duplicate %q, through the original %q: want depart and arrive only", got, want)
	}
}

func isTurn(g *graph.Graph, a, b uint32) bool {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, _, _ := g.Turn(i); to == b {
			return true
		}
	}
	return false
}

package graph

import (
	"context"
	"slices"
	"testing"
)

// viaMap is a small map drawn on a grid of 0.001° steps, for via-way
// restrictions:
//
//	1 ---F--- 2 ---X--- 3
//	          |
//	          W  (the via way)
//	          |
//	4 ---T--- 5 ---O--- 6
//	          |
//	          V  (a second via way, for chains)
//	          |
//	7 ---U--- 8 ---P--- 9
//
// Every way is two-way for the only profile, car.
var viaCoords = map[int64][2]int{1: {0, 2}, 2: {1, 2}, 3: {2, 2}, 4: {0, 1}, 5: {1, 1}, 6: {2, 1}, 7: {0, 0}, 8: {1, 0}, 9: {2, 0}}

const (
	wayF, wayX, wayW, wayT, wayO, wayV, wayU, wayP = 1, 2, 3, 4, 5, 6, 7, 8
)

func viaInput(rs ...Restriction) Input {
	ways := map[int64][2]int64{wayF: {1, 2}, wayX: {3, 2}, wayW: {2, 5}, wayT: {5, 4}, wayO: {5, 6}, wayV: {5, 8}, wayU: {8, 7}, wayP: {8, 9}}
	in := Input{Profiles: []string{"car"}, Restrictions: rs}
	for id := int64(1); id <= 8; id++ {
		nodes := ways[id]
		in.Ways = append(in.Ways, Way{ID: id, Nodes: nodes[:], Class: "residential", Speeds: [][2]float32{{36, 36}}})
	}
	in.Coord = func(id int64) (int32, int32, bool) {
		c, ok := viaCoords[id]
		return 10000000 + int32(c[0])*10000, 425000000 + int32(c[1])*10000, ok
	}
	in.Barrier = func(int64) uint32 { return 0 }
	return in
}

func buildVia(t *testing.T, rs ...Restriction) (*Graph, *RestrictionStats) {
	t.Helper()
	_, graphs, stats, err := Build(context.Background(), viaInput(rs...))
	if err != nil {
		t.Fatal(err)
	}
	return graphs[0], stats
}

// viaNode finds the graph node of OSM node id.
func viaNode(g *Graph, id int64) uint32 {
	c := viaCoords[id]
	for v := range uint32(g.Net.NumNodes()) {
		if g.Net.NodeCoord[2*v] == 10000000+int32(c[0])*10000 && g.Net.NodeCoord[2*v+1] == 425000000+int32(c[1])*10000 {
			return v
		}
	}
	panic("no node")
}

// drivable reports whether the turn graph has a path through the OSM nodes
// in order, one arc per step, entering duplicates wherever turns lead.
func drivable(g *Graph, nodes ...int64) bool {
	var states []uint32
	for a := range uint32(len(g.Fwd.Edges) / 3) {
		if !g.IsDuplicate(a) && arcEnds(g, a) == [2]uint32{viaNode(g, nodes[0]), viaNode(g, nodes[1])} {
			states = append(states, a)
		}
	}
	for k := 2; k < len(nodes); k++ {
		want := [2]uint32{viaNode(g, nodes[k-1]), viaNode(g, nodes[k])}
		var next []uint32
		for _, x := range states {
			begin, end := g.Turns.Out(x)
			for i := begin; i < end; i++ {
				if y := g.Turns.Edges[3*i]; arcEnds(g, y) == want && !slices.Contains(next, y) {
					next = append(next, y)
				}
			}
		}
		states = next
	}
	return len(states) > 0
}

func arcEnds(g *Graph, a uint32) [2]uint32 {
	s, rev := SplitSegRef(g.Fwd.Edges[3*a+2])
	if rev {
		return [2]uint32{g.Net.SegTo[s], g.Net.SegFrom[s]}
	}
	return [2]uint32{g.Net.SegFrom[s], g.Net.SegTo[s]}
}

func noVia(via []int64, to int64) Restriction {
	return Restriction{Relation: 1, From: []int64{wayF}, Via: via, ViaWays: true, To: []int64{to}, Profiles: 1}
}

func TestViaWayNo(t *testing.T) {
	g, stats := buildVia(t, noVia([]int64{wayW}, wayT))
	if stats.Applied != 1 || stats.ViaWays != 1 || stats.Unsupported != 0 || stats.Unresolved != 0 {
		t.Errorf("stats %+v, want one via-way restriction applied", stats)
	}
	if g.NumDuplicates() != 1 || g.Original(g.firstDup()) != g.ArcOf[g.Fwd.Edges[3*g.firstDup()+2]] {
		t.Fatalf("%d duplicates, want one of W southward", g.NumDuplicates())
	}
	for _, c := range []struct {
		path []int64
		want bool
	}{
		{[]int64{1, 2, 5, 4}, false}, // F W T: the forbidden manoeuvre
		{[]int64{1, 2, 5, 6}, true},  // F W O
		{[]int64{1, 2, 5, 8}, true},  // F W V
		{[]int64{3, 2, 5, 4}, true},  // X W T: not from F
		{[]int64{1, 2, 5, 2, 1}, true},
		{[]int64{1, 2, 5, 6, 5, 4}, true}, // going round by O and back
		{[]int64{1, 2, 5}, true},
	} {
		if got := drivable(g, c.path...); got != c.want {
			t.Errorf("drivable %v = %v, want %v", c.path, got, c.want)
		}
	}
	// Without the restriction, F W T is drivable: the test can fail.
	if g0, _ := buildVia(t); !drivable(g0, 1, 2, 5, 4) || g0.NumDuplicates() != 0 {
		t.Error("unrestricted map does not allow F W T, or has duplicates")
	}
}

func TestViaWayOnly(t *testing.T) {
	rs := noVia([]int64{wayW}, wayT)
	rs.Only = true
	g, _ := buildVia(t, rs)
	for _, c := range []struct {
		path []int64
		want bool
	}{
		{[]int64{1, 2, 5, 4}, true},
		{[]int64{1, 2, 5, 6}, false},
		{[]int64{1, 2, 5, 8}, false},
		{[]int64{1, 2, 5, 2}, false},
		{[]int64{3, 2, 5, 6}, true},
		{[]int64{1, 2, 3}, true}, // not entering the via way
	} {
		if got := drivable(g, c.path...); got != c.want {
			t.Errorf("drivable %v = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestViaWaySharedDuplicates(t *testing.T) {
	g, stats := buildVia(t, noVia([]int64{wayW}, wayT), noVia([]int64{wayW}, wayO))
	if stats.ViaWays != 2 {
		t.Errorf("stats %+v", stats)
	}
	if g.NumDuplicates() != 1 {
		t.Errorf("%d duplicates, want the two restrictions to share one", g.NumDuplicates())
	}
	if drivable(g, 1, 2, 5, 4) || drivable(g, 1, 2, 5, 6) || !drivable(g, 1, 2, 5, 8) || !drivable(g, 3, 2, 5, 6) {
		t.Error("shared duplicates do not forbid both manoeuvres, or forbid others")
	}
}

func TestViaWayChain(t *testing.T) {
	g, stats := buildVia(t, noVia([]int64{wayW, wayV}, wayU))
	if stats.ViaWays != 1 || g.NumDuplicates() != 2 {
		t.Fatalf("stats %+v, %d duplicates; want 1 and 2", stats, g.NumDuplicates())
	}
	for _, c := range []struct {
		path []int64
		want bool
	}{
		{[]int64{1, 2, 5, 8, 7}, false},
		{[]int64{1, 2, 5, 8, 9}, true},
		{[]int64{1, 2, 5, 4}, true},
		{[]int64{6, 5, 8, 7}, true}, // entering the second via way elsewhere
		{[]int64{3, 2, 5, 8, 7}, true},
	} {
		if got := drivable(g, c.path...); got != c.want {
			t.Errorf("drivable %v = %v, want %v", c.path, got, c.want)
		}
	}
	// Members out of order, or not touching, do not chain up.
	_, stats = buildVia(t, noVia([]int64{wayV, wayW}, wayU), noVia([]int64{wayV}, wayU))
	if stats.Unresolved != 2 || stats.Applied != 0 {
		t.Errorf("stats %+v, want both unresolved", stats)
	}
}

// A via-node restriction from the via way binds its duplicates too, and a
// conditional via-way restriction becomes a conditional turn of the
// duplicate, never an unconditional ban.
func TestViaWayInteractions(t *testing.T) {
	node := Restriction{Relation: 2, From: []int64{wayW}, Via: []int64{5}, To: []int64{wayO}, Profiles: 1}
	g, _ := buildVia(t, noVia([]int64{wayW}, wayT), node)
	if drivable(g, 1, 2, 5, 6) || drivable(g, 3, 2, 5, 6) || !drivable(g, 1, 2, 5, 8) {
		t.Error("the via-node restriction W→O does not bind the duplicate of W")
	}
	cond := noVia([]int64{wayW}, wayT)
	cond.Schedules, cond.When = []uint32{0}, 1<<1
	g, stats := buildVia(t, cond)
	if stats.ViaWays != 1 || g.NumDuplicates() != 1 {
		t.Fatalf("stats %+v, %d duplicates", stats, g.NumDuplicates())
	}
	if !drivable(g, 1, 2, 5, 4) {
		t.Error("a conditional via-way restriction was applied unconditionally")
	}
	d := g.firstDup()
	found := false
	for i := 0; i < len(g.Cond.Turns); i += 3 {
		if g.Cond.Turns[i] == d && arcEnds(g, g.Cond.Turns[i+1]) == [2]uint32{viaNode(g, 5), viaNode(g, 4)} {
			found = true
		}
	}
	if !found {
		t.Errorf("no conditional turn from the duplicate onto T in %v", g.Cond.Turns)
	}
}

// A duplicate of a conditional arc is conditional alike, sharing its
// record, so departure-time searches price it as its original.
func TestViaWayConditionalArc(t *testing.T) {
	in := viaInput(noVia([]int64{wayW}, wayT))
	for i := range in.Ways {
		if in.Ways[i].ID == wayW {
			in.Ways[i].Cond = &WayCond{Schedules: []uint32{0}, Speeds: [][][2]float32{{{36, 36}}, {{0, 0}}}}
		}
	}
	_, graphs, _, err := Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	g := graphs[0]
	d := g.firstDup()
	if g.NumDuplicates() != 1 || !g.Marked(d) {
		t.Fatalf("%d duplicates, the first marked %v", g.NumDuplicates(), g.Marked(d))
	}
	if err := g.Cond.check(len(g.Fwd.Edges)/3, 1); err != nil {
		t.Fatal(err)
	}
	o := g.Original(d)
	i, ok := slices.BinarySearch(g.Cond.Arcs, o)
	j, okd := slices.BinarySearch(g.Cond.Arcs, d)
	if !ok || !okd || g.Cond.ArcAt[i] != g.Cond.ArcAt[j] {
		t.Errorf("conditional arcs %v (records %v): want original %d and duplicate %d sharing a record", g.Cond.Arcs, g.Cond.ArcAt, o, d)
	}
}

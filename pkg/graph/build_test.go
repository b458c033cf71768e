package graph

import (
	"context"
	"testing"
)

// The test map, 0.001° (about 80-110 m) between neighbours:
//
//	a ---- b ---- c          w1: a-b and b-c, two-way for both profiles
//	       |      |          w2: b-d-e, d is a bollard: blocks car, not foot
//	       d ---- e          w3: c-e, one-way c→e for car, two-way on foot
//	                         w4: e-x-f, node x is missing from the extract
var testCoords = map[int64][2]int32{
	1: {10000000, 425000000}, 2: {10010000, 425000000}, 3: {10020000, 425000000},
	4: {10010000, 424990000}, 5: {10020000, 424990000}, 7: {10040000, 424990000},
}

const (
	car  = 0
	foot = 1
)

func testInput() Input {
	both := func(c, f float32) [][2]float32 { return [][2]float32{{c, c}, {f, f}} }
	return Input{
		Profiles: []string{"car", "foot"},
		Ways: []Way{
			{ID: 101, Nodes: []int64{1, 2}, Name: "Avinguda", Class: "primary", Speeds: both(36, 3.6)},
			{ID: 105, Nodes: []int64{2, 3}, Name: "Avinguda", Class: "primary", Speeds: both(36, 3.6)},
			{ID: 102, Nodes: []int64{2, 4, 5}, Ref: "CS-1", Class: "residential", Speeds: both(36, 3.6)},
			{ID: 103, Nodes: []int64{3, 5}, Class: "residential", Speeds: [][2]float32{{36, 0}, {3.6, 3.6}}},
			{ID: 104, Nodes: []int64{5, 6, 7}, Class: "track", Speeds: both(18, 3.6)},
		},
		Restrictions: []Restriction{
			// Car may not turn from the Avinguda into CS-1 at b.
			{Relation: 1, From: []int64{101}, Via: []int64{2}, To: []int64{102}, Profiles: 1 << car},
			// On foot, from CS-1 at b one may only continue onto the Avinguda.
			{Relation: 2, From: []int64{102}, Via: []int64{2}, To: []int64{101, 105}, Only: true, Profiles: 1 << foot},
			// Car may not go from a along the Avinguda's b-c block into c-e:
			// a via-way restriction, which duplicates b>c.
			{Relation: 3, From: []int64{101}, Via: []int64{105}, ViaWays: true, To: []int64{103}, Profiles: 1 << car},
		},
		Coord: func(id int64) (int32, int32, bool) {
			c, ok := testCoords[id]
			return c[0], c[1], ok
		},
		Barrier: func(id int64) uint32 {
			if id == 4 {
				return 1 << car
			}
			return 0
		},
	}
}

func TestBuildSmallMap(t *testing.T) {
	net, graphs, stats, err := Build(context.Background(), testInput())
	if err != nil {
		t.Fatal(err)
	}
	if stats.Applied != 3 || stats.ViaWays != 1 || stats.Unsupported != 0 || stats.Unresolved != 0 {
		t.Errorf("restriction stats %+v", stats)
	}
	// Nodes: a b c d e (the missing node x cuts w4 into nothing usable
	// before it and leaves f alone, so neither e-x nor x-f exists).
	if net.NumNodes() != 5 || net.NumSegments() != 5 {
		t.Fatalf("%d nodes, %d segments; want 5 and 5", net.NumNodes(), net.NumSegments())
	}
	segs := map[string]uint32{}
	for s := range uint32(net.NumSegments()) {
		segs[nodeName(net, net.SegFrom[s])+nodeName(net, net.SegTo[s])] = s
	}
	for _, want := range []string{"ab", "bc", "bd", "de", "ce"} {
		if _, ok := segs[want]; !ok {
			t.Fatalf("no segment %s in %v", want, segs)
		}
	}
	if n := net.Name(segs["ab"]); n != "Avinguda" || net.Ref(segs["bd"]) != "CS-1" || net.Class(segs["ce"]) != "residential" {
		t.Errorf("attributes: name %q ref %q class %q", n, net.Ref(segs["bd"]), net.Class(segs["ce"]))
	}
	if l := net.SegLength[segs["ab"]]; l < 81 || l > 83 { // 0.001° of longitude at 42.5°N
		t.Errorf("ab is %.1f m long", l)
	}

	c := graphs[car]
	arcs := arcSet(c)
	for _, want := range []string{"a>b", "b>a", "b>c", "c>b", "b>d", "d>b", "d>e", "e>d", "c>e"} {
		if !arcs[want] {
			t.Errorf("car lacks arc %s (has %v)", want, arcs)
		}
	}
	if len(arcs) != 9 || arcs["e>c"] {
		t.Errorf("car arcs %v: want 9, without e>c (one-way)", arcs)
	}
	if ms := c.WF[segs["ab"]]; ms < 8100 || ms > 8300 { // 82 m at 10 m/s
		t.Errorf("car time on ab %d ms", ms)
	}
	if c.WB[segs["ce"]] != NoWay || graphs[foot].WB[segs["ce"]] == NoWay {
		t.Error("one-way c→e: car may go back, or foot may not")
	}
	turns := turnSet(c)
	for _, want := range []string{"a>b>c", "c>b>d", "b>d>b", "e>d>e", "b>c>e", "c>e>d"} {
		if !turns[want] {
			t.Errorf("car lacks turn %s", want)
		}
	}
	for _, banned := range []string{"b>d>e", "e>d>b", "a>b>d"} {
		if turns[banned] {
			t.Errorf("car may turn %s: the bollard or the no_left_turn is ignored", banned)
		}
	}
	// U-turns (uturn.go): at b, where three roads meet, yes; at c, where
	// only b-c and c-e meet, never; at the bollard d and the dead end e, yes.
	for _, want := range []string{"a>b>a", "c>b>c", "b>d>b", "d>e>d", "e>d>e"} {
		if !turns[want] {
			t.Errorf("car lacks U-turn %s", want)
		}
	}
	if turns["b>c>b"] {
		t.Error("car may turn back at c, where only two roads meet")
	}
	// Without that U-turn the car's arcs fall into cycles of two arcs on
	// one segment (a-b, b-d, d-e): the largest component is one of them,
	// never b-c or c-e, which no cycle uses.
	big := 0
	for name, s := range segs {
		if c.Big[s] == 1 {
			big++
			if name == "bc" || name == "ce" {
				t.Errorf("car Big[%s] = 1: no cycle uses it", name)
			}
		}
	}
	if big != 1 {
		t.Errorf("car has %d segments on its largest component, want the one of a two-arc cycle", big)
	}
	f := graphs[foot]
	if len(arcSet(f)) != 10 {
		t.Errorf("foot has %d arcs, want all 10 directions", len(arcSet(f)))
	}
	ft := turnSet(f)
	if !ft["d>b>a"] || !ft["d>b>c"] || ft["d>b>d"] || !ft["b>d>e"] || !ft["a>b>d"] {
		t.Errorf("foot turns at b: only_* from CS-1 or the bollard mishandled: %v", ft)
	}
	for s := range uint32(net.NumSegments()) {
		if f.Big[s] != 1 {
			t.Errorf("foot segment %d outside the single component", s)
		}
	}
	for a := range uint32(len(c.Fwd.Edges) / 3) {
		if c.ArcOf[c.Fwd.Edges[3*a+2]] != c.Original(a) {
			t.Fatalf("ArcOf does not invert arc %d", a)
		}
	}
	if c.NumDuplicates() != 1 || arcName(c, c.Dup[0]) != "b>c" || f.NumDuplicates() != 0 {
		t.Errorf("car duplicates %v, foot %d: want b>c once for car only", c.Dup, f.NumDuplicates())
	}
}

func arcName(g *Graph, a uint32) string {
	s, rev := SplitSegRef(g.Fwd.Edges[3*a+2])
	from, to := g.Net.SegFrom[s], g.Net.SegTo[s]
	if rev {
		from, to = to, from
	}
	return nodeName(g.Net, from) + ">" + nodeName(g.Net, to)
}

func arcSet(g *Graph) map[string]bool {
	out := map[string]bool{}
	for a := range uint32(len(g.Fwd.Edges) / 3) {
		out[arcName(g, a)] = true
	}
	return out
}

// turnSet names each allowed turn by its three nodes, e.g. "a>b>c".
func turnSet(g *Graph) map[string]bool {
	out := map[string]bool{}
	for a := range uint32(len(g.Fwd.Edges) / 3) {
		b, e := g.Turns.Out(a)
		for i := b; i < e; i++ {
			out[arcName(g, a)+arcName(g, g.Turns.At(i).Head)[1:]] = true
		}
	}
	return out
}

func nodeName(net *Network, v uint32) string {
	lon, lat := net.NodeCoord[2*v], net.NodeCoord[2*v+1]
	for id, c := range testCoords {
		if c == [2]int32{lon, lat} {
			return string(rune('a' + id - 1))
		}
	}
	return "?"
}

func TestBuildRejectsMismatchedSpeeds(t *testing.T) {
	in := testInput()
	in.Ways[0].Speeds = in.Ways[0].Speeds[:1]
	if _, _, _, err := Build(context.Background(), in); err == nil {
		t.Fatal("accepted a way with speeds for one of two profiles")
	}
}

package graph

import (
	"context"
	"testing"
)

// The test map, 0.001° (about 80-110 m) between neighbours:
//
//	a ---- b ---- c          w1: a-b-c, two-way for both profiles
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
			{Nodes: []int64{1, 2, 3}, Name: "Avinguda", Class: "primary", Speeds: both(36, 3.6)},
			{Nodes: []int64{2, 4, 5}, Ref: "CS-1", Class: "residential", Speeds: both(36, 3.6)},
			{Nodes: []int64{3, 5}, Class: "residential", Speeds: [][2]float32{{36, 0}, {3.6, 3.6}}},
			{Nodes: []int64{5, 6, 7}, Class: "track", Speeds: both(18, 3.6)},
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
	net, graphs, err := Build(context.Background(), testInput())
	if err != nil {
		t.Fatal(err)
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
	edges := edgeSet(c)
	for _, want := range []string{"a>b", "b>a", "b>c", "c>b", "b>d", "e>d", "c>e"} {
		if !edges[want] {
			t.Errorf("car lacks edge %s (has %v)", want, edges)
		}
	}
	for _, banned := range []string{"d>b", "d>e", "e>c"} {
		if edges[banned] {
			t.Errorf("car has edge %s: the bollard or the one-way is ignored", banned)
		}
	}
	if len(edges) != 7 {
		t.Errorf("car has %d edges, want 7: %v", len(edges), edges)
	}
	if ms := c.WF[segs["ab"]]; ms < 8100 || ms > 8300 { // 82 m at 10 m/s
		t.Errorf("car time on ab %d ms", ms)
	}
	if c.WB[segs["ce"]] != NoWay || graphs[foot].WB[segs["ce"]] == NoWay {
		t.Error("one-way c→e: car may go back, or foot may not")
	}
	// Car's largest strongly connected component is {a, b, c}.
	for name, s := range segs {
		want := uint8(0)
		if name == "ab" || name == "bc" {
			want = 1
		}
		if c.Big[s] != want {
			t.Errorf("car Big[%s] = %d, want %d", name, c.Big[s], want)
		}
	}
	if len(edgeSet(graphs[foot])) != 10 {
		t.Errorf("foot has %d edges, want all 10 directions", len(edgeSet(graphs[foot])))
	}
	for s := range uint32(net.NumSegments()) {
		if graphs[foot].Big[s] != 1 {
			t.Errorf("foot segment %d outside the single component", s)
		}
	}
	checkBackward(t, c)
}

// checkBackward verifies the backward adjacency is the forward one reversed.
func checkBackward(t *testing.T, g *Graph) {
	t.Helper()
	fwd, bwd := map[Edge]bool{}, map[Edge]bool{}
	for v := range uint32(g.Net.NumNodes()) {
		b, e := g.Fwd.Out(v)
		for i := b; i < e; i++ {
			x := g.Fwd.At(i)
			fwd[Edge{Head: x.Head, Weight: x.Weight, SegRef: x.SegRef}] = true
			_ = v
		}
		b, e = g.Bwd.Out(v)
		for i := b; i < e; i++ {
			x := g.Bwd.At(i)
			bwd[Edge{Head: v, Weight: x.Weight, SegRef: x.SegRef}] = true
		}
	}
	if len(fwd) != len(bwd) {
		t.Fatalf("forward %d edges, backward %d", len(fwd), len(bwd))
	}
	for e := range fwd {
		if !bwd[e] {
			t.Fatalf("edge %+v has no backward twin", e)
		}
	}
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

func edgeSet(g *Graph) map[string]bool {
	out := map[string]bool{}
	for v := range uint32(g.Net.NumNodes()) {
		b, e := g.Fwd.Out(v)
		for i := b; i < e; i++ {
			out[nodeName(g.Net, v)+">"+nodeName(g.Net, g.Fwd.At(i).Head)] = true
		}
	}
	return out
}

func TestBuildRejectsMismatchedSpeeds(t *testing.T) {
	in := testInput()
	in.Ways[0].Speeds = in.Ways[0].Speeds[:1]
	if _, _, err := Build(context.Background(), in); err == nil {
		t.Fatal("accepted a way with speeds for one of two profiles")
	}
}

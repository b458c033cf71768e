package graph

import (
	"math"
	"testing"
)

// TestPerceived checks the perceived heading on shapes drawn in metres east
// and north of a junction: the first few metres a mapper bends to meet the
// other road do not count, a first piece long enough does, a gentle bend
// reads along its fitted line, and a road that really turns is read 10 m
// on.
func TestPerceived(t *testing.T) {
	for _, c := range []struct {
		name string
		pts  [][2]float64
		want float64 // degrees counter-clockwise from east
	}{
		{"straight east", [][2]float64{{0, 0}, {25, 0}, {60, 0}}, 0},
		{"a kink of 3 m, then east", [][2]float64{{0, 0}, {1.5, 2.6}, {12, 3}, {30, 3}, {50, 3}}, 2.2},
		{"a first piece of 30 m", [][2]float64{{0, 0}, {0, 30}, {40, 30}}, 90},
		{"a gentle bend", [][2]float64{{0, 0}, {10, 0.3}, {20, 0.9}, {30, 1.8}, {40, 3}}, 4.3},
		{"a hairpin", [][2]float64{{0, 0}, {6, 0}, {8, 4}, {6, 8}, {0, 8}}, 24.7},
	} {
		xs, ys, along := make([]float64, len(c.pts)), make([]float64, len(c.pts)), make([]float64, len(c.pts))
		for i, p := range c.pts {
			xs[i], ys[i] = p[0], p[1]
			if i > 0 {
				along[i] = along[i-1] + math.Hypot(xs[i]-xs[i-1], ys[i]-ys[i-1])
			}
		}
		if got := perceived(xs, ys, along, 2); math.Abs(got-c.want) > 1 {
			t.Errorf("%s: perceived %.1f degrees, want %.1f", c.name, got, c.want)
		}
	}
}

// TestPerceivedTurnAngle reads a junction drawn as a network: a road
// arriving from the west, and a road whose first 3 m go north to meet it
// and which then runs to the north-east. The first pieces say a turn of
// 90 degrees to the left; a driver sees about 45.
func TestPerceivedTurnAngle(t *testing.T) {
	const m = 1e7 / 111195.0 // fixed-point units per metre (of latitude, and of longitude at the equator)
	var geom []int32
	add := func(ps ...[2]float64) {
		for _, p := range ps {
			geom = append(geom, int32(math.Round(p[0]*m)), int32(math.Round(p[1]*m)))
		}
	}
	add([2]float64{-50, 0}, [2]float64{-3, 0}, [2]float64{0, 0}) // segment 0: arriving from the west
	add([2]float64{0, 0}, [2]float64{0, 3}, [2]float64{32, 35})  // segment 1: leaving to the north-east
	n := &Network{GeomCoord: geom, SegGeom: []uint32{0, 3, 6}, SegFrom: []uint32{0, 1}, SegTo: []uint32{1, 2},
		SegClass: []uint8{1, 1}, Classes: []string{"", "secondary"}}
	// Both ways two-way: arcs 0 (node 0 to 1), 1 (1 to 0), 2 (1 to 2), 3 (2 to 1).
	g := &Graph{Net: n, Fwd: CSR{First: []uint32{0, 1, 3, 4}, Edges: []uint32{1, 0, 0 << 1, 0, 0, 0<<1 | 1, 2, 0, 1 << 1, 1, 0, 1<<1 | 1}},
		WF: []uint32{1, 1}, WB: []uint32{1, 1}}
	g.indexEntries()
	if first := n.TurnAngle(0<<1, 1<<1); math.Abs(first-90) > 1 {
		t.Fatalf("first pieces turn %.1f degrees, want 90 (the drawing)", first)
	}
	if got := g.PerceivedTurnAngle(0<<1, 1<<1); math.Abs(got-45) > 3 {
		t.Errorf("perceived turn %.1f degrees, want about 45 to the left", got)
	}
}

package guidance_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/serving"
)

// TestRoundaboutExitsBruteForce checks every roundabout of the three
// extracts against a count made straight from the OSM ways: for each way
// into each ring and each way out of it, a leg entering, going round and
// leaving is narrated, and its exit number must be the count of the ways,
// passed in driving order after the entry, by which a car may leave the
// ring (the profile's own verdict on each way and direction), up to and
// including the one taken. A way out is one that, followed in the
// direction of travel, never comes back to the ring: entries (no way out
// for a car), stubs a car may not take and ways that touch the ring twice
// are not counted; nor, off a ring of roads, service roads, tracks and
// paths (driveways, which the signs before a roundabout do not show),
// though leaving by one is checked too. Pairs where the exit taken shares its ring node with
// another exit (whose order at the node a driver reads from the map, not
// from the ways) are left out and counted.
func TestRoundaboutExitsBruteForce(t *testing.T) {
	car, err := profile.Load(filepath.Join(compiletest.Root(), "profiles", "car.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []struct {
		pbf string
		rel func(testing.TB) *serving.Release
	}{
		{"andorra.osm.pbf", func(tb testing.TB) *serving.Release { return compiletest.OpenAndorra(tb) }},
		{"liechtenstein.osm.pbf", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "liechtenstein.osm.pbf") }},
		{"monaco.osm.pbf", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "monaco.osm.pbf") }},
	} {
		t.Run(ex.pbf, func(t *testing.T) {
			m := readOSM(t, compiletest.SharedData(t, ex.pbf), car)
			g := ex.rel(t).Routers["car"].Graph()
			c := checkRings(t, m, g)
			t.Logf("%d roundabouts, %d entry-exit pairs checked, %d left out (two exits at one node), %d without a graph path",
				c.rings, c.pairs, c.shared, c.unmapped)
			if c.rings == 0 || c.pairs == 0 {
				t.Fatalf("no roundabout checked")
			}
		})
	}
}

// osmWay is a way as the brute force reads it: nodes and what a car may do.
type osmWay struct {
	nodes             []int64
	ring              bool
	forward, backward bool
	driveway          bool // a service road, track or path: not an exit a driver counts off a ring of roads
}

type osmMap struct {
	ways  []osmWay
	coord map[int64][2]int32
}

func readOSM(t *testing.T, path string, car *profile.Profile) *osmMap {
	m := &osmMap{coord: map[int64][2]int32{}}
	err := osm.Scan(context.Background(), path, osm.Handlers{
		Node: func(n *osm.Node) error {
			m.coord[n.ID] = [2]int32{geo.Fixed(n.Lon), geo.Fixed(n.Lat)}
			return nil
		},
		Way: func(w *osm.Way) error {
			if w.Tags["highway"] == "" || len(w.NodeIDs) < 2 {
				return nil
			}
			pw := car.Way(w.Tags)
			if !pw.Forward && !pw.Backward {
				return nil
			}
			j := w.Tags["junction"]
			m.ways = append(m.ways, osmWay{nodes: w.NodeIDs, ring: j == "roundabout" || j == "circular", forward: pw.Forward, backward: pw.Backward,
				driveway: drivewayClass(w.Tags["highway"])})
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// drivewayClass is the brute force's own list of the ways that are not
// roads to a driver counting exits.
func drivewayClass(highway string) bool {
	switch highway {
	case "service", "track", "path", "footway", "cycleway", "bridleway", "steps", "pedestrian":
		return true
	}
	return false
}

type ringCounts struct{ rings, pairs, shared, unmapped int }

// checkRings finds the rings (ring ways joined by shared nodes, driven in
// one direction), their exits and entries, and checks every pair.
func checkRings(t *testing.T, m *osmMap, g *graph.Graph) ringCounts {
	next := map[int64]int64{}    // a ring node's successor in driving order
	through := map[int64][]int{} // node -> indexes of the non-ring ways through it
	drivewayRing := map[int64]bool{}
	for i, w := range m.ways {
		for k, id := range w.nodes {
			if !w.ring {
				through[id] = append(through[id], i)
				continue
			}
			drivewayRing[id] = w.driveway
			if w.forward && !w.backward && k+1 < len(w.nodes) {
				next[id] = w.nodes[k+1]
			}
			if w.backward && !w.forward && k > 0 {
				next[id] = w.nodes[k-1]
			}
		}
	}
	gnode := map[[2]int32]uint32{}
	for v := range uint32(g.Net.NumNodes()) {
		gnode[[2]int32{g.Net.NodeCoord[2*v], g.Net.NodeCoord[2*v+1]}] = v
	}
	var c ringCounts
	seen := map[int64]bool{}
	for start := range next {
		if seen[start] {
			continue
		}
		ring := walkRing(next, start)
		if ring == nil {
			continue // not a closed one-way ring
		}
		c.rings++
		inRing := map[int64]bool{}
		for _, id := range ring {
			seen[id], inRing[id] = true, true
		}
		exits := make([][]exitWay, len(ring))
		for k, id := range ring {
			exits[k] = exitsFrom(m, through, id, inRing, drivewayRing[ring[0]])
		}
		for k, a := range ring {
			va, ok := gnode[m.coord[a]]
			if !ok {
				continue
			}
			for _, in := range entryArcs(g, va) {
				checkFrom(t, m, g, gnode, ring, exits, k, in, &c)
			}
		}
	}
	return c
}

// walkRing lists a ring's nodes in driving order from start, nil unless
// the successors lead back to start.
func walkRing(next map[int64]int64, start int64) []int64 {
	ring := []int64{start}
	for v := next[start]; v != start; v = next[v] {
		if _, ok := next[v]; !ok || len(ring) > 1000 {
			return nil
		}
		ring = append(ring, v)
	}
	return ring
}

// exitWay is a way out of the ring: the next node along it, and whether a
// driver counts it.
type exitWay struct {
	next   int64
	counts bool
}

// exitsFrom lists the ways out of ring node id: each non-ring way through
// it, in each direction a car may drive away from it, unless that
// direction leads back to the ring with no other road (a way a car may
// drive away on) off it before. Driveways count only off a ring that is
// itself one.
func exitsFrom(m *osmMap, through map[int64][]int, id int64, inRing map[int64]bool, drivewayRing bool) []exitWay {
	ways := through[id]
	roadOff := func(node int64, self int) bool {
		for _, oi := range through[node] {
			o := m.ways[oi]
			if oi == self || o.driveway && !drivewayRing {
				continue
			}
			for k, n := range o.nodes {
				if n == node && (o.forward && k+1 < len(o.nodes) || o.backward && k > 0) {
					return true
				}
			}
		}
		return false
	}
	var out []exitWay
	for _, wi := range ways {
		w := m.ways[wi]
		for k, n := range w.nodes {
			if n != id {
				continue
			}
			for _, dir := range []int{1, -1} {
				if dir == 1 && !w.forward || dir == -1 && !w.backward || k+dir < 0 || k+dir >= len(w.nodes) {
					continue
				}
				back := false
				for j := k + dir; j >= 0 && j < len(w.nodes); j += dir {
					if inRing[w.nodes[j]] {
						back = true
						break
					}
					if roadOff(w.nodes[j], wi) {
						break
					}
				}
				if !back {
					out = append(out, exitWay{w.nodes[k+dir], drivewayRing || !w.driveway})
				}
			}
		}
	}
	return out
}

// entryArcs lists the graph's non-ring arcs into node v.
func entryArcs(g *graph.Graph, v uint32) []uint32 {
	var out []uint32
	for u := range uint32(g.Net.NumNodes()) {
		begin, end := g.Fwd.Out(u)
		for a := begin; a < end; a++ {
			s, _ := g.ArcSegment(a)
			if g.ArcHead(a) == v && g.Net.SegFlags[s]&graph.FlagRoundabout == 0 {
				out = append(out, a)
			}
		}
	}
	return out
}

// checkFrom narrates, for an entry arc in at ring[k], a leg leaving by
// each exit of one lap, and compares the exit numbers with the count.
func checkFrom(t *testing.T, m *osmMap, g *graph.Graph, gnode map[[2]int32]uint32, ring []int64, exits [][]exitWay, k int, in uint32, c *ringCounts) {
	pieces := []guidance.Piece{{Arc: in, DistanceM: 50, DurationS: 5}}
	at := g.ArcHead(in)
	passed := 0
	for step := 1; step < len(ring); step++ {
		id := ring[(k+step)%len(ring)]
		v, isNode := gnode[m.coord[id]]
		if isNode {
			arc := ringArc(g, at, v)
			if arc == graph.NoArc {
				c.unmapped++
				return
			}
			pieces = append(pieces, guidance.Piece{Arc: arc, DistanceM: 10, DurationS: 1})
			at = v
		}
		here := exits[(k+step)%len(ring)]
		for _, e := range here {
			if len(here) > 1 {
				c.shared++
				continue
			}
			out := exitArc(g, v, m.coord[e.next])
			if !isNode || out == graph.NoArc {
				c.unmapped++
				continue
			}
			c.pairs++
			leg := append(pieces[:len(pieces):len(pieces)], guidance.Piece{Arc: out, DistanceM: 50, DurationS: 5})
			got := roundaboutExit(guidance.Steps(g, guidance.Leg{Pieces: leg}))
			if want := passed + 1; got != want {
				lon, lat := g.Net.Node(v)
				t.Errorf("ring through OSM node %d: entering at node %d, leaving at node %d (%.7f,%.7f) towards node %d: exit %d, the ways say %d",
					ring[0], ring[k], id, lon, lat, e.next, got, want)
			}
		}
		for _, e := range here {
			if e.counts {
				passed++
			}
		}
	}
}

// ringArc is the ring arc from u to v.
func ringArc(g *graph.Graph, u, v uint32) uint32 {
	begin, end := g.Fwd.Out(u)
	for a := begin; a < end; a++ {
		s, _ := g.ArcSegment(a)
		if g.ArcHead(a) == v && g.Net.SegFlags[s]&graph.FlagRoundabout != 0 {
			return a
		}
	}
	return graph.NoArc
}

// exitArc is the non-ring arc leaving v whose shape goes first to point p.
func exitArc(g *graph.Graph, v uint32, p [2]int32) uint32 {
	begin, end := g.Fwd.Out(v)
	for a := begin; a < end; a++ {
		s, rev := g.ArcSegment(a)
		if g.Net.SegFlags[s]&graph.FlagRoundabout != 0 {
			continue
		}
		first, last := g.Net.Points(s)
		i := first + 1
		if rev {
			i = last - 2
		}
		if g.Net.GeomCoord[2*i] == p[0] && g.Net.GeomCoord[2*i+1] == p[1] {
			return a
		}
	}
	return graph.NoArc
}

func roundaboutExit(steps []guidance.Step) int {
	for _, s := range steps {
		if s.Maneuver == guidance.Roundabout {
			return s.Exit
		}
	}
	return -1
}

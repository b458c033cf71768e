package graph

// topology is what Build knows about the extract beyond the arrays it
// writes: OSM ids of nodes and segments' ways, and which segments touch each
// node. It lives only while building.
type topology struct {
	index    map[int64]uint32   // OSM node id → node
	segWay   []uint32           // segment → index into Input.Ways
	wayID    []int64            // index into Input.Ways → OSM way id
	incident CSR                // node → segments touching it (Edges holds one id per entry, stride 1)
	waySegs  map[int64][]uint32 // OSM way id → its segments, for the via ways of restrictions only
	segLim   map[uint32]Limits  // segment → the limits of the barriers inside it, for the few that have any
}

func newTopology(in Input, net *Network, index map[int64]uint32, segWay []uint32) *topology {
	t := &topology{index: index, segWay: segWay, wayID: make([]int64, len(in.Ways)), waySegs: viaWaySegments(in, segWay)}
	for i, w := range in.Ways {
		t.wayID[i] = w.ID
	}
	n := net.NumNodes()
	first := make([]uint32, n+1)
	for s := range net.SegFrom {
		first[net.SegFrom[s]+1]++
		if net.SegTo[s] != net.SegFrom[s] {
			first[net.SegTo[s]+1]++
		}
	}
	for v := range n {
		first[v+1] += first[v]
	}
	next := append([]uint32(nil), first[:n]...)
	segs := make([]uint32, first[n])
	for s := range net.SegFrom {
		for _, v := range [2]uint32{net.SegFrom[s], net.SegTo[s]} {
			if v == net.SegTo[s] && v == net.SegFrom[s] && next[v] > first[v] && segs[next[v]-1] == uint32(s) {
				continue // a loop touches its node once
			}
			segs[next[v]] = uint32(s)
			next[v]++
		}
	}
	t.incident = CSR{First: first, Edges: segs}
	return t
}

// arcsAt returns g's arcs of the given OSM ways that arrive at node v
// (arriving=true) or leave it.
func (t *topology) arcsAt(g *Graph, v uint32, ways []int64, arriving bool) []uint32 {
	var out []uint32
	for i := t.incident.First[v]; i < t.incident.First[v+1]; i++ {
		s := t.incident.Edges[i]
		if !containsID(ways, t.wayID[t.segWay[s]]) {
			continue
		}
		for _, rev := range [2]bool{false, true} {
			a := g.ArcOf[SegRef(s, rev)]
			if a == NoArc {
				continue
			}
			from, to := g.Net.SegFrom[s], g.Net.SegTo[s]
			if rev {
				from, to = to, from
			}
			if (arriving && to == v) || (!arriving && from == v) {
				out = append(out, a)
			}
		}
	}
	return out
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

package ch

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// A hierarchy built around a core (Input.Core: the arcs whose weights
// depend on the time of day) keeps the core uncontracted on top, with every
// edge among its nodes. An upward search that reaches the core explores it
// whole: on the 3M synthetic country's car hierarchy the 312 core nodes
// hold about 23,000 edges, and each bucket search of a table spent nearly
// all its time relaxing them (393 nodes settled, 23,587 edges relaxed, of
// which all but a few hundred inside the core).
//
// Tables therefore stop their upward searches at the core and cross it
// with a distance table: the cost and distance between every two core
// nodes under a state, computed once per distinct state (conditions change
// at schedule boundaries, not per request) and shared by every table. A
// path that enters the core goes up to a core node a, across the core to
// a core node b, and up from the target's side to b, because no upward
// edge leaves the core; so a cell is the best of its buckets (paths below
// the core) and of f(a) + D(a, b) + g(b) over the core nodes a and b its
// two searches reach. Point-to-point queries do the same (Query.meet), and
// unpack the path across the core from the table's via entries.

// maxCoreNodes bounds the cores searches cross by a distance table: its
// memory is 16 bytes per pair (18 MiB for the 3M country's 1,080 car core
// nodes, 64 MiB at this bound; a hierarchy keeps up to keptTables, only
// its last past keptBytes) and its computation one search of the core per
// node. A larger core is explored by each search as before, at many times
// the cost: the 3M country's car core was 312 nodes until destination-only
// roads joined the conditions (issue 36), and at 1,080 over the old bound
// of 1,024 a 20×20 table took 110 ms instead of 4.5.
const maxCoreNodes = 2048

// A coreTable's via entry packs the core index of a path's last core node
// before its end (11 bits: maxCoreNodes) with the offset, in that node's Up
// list, of the edge from it (21 bits); noVia where there is none.
const (
	viaShift = 21
	viaMask  = 1<<viaShift - 1
	noVia    = ^uint32(0)
)

// core is a hierarchy's set of core nodes, with a rank index (the core
// nodes before each 64-node word) numbering them 0 to len(nodes)−1.
type core struct {
	bits  []uint64
	rank  []uint32
	nodes []uint32                  // ascending
	wide  bool                      // a node's Up list is too long for a via entry
	last  atomic.Pointer[coreTable] // the table of the last state asked for
	mu    sync.Mutex
	kept  []*coreTable // the last keptTables computed, oldest first
	// up and dn are the fringes of the core (fringe.go), made with the
	// first table under mu.
	up, dn *fringe
}

// keptTables is how many core tables (of distinct states) a hierarchy
// keeps, within keptBytes: requests at a few departure times (now, a
// commute) alternate without recomputing one each time (19 ms for the 3M
// country's car core), and a large core keeps only its last.
const (
	keptTables = 4
	keptBytes  = 16 << 20
)

// coreTable is the cost and distance across the core between every two of
// its nodes under one state, stored by destination: cost[b*k+a] is from a
// to b, so that a target's column is one pass over contiguous rows.
type coreTable struct {
	st   *graph.State
	k    int
	cost []uint32
	dist []int64
	// via is by source: via[a*k+b] is the last edge of the path from a to b
	// whose cost is cost[b*k+a] (see viaShift), so that a point-to-point
	// query unpacks the very path it found, one edge per step, from b back
	// to a along one row.
	via []uint32
	// extra is per core node what the state adds to the weight of an edge
	// into it from below the core (graph.State.Edge), NoWay if it is
	// closed; 0 without a state.
	extra []uint32
	// up and dn are the core's fringes, the same in every table, and
	// upArcs and dnArcs their edges into the core under st.
	up, dn         *fringe
	upArcs, dnArcs coreArcs
}

// SetCore names h's core: the nodes whose bit is set in set (bit v%64 of
// word v/64, as graph.Graph.MarkedSet), which must be the core h was
// contracted around (Input.Core). Load sets it; a nil or empty set means
// none. It costs a pass over the set, 4 bytes per 64 nodes.
func (h *Hierarchy) SetCore(set []uint64) {
	h.core = nil
	c := &core{bits: set, rank: make([]uint32, len(set))}
	for w, b := range set {
		c.rank[w] = uint32(len(c.nodes))
		for ; b != 0; b &= b - 1 {
			c.nodes = append(c.nodes, uint32(w)<<6|uint32(bits.TrailingZeros64(b)))
		}
	}
	for _, u := range c.nodes {
		c.wide = c.wide || h.UpFirst[u+1]-h.UpFirst[u] > viaMask
	}
	if len(c.nodes) > 0 {
		h.core = c
	}
}

// in reports whether v is a core node.
func (c *core) in(v uint32) bool {
	w := v >> 6
	return int(w) < len(c.bits) && c.bits[w]>>(v&63)&1 != 0
}

// index numbers core node v among the core's nodes.
func (c *core) index(v uint32) uint32 {
	w := v >> 6
	return c.rank[w] + uint32(bits.OnesCount64(c.bits[w]&(1<<(v&63)-1)))
}

// coreTable returns the table of h's core under st, computing it unless
// one of the tables kept is for the same state (graph.State.Same); nil when
// h has no core, one too large for a table, or st is of another graph.
func (h *Hierarchy) coreTable(st *graph.State) *coreTable {
	c := h.core
	if c == nil || len(c.nodes) > maxCoreNodes || c.wide || !st.Marks(c.bits) {
		return nil
	}
	if t := c.last.Load(); t != nil && t.st.Same(st) {
		return t
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.kept {
		if t.st.Same(st) {
			c.last.Store(t)
			return t
		}
	}
	t := h.crossCore(st)
	if c.up == nil {
		c.up, c.dn = newFringe(h.UpFirst, h.Up, c), newFringe(h.DnFirst, h.Dn, c)
	}
	t.up, t.dn = c.up, c.dn
	t.upArcs, t.dnArcs = t.arcsOf(c.up, true), t.arcsOf(c.dn, false)
	keep := min(keptTables, max(1, keptBytes/(16*t.k*t.k)))
	for len(c.kept) >= keep {
		c.kept = append(c.kept[:0], c.kept[1:]...)
	}
	c.kept = append(c.kept, t)
	c.last.Store(t)
	return t
}

// coreEdge is an edge between core nodes, by their indexes, weighed under
// a state.
type coreEdge struct {
	to, weight uint32
	via        uint32 // its tail and offset in the tail's Up list (see viaShift)
	dist       int64
}

// crossCore computes the core's table under st by a Dijkstra from each core
// node over the core's edges (all of them are in its nodes' Up lists).
func (h *Hierarchy) crossCore(st *graph.State) *coreTable {
	c := h.core
	k := len(c.nodes)
	first := make([]uint32, k+1)
	var edges []coreEdge
	for a, u := range c.nodes {
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			e := at(h.Up, i)
			w := e.weight
			if st != nil {
				w = st.Edge(u, e.other, e.weight, e.middle == NoMiddle)
			}
			if w != graph.NoWay && c.in(e.other) {
				via := uint32(a)<<viaShift | (i - h.UpFirst[u])
				edges = append(edges, coreEdge{to: c.index(e.other), weight: w, via: via, dist: int64(e.dist)})
			}
		}
		first[a+1] = uint32(len(edges))
	}
	t := &coreTable{st: st, k: k, cost: make([]uint32, k*k), dist: make([]int64, k*k), via: make([]uint32, k*k), extra: make([]uint32, k)}
	for a, u := range c.nodes {
		if st != nil {
			t.extra[a] = st.Edge(graph.NoArc, u, 0, false) // no tail below the core is marked
		}
	}
	cost, dist := make([]uint32, k), make([]int64, k)
	var heap search.Heap
	for a := range uint32(k) {
		for i := range cost {
			cost[i] = search.Unreached
		}
		via := t.via[int(a)*k : int(a+1)*k]
		for i := range via {
			via[i] = noVia
		}
		cost[a], dist[a] = 0, 0
		heap.Push(0, a)
		for heap.Len() > 0 {
			cu, u := heap.Pop()
			if cu != cost[u] {
				continue
			}
			for _, e := range edges[first[u]:first[u+1]] {
				if cv := search.Add(cu, e.weight); cv < cost[e.to] {
					cost[e.to], dist[e.to], via[e.to] = cv, dist[u]+e.dist, e.via
					heap.Push(cv, e.to)
				}
			}
		}
		for b := range k {
			t.cost[b*k+int(a)], t.dist[b*k+int(a)] = cost[b], dist[b]
		}
	}
	return t
}

// path appends to chain the hierarchy edges of the path across the core
// from core node a to core node b whose cost the table holds, last first
// (as appendIn takes them), and returns it.
func (t *coreTable) path(h *Hierarchy, a, b uint32, chain []hop) []hop {
	c := h.core
	ia, v := c.index(a), c.index(b)
	row := t.via[int(ia)*t.k : int(ia+1)*t.k]
	for v != ia {
		p := row[v]
		tail := c.nodes[p>>viaShift]
		e := at(h.Up, h.UpFirst[tail]+p&viaMask)
		chain = append(chain, hop{from: tail, to: c.nodes[v], middle: e.middle, weight: e.weight})
		v = p >> viaShift
	}
	return chain
}

// column fills col with the cost (and dist with the distance) from every
// core node to the target whose backward search reached the core at hits,
// by ascending cost: col[a] = min over hits b of D(a, b) + the hit's cost.
// It returns the least of col, which bounds what the column adds to any
// path.
//
// It prunes the hits as it goes, as prune would: a hit b is skipped when
// col[b], from the hits before it, is already at most its cost (then
// D(a, b) + g(b) ≥ D(a, b) + col[b] ≥ col[a] for every a). That reads one
// entry a hit, where prune read for each hit one entry of every kept hit's
// row, a cache line each. The pass over a hit's row reads costs only, and dist
// holds the index of the hit that gives col[a] until a last pass turns it
// into the distance: reading the 8-byte distances alongside the costs
// made the passes three times the memory.
func (t *coreTable) column(hits []coreHit, col []uint32, dist []int64) (least uint32) {
	for a := range col {
		col[a] = search.Unreached
	}
	held := -1 // a hit kept whose row waits to be passed with the next's
	for i, h := range hits {
		if col[h.index] <= h.cost {
			continue
		}
		if held < 0 {
			held = i
			continue
		}
		p := hits[held]
		if search.Add(p.cost, t.cost[int(p.index)*t.k+int(h.index)]) <= h.cost {
			continue // covered by the hit held, as it would be by its row
		}
		t.pass2(hits, held, i, col, dist)
		held = -1
	}
	if held >= 0 {
		t.pass2(hits, held, held, col, dist)
	}
	least = search.Unreached
	for a, c := range col {
		if c != search.Unreached {
			h := hits[dist[a]]
			dist[a] = h.dist + t.dist[int(h.index)*t.k+a]
			least = min(least, c)
		}
	}
	return least
}

// pass2 lowers col with the rows of hits i and j (i < j, or the same), in
// one pass: col[a] takes the cheaper of the two, i's on a tie, when it is
// below col[a], and dist[a] the index of that hit, as two passes in order
// would set them. Two rows a pass halve the passes over col and dist.
func (t *coreTable) pass2(hits []coreHit, i, j int, col []uint32, dist []int64) {
	hi, hj := hits[i], hits[j]
	ri := t.cost[int(hi.index)*t.k : int(hi.index+1)*t.k]
	rj := t.cost[int(hj.index)*t.k : int(hj.index+1)*t.k]
	ri, rj, dist = ri[:len(col)], rj[:len(col)], dist[:len(col)]
	for a := range col {
		// Sums of Unreached are never below col[a], so they need no saturation.
		c, at := uint64(hi.cost)+uint64(ri[a]), i
		if cj := uint64(hj.cost) + uint64(rj[a]); cj < c {
			c, at = cj, j
		}
		if c < uint64(col[a]) {
			col[a], dist[a] = uint32(c), int64(at)
		}
	}
}

// prune drops from hits, in ascending cost as an upward search lists them,
// those another hit reaches as cheaply through the core: a forward hit a
// when some kept hit a' has f(a') + D(a', a) ≤ f(a), a backward one b when
// some kept b' has D(b, b') + g(b') ≤ g(b). Every path through a dropped
// hit costs at least as much through the one that covers it, so cells keep
// their costs; of the 136 core nodes a search of the 3M country's car table
// reaches, few remain, and columns and cells read only those.
func (t *coreTable) prune(hits []coreHit, forward bool) []coreHit {
	kept := hits[:0]
	for _, h := range hits {
		covered := false
		for _, o := range kept {
			d := t.cost[int(h.index)*t.k+int(o.index)] // o to h
			if !forward {
				d = t.cost[int(o.index)*t.k+int(h.index)] // h to o
			}
			if search.Add(o.cost, d) <= h.cost {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, h)
		}
	}
	return kept
}

// coreHit is a core node an upward search of a table reached (and did not
// explore from): its index in the core, cost and distance.
type coreHit struct {
	index, cost uint32
	dist        int64
}

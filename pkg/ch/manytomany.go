package ch

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// Cell is one entry of a many-to-many table.
type Cell struct {
	Cost   uint32 // milliseconds; search.Unreached when no path exists
	DistCM int64  // centimetres along the fastest path
}

// Endpoint is one source or target of a table: its seeds, and for each seed
// the distance that goes with its cost (centimetres from the point to the
// seed arc's end).
type Endpoint struct {
	Seeds []search.Seed
	Dists []int64
}

// label left by a backward search at a node it settled, for the forward
// searches to find: target reaches the node's end at cost (biased by the
// target's bias) and distance.
type bucket struct {
	node   uint32
	target uint32
	cost   uint32
	dist   int64
}

// entry is a bucket once grouped by node (the node is implied by where it
// sits), without its distance (bucketIndex.dists): 8 bytes, so that a
// node's entries share a cache line or two. A 100×100 table's forward
// searches on the 3M synthetic country read 550,000 of them, and improve
// a cell with few.
type entry struct {
	target uint32
	cost   uint32
}

// Table fills out[i*len(targets)+j] with the fastest path from sources[i]
// to targets[j], by the bucket algorithm of Knopp, Sanders, Schultes,
// Schulz and Wagner (2007): one backward upward search per target leaves
// its labels in buckets at the nodes it settles, then one forward upward
// search per source scans the buckets of the nodes it settles. That is
// len(sources)+len(targets) small searches instead of their product.
//
// Pairs whose source and target share an arc are not answered correctly by
// buckets (see route.MakeEnds); the caller answers those point to point.
func (q *Query) Table(sources, targets []Endpoint, out []Cell) {
	ParallelTable([]*Query{q}, sources, targets, out)
}

// ParallelTable is Table with the searches shared among len(qs) goroutines,
// one query each. The queries must be on the same hierarchy and have the
// same state (see SetState). The answer does not depend on len(qs) or on
// how the searches were shared: a cell is the minimum over the nodes its
// source's forward search settles, in that search's order, and one target
// leaves at most one bucket at a node. qs[0] also holds the buckets' index.
func ParallelTable(qs []*Query, sources, targets []Endpoint, out []Cell) {
	for i := range out {
		out[i] = Cell{Cost: search.Unreached}
	}
	qs[0].tableTaint()
	for _, q := range qs[1:] {
		if q.taint == nil {
			q.taint = qs[0].taint // the same state (above): made once
		}
	}
	ct := qs[0].h.coreTable(qs[0].st)
	if qs[0].taint != nil {
		// Under road operations the searches count tainted edges in their
		// distances (Taint), which the core table's precomputed paths
		// cannot: they cross the core edge by edge instead.
		ct = nil
	}
	cols := qs[0].columns(ct, len(targets))
	lists := make([][]bucket, len(qs))
	var next atomic.Int64
	each(qs, func(w int, q *Query) {
		q.filled = q.fillBuckets(targets, ct, cols, &next, q.filled[:0])
		lists[w] = q.filled
	})
	ix := &qs[0].buckets
	ix.build(lists)
	biases := make([]uint32, len(targets))
	for j, t := range targets {
		biases[j] = bias(t.Seeds)
	}
	next.Store(0)
	each(qs, func(_ int, q *Query) {
		for i := int(next.Add(1) - 1); i < len(sources); i = int(next.Add(1) - 1) {
			row := out[i*len(targets) : (i+1)*len(targets)]
			q.scanBuckets(sources[i], ix, ct, biases, row)
			if ct != nil {
				cols.cross(ct.prune(q.hits, true), biases, row)
			}
		}
	})
}

// coreColumns are, for each target of a table, the cost and distance from
// every core node to it (coreTable.column), held by the table's first
// query and reused; least[j] is the least of column j.
type coreColumns struct {
	k     int
	cost  []uint32
	dist  []int64
	least []uint32
}

// columns readies q's columns for n targets across ct's core.
func (q *Query) columns(ct *coreTable, n int) *coreColumns {
	c := &q.cols
	if ct == nil {
		return c
	}
	c.k = ct.k
	if cap(c.cost) < n*ct.k {
		c.cost, c.dist = make([]uint32, n*ct.k), make([]int64, n*ct.k)
	}
	if cap(c.least) < n {
		c.least = make([]uint32, n)
	}
	c.cost, c.dist, c.least = c.cost[:n*ct.k], c.dist[:n*ct.k], c.least[:n]
	return c
}

// cross improves a source's row with the paths across the core: the
// source's search reached the core at hits, by ascending cost, target j
// reaches core node a at column j's cost. A cell keeps a bucket's answer on
// a tie. A target's hits stop at the first whose cost plus the least of
// the column cannot beat the cell.
func (c *coreColumns) cross(hits []coreHit, biases []uint32, row []Cell) {
	for j := range row {
		col := c.cost[j*c.k : (j+1)*c.k]
		bias, cell := uint64(biases[j]), &row[j]
		least := uint64(c.least[j])
		for _, h := range hits {
			if uint64(h.cost)+least >= bias+uint64(cell.Cost) {
				break
			}
			cj := col[h.index]
			if cj == search.Unreached {
				continue
			}
			total := uint64(h.cost) + uint64(cj)
			if total >= bias && total-bias < uint64(cell.Cost) {
				cell.Cost, cell.DistCM = uint32(total-bias), h.dist+c.dist[j*c.k+int(h.index)]
			}
		}
	}
}

// each runs fn once per query, on its own goroutine but for the first,
// which runs on the caller's.
func each(qs []*Query, fn func(w int, q *Query)) {
	var wg sync.WaitGroup
	for w := 1; w < len(qs); w++ {
		wg.Go(func() { fn(w, qs[w]) })
	}
	fn(0, qs[0])
	wg.Wait()
}

func bias(seeds []search.Seed) uint32 {
	var b uint32
	for _, s := range seeds {
		b = max(b, s.Cost)
	}
	return b
}

// fillBuckets runs the backward searches of the targets it takes from next
// and appends their labels to buf. With a core table ct, the searches stop
// at the core and fill the targets' columns of cols instead.
func (q *Query) fillBuckets(targets []Endpoint, ct *coreTable, cols *coreColumns, next *atomic.Int64, buf []bucket) []bucket {
	for j := int(next.Add(1) - 1); j < len(targets); j = int(next.Add(1) - 1) {
		t, start := targets[j], len(buf)
		q.upward(&q.bwd, t, bias(t.Seeds), ct, func(u, cost uint32, dist int64) {
			buf = append(buf, bucket{node: u, target: uint32(j), cost: cost, dist: dist})
		})
		if ct != nil {
			col := cols.cost[j*ct.k : (j+1)*ct.k]
			cols.least[j] = ct.column(q.hits, col, cols.dist[j*ct.k:(j+1)*ct.k])
			buf = append(buf[:start], ct.uncrossed(buf[start:], col)...)
		}
	}
	return buf
}

// scanBuckets runs the forward search of one source and improves its row
// of the table with the buckets of every node it settles (below the core
// when there is a core table).
func (q *Query) scanBuckets(s Endpoint, ix *bucketIndex, ct *coreTable, biases []uint32, row []Cell) {
	q.upward(&q.fwd, s, 0, ct, func(u, cost uint32, dist int64) {
		span := ix.spans.Get(u)
		if span == nil {
			return
		}
		for k, b := range ix.entries[span.begin:span.end] {
			total, bias := uint64(cost)+uint64(b.cost), uint64(biases[b.target])
			if total < bias {
				continue
			}
			if c := &row[b.target]; total-bias < uint64(c.Cost) {
				c.Cost, c.DistCM = uint32(total-bias), dist+ix.dists[int(span.begin)+k]
			}
		}
	})
}

// upward exhausts one direction's upward search from an endpoint and calls
// visit for every node it settles. Target seeds enter at bias − cost (see
// Shortest) and with negated distances.
//
// With a core table ct, the search stops at the core: a core node it
// reaches is neither queued, visited nor explored, and q.hits lists them
// by ascending cost once it is done (see coretable.go). Three quarters of
// the edges such a search relaxes on the 3M synthetic country lead into
// the core (2,773 of 3,672, into 136 core nodes), so their labels are kept
// apart, in an array by core index (coreReach), not in the hash table, and
// the nodes that have them have their edges split in two in advance
// (fringe.go): the search asks nothing of any edge. Below the core no arc
// is marked, so the state changes no edge there but those into the core,
// which ct holds weighed under it (coreArcs; the core is the marked arcs,
// and a turn a state forbids joins two of them).
//
// Like Shortest it does not stall on demand: without it, 100×100 tables
// took three quarters of the time on the 3M synthetic country and the same
// on Andorra (docs/benchmarks-history.md, "Stall-on-demand"); the via-node
// candidates of alternatives want every node the search reaches anyway.
// Stalling only below the core, once tables stopped there, cost a tenth
// more CPU too (docs/benchmarks-history.md, 2026-11-25 "Tables across the
// core").
func (q *Query) upward(s *side, e Endpoint, bias uint32, ct *coreTable, visit func(u, cost uint32, dist int64)) {
	s.reset()
	core := q.h.core
	var f *fringe
	var arcs *coreArcs
	if ct != nil {
		q.reach.reset(ct.k)
		f, arcs = ct.dn, &ct.dnArcs
		if s.up {
			f, arcs = ct.up, &ct.upArcs
		}
	}
	backward := s == &q.bwd
	for i, sd := range e.Seeds {
		c, d := sd.Cost, e.Dists[i]
		if backward {
			c, d = bias-sd.Cost, -d
		}
		if ct != nil && core.in(sd.Node) {
			q.reach.lower(core.index(sd.Node), c, d)
		} else if l := q.improve(s, sd.Node, c, uint32(i), seedMark, 0); l != nil {
			l.dist = d
		}
	}
	for s.heap.Len() > 0 {
		c, u := s.heap.Pop()
		lu := s.labels.Get(u)
		if c != lu.cost {
			continue
		}
		du := lu.dist // lu moves when a label is added
		visit(u, c, du)
		if ct == nil {
			q.relaxWithDist(s, u, c, du)
			continue
		}
		list, lo, hi := s.list, s.first[u], s.first[u+1]
		if i, below, blo, bhi, ok := f.edges(u); ok {
			q.enterCore(arcs.of(i), c, du)
			list, lo, hi = below, blo, bhi
		}
		for i := lo; i < hi; i++ {
			e := at(list, i)
			q.improveDist(s, e.other, search.Add(c, e.weight), du+int64(e.dist))
		}
	}
	if ct != nil {
		q.hits = q.reach.sorted(q.hits[:0])
	}
}

// improveDist is improve for a table's search, which unpacks no path: it
// sets a label's cost and distance only.
func (q *Query) improveDist(s *side, v, c uint32, d int64) {
	l := s.labels.Get(v)
	if l == nil {
		l, _ = s.labels.Add(v)
	} else if l.cost <= c {
		return
	}
	l.cost, l.dist = c, d
	s.heap.Push(c, v)
}

// relaxWithDist is relax for a table's search, whose labels carry the
// distance.
func (q *Query) relaxWithDist(s *side, u, c uint32, du int64) {
	for i := s.first[u]; i < s.first[u+1]; i++ {
		e := at(s.list, i)
		w := q.now(u, e, s.up)
		if w == graph.NoWay {
			continue
		}
		if l := q.improve(s, e.other, search.Add(c, w), u, e.middle, e.weight); l != nil {
			l.dist = du + int64(e.dist)
			if q.taint != nil && q.taint.at(s.up, i) {
				l.dist += TaintMark
			}
		}
	}
}

// enterCore offers q.reach a fringe node's edges into the core under the
// table's state (coreArcs), the node settled at cost c and distance du.
func (q *Query) enterCore(into []coreArc, c uint32, du int64) {
	for _, a := range into {
		q.reach.lower(a.index, search.Add(c, a.weight), du+int64(a.dist))
	}
}

// coreReach is the cost and distance at which a table's search reaches
// each core node, by core index, valid where its stamp is the current
// generation (one 16-byte entry a node: one cache line a relaxation);
// touched lists those reached.
type coreReach struct {
	gen     uint32
	at      []reached
	touched []uint32
	keys    []uint64 // sorted's
}

type reached struct {
	stamp, cost uint32
	dist        int64
}

// reset forgets every core node reached, for a core of k nodes.
func (r *coreReach) reset(k int) {
	if len(r.at) < k {
		*r = coreReach{at: make([]reached, k), touched: r.touched, keys: r.keys}
	}
	r.touched = r.touched[:0]
	if r.gen++; r.gen == 0 {
		clear(r.at)
		r.gen = 1
	}
}

// lower records that the search reaches core node a at cost c and
// distance d, if that is the first or a cheaper way.
func (r *coreReach) lower(a, c uint32, d int64) {
	x := &r.at[a]
	switch {
	case x.stamp != r.gen:
		r.touched = append(r.touched, a)
	case c >= x.cost:
		return
	}
	*x = reached{stamp: r.gen, cost: c, dist: d}
}

// sorted appends to hits the core nodes reached, by ascending cost (then
// index, so that the order is the same whatever order they were reached
// in), and returns it. It sorts cost<<32 | index keys, which the sort
// compares without calling back (a sort by comparison function was a tenth
// of the table's CPU), by sortNearly.
func (r *coreReach) sorted(hits []coreHit) []coreHit {
	keys := r.keys[:0]
	for _, a := range r.touched {
		keys = append(keys, uint64(r.at[a].cost)<<32|uint64(a))
	}
	sortNearly(keys)
	for _, k := range keys {
		a := uint32(k)
		hits = append(hits, coreHit{index: a, cost: r.at[a].cost, dist: r.at[a].dist})
	}
	r.keys = keys
	return hits
}

// sortNearly sorts keys, which a search lists nearly in order: it reaches
// the core nodes roughly by ascending cost, in the order touched keeps. An
// insertion sort then moves few keys, and took 4 to 8 % off a 3M 100×100
// table's CPU against slices.Sort; one that has moved more than 8 a key
// hands over to slices.Sort, so that no order costs it n².
func sortNearly(keys []uint64) {
	budget := 8 * len(keys)
	for i := 1; i < len(keys); i++ {
		k, j := keys[i], i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
		if budget -= i - j; budget < 0 {
			slices.Sort(keys)
			return
		}
	}
}

package ch

import (
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
	// A short-lived overlay's taint (see SetState) is made here, once per
	// table, and shared by its queries: they have the same state.
	qs[0].tableTaint()
	for _, q := range qs[1:] {
		if q.taint == nil {
			q.taint = qs[0].taint
		}
	}
	lists := make([][]bucket, len(qs))
	var next atomic.Int64
	each(qs, func(w int, q *Query) {
		q.filled = q.fillBuckets(targets, &next, q.filled[:0])
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
			q.scanBuckets(sources[i], ix, biases, out[i*len(targets):(i+1)*len(targets)])
		}
	})
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
// and appends their labels to buf.
func (q *Query) fillBuckets(targets []Endpoint, next *atomic.Int64, buf []bucket) []bucket {
	for j := int(next.Add(1) - 1); j < len(targets); j = int(next.Add(1) - 1) {
		t := targets[j]
		q.upward(&q.bwd, t, bias(t.Seeds), func(u, cost uint32, dist int64) {
			buf = append(buf, bucket{node: u, target: uint32(j), cost: cost, dist: dist})
		})
	}
	return buf
}

// scanBuckets runs the forward search of one source and improves its row
// of the table with the buckets of every node it settles.
func (q *Query) scanBuckets(s Endpoint, ix *bucketIndex, biases []uint32, row []Cell) {
	q.upward(&q.fwd, s, 0, func(u, cost uint32, dist int64) {
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
// Like Shortest it does not stall on demand: without it, 100×100 tables
// took three quarters of the time on the 3M synthetic country and the same
// on Andorra (docs/benchmarks-history.md, "Stall-on-demand"); the via-node
// candidates of alternatives want every node the search reaches anyway.
func (q *Query) upward(s *side, e Endpoint, bias uint32, visit func(u, cost uint32, dist int64)) {
	s.reset()
	backward := s == &q.bwd
	for i, sd := range e.Seeds {
		c, d := sd.Cost, e.Dists[i]
		if backward {
			c, d = bias-sd.Cost, -d
		}
		if l := q.improve(s, sd.Node, c, uint32(i), seedMark, 0); l != nil {
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
		q.relaxWithDist(s, u, c, du)
	}
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
			l.dist = du + int64(q.distOf(e))
			if q.taint != nil && q.taint.at(s.up, i) {
				l.dist += TaintMark
			}
		}
	}
}

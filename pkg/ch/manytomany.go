package ch

import (
	"slices"

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

// bucket is a backward search's label left at a node for the forward
// searches to find: target j reaches node's end at cost (biased by the
// target's bias) and distance.
type bucket struct {
	node   uint32
	target uint32
	cost   uint32
	dist   int64
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
	for i := range out {
		out[i] = Cell{Cost: search.Unreached}
	}
	buckets := q.fillBuckets(targets)
	biases := make([]uint32, len(targets))
	for j, t := range targets {
		biases[j] = bias(t.Seeds)
	}
	for i, s := range sources {
		q.upward(&q.fwd, s, 0, func(u, cost uint32, dist int64) {
			k, _ := slices.BinarySearchFunc(buckets, u, func(b bucket, u uint32) int { return int(b.node) - int(u) })
			for ; k < len(buckets) && buckets[k].node == u; k++ {
				b := &buckets[k]
				total := uint64(cost) + uint64(b.cost)
				if total < uint64(biases[b.target]) {
					continue
				}
				c := &out[i*len(targets)+int(b.target)]
				if t := total - uint64(biases[b.target]); t < uint64(c.Cost) {
					c.Cost, c.DistCM = uint32(t), dist+b.dist
				}
			}
		})
	}
}

func bias(seeds []search.Seed) uint32 {
	var b uint32
	for _, s := range seeds {
		b = max(b, s.Cost)
	}
	return b
}

// fillBuckets runs the backward searches and sorts their labels by node.
func (q *Query) fillBuckets(targets []Endpoint) []bucket {
	var buckets []bucket
	for j, t := range targets {
		b := bias(t.Seeds)
		q.upward(&q.bwd, t, b, func(u, cost uint32, dist int64) {
			buckets = append(buckets, bucket{node: u, target: uint32(j), cost: cost, dist: dist})
		})
	}
	slices.SortFunc(buckets, func(a, b bucket) int { return int(a.node) - int(b.node) })
	return buckets
}

// upward exhausts one direction's upward search from an endpoint and calls
// visit for every settled node that is not stalled. Target seeds enter at
// bias − cost (see Shortest) and with negated distances.
func (q *Query) upward(s *side, e Endpoint, bias uint32, visit func(u, cost uint32, dist int64)) {
	q.search(s, e, bias, true, visit)
}

// search is upward with stall-on-demand optional: candidate via nodes for
// alternatives want every node the upward search reaches, stalled or not.
func (q *Query) search(s *side, e Endpoint, bias uint32, stall bool, visit func(u, cost uint32, dist int64)) {
	q.nextGen()
	s.heap.Reset()
	backward := s == &q.bwd
	dists := q.dists(len(s.labels))
	for i, sd := range e.Seeds {
		c, d := sd.Cost, e.Dists[i]
		if backward {
			c, d = bias-sd.Cost, -d
		}
		if q.improve(s, sd.Node, c, uint32(i), seedMark, 0) {
			dists[sd.Node] = d
		}
	}
	for s.heap.Len() > 0 {
		c, u := s.heap.Pop()
		if c != s.labels[u].cost {
			continue
		}
		if stall && q.stalled(s, u, c) {
			continue
		}
		visit(u, c, dists[u])
		for i := s.first[u]; i < s.first[u+1]; i++ {
			e := at(s.list, i)
			w := q.now(u, e, s.up)
			if w != graph.NoWay && q.improve(s, e.other, search.Add(c, w), u, e.middle, e.weight) {
				dists[e.other] = dists[u] + int64(e.dist)
			}
		}
	}
}

// dists returns the query's distance scratch array, allocated on first use
// by a table (point-to-point queries do not need it).
func (q *Query) dists(n int) []int64 {
	if len(q.dist) != n {
		q.dist = make([]int64, n)
	}
	return q.dist
}

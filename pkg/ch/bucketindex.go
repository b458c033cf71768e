package ch

import "github.com/mapsco/maps/pkg/search"

// bucketIndex groups the backward searches' buckets by node, so that a
// forward search finds a settled node's buckets with one lookup instead of
// a binary search over all of them (that search and the sort before it
// were a tenth of a 100×100 table). For a node u with buckets,
// entries[spans.Get(u).begin:spans.Get(u).end] are they, in target order,
// and dists the same range of their distances.
// Its memory is proportional to the buckets, not to the hierarchy.
type bucketIndex struct {
	spans   search.Labels[span]
	entries []entry
	dists   []int64
}

// span is where a node's buckets lie in bucketIndex.entries; while the
// index is built, end counts them and then marks the next free place.
type span struct{ begin, end uint32 }

// build makes the index of lists by a counting sort of the buckets (stable,
// so entries keep the order of lists). The forward searches only read it.
func (ix *bucketIndex) build(lists [][]bucket) {
	ix.spans.Reset()
	n := 0
	for _, list := range lists {
		n += len(list)
		for _, b := range list {
			sp, _ := ix.spans.Add(b.node)
			sp.end++ // count, until the node's range is placed
		}
	}
	next := uint32(0)
	for i := range ix.spans.Len() {
		sp := ix.spans.At(i)
		sp.begin, sp.end, next = next, next, next+sp.end
	}
	if cap(ix.entries) < n {
		ix.entries, ix.dists = make([]entry, n), make([]int64, n)
	}
	ix.entries, ix.dists = ix.entries[:n], ix.dists[:n]
	for _, list := range lists {
		for _, b := range list {
			sp := ix.spans.Get(b.node)
			ix.entries[sp.end], ix.dists[sp.end] = entry{target: b.target, cost: b.cost}, b.dist
			sp.end++
		}
	}
}

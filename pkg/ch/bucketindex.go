package ch

// bucketIndex groups the backward searches' buckets by node, so that a
// forward search finds a settled node's buckets with one lookup instead of
// a binary search over all of them (that search and the sort before it
// were a tenth of a 100×100 table).
//
// It needs a per-node array and finds one free in the query: once the
// backward searches are done, the backward labels are not read again until
// the next search, so a node's label is reused as its range of entries,
// marked by a fresh generation (stamp) rather than cleared. For node u,
// labels[u].gen == stamp means entries[labels[u].parent:labels[u].weight]
// are its buckets, in target order; any other gen means it has none.
type bucketIndex struct {
	labels  []label
	stamp   uint32
	entries []entry
}

// indexBuckets builds the index in q's backward labels by a counting sort
// of the buckets (stable, so entries keep the order of lists). The index
// stays valid while q runs up to searches forward searches and nothing
// else: they advance q's generation but write only forward labels.
func (q *Query) indexBuckets(lists [][]bucket, searches int) bucketIndex {
	if q.gen >= ^uint32(0)-uint32(searches)-1 {
		q.gen = ^uint32(0) // wrap now (clearing the labels) rather than during the forward searches
	}
	q.nextGen()
	ix := bucketIndex{labels: q.bwd.labels, stamp: q.gen}
	n := 0
	for _, list := range lists {
		n += len(list)
		for _, b := range list {
			l := &ix.labels[b.node]
			if l.gen != ix.stamp {
				*l = label{gen: ix.stamp}
			}
			l.cost++ // count, until the node's range is placed
		}
	}
	ix.entries = make([]entry, n)
	next := uint32(0)
	for _, list := range lists {
		for _, b := range list {
			l := &ix.labels[b.node]
			if l.middle == 0 { // first bucket of the node: reserve its range
				l.middle, l.parent, l.weight = 1, next, next
				next += l.cost
			}
			ix.entries[l.weight] = entry{target: b.target, cost: b.cost, dist: b.dist}
			l.weight++
		}
	}
	return ix
}

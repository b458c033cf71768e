package graph

import "sort"

// Duplicate arcs model restrictions with via ways (viaway.go). They are
// stored after the original arcs in Fwd.Edges, outside Fwd.First's ranges:
// arc ids numArcs ≤ a < len(Fwd.Edges)/3 are duplicates, each entry a copy
// of its original's (head, time, segment reference), so every read of
// Fwd.Edges[3*a+k] holds for them, while Fwd.Out(v), "the ways on from v",
// lists originals only and needs no filtering. Dup, a stored section read
// in place, names each duplicate's original, sorted by original so that
// the duplicates of one arc form a contiguous range. ArcOf names originals
// only: a point is never snapped onto a duplicate, but a search that ends
// on a segment must accept its duplicates as targets (Duplicates).

// firstDup is the id of the first duplicate arc: the number of originals.
func (g *Graph) firstDup() uint32 { return g.Fwd.First[len(g.Fwd.First)-1] }

// IsDuplicate reports whether arc a is a duplicate.
func (g *Graph) IsDuplicate(a uint32) bool { return a >= g.firstDup() }

// Original returns the arc a duplicates, or a itself for an original.
func (g *Graph) Original(a uint32) uint32 {
	if f := g.firstDup(); a >= f {
		return g.Dup[a-f]
	}
	return a
}

// Duplicates returns the range [begin, end) of original arc a's duplicates
// (empty for most arcs), by binary search of Dup.
func (g *Graph) Duplicates(a uint32) (begin, end uint32) {
	if len(g.Dup) == 0 {
		return 0, 0
	}
	f := g.firstDup()
	lo := sort.Search(len(g.Dup), func(i int) bool { return g.Dup[i] >= a })
	hi := lo
	for hi < len(g.Dup) && g.Dup[hi] == a {
		hi++
	}
	return f + uint32(lo), f + uint32(hi)
}

// NumDuplicates returns the number of duplicate arcs.
func (g *Graph) NumDuplicates() int { return len(g.Dup) }

// addDuplicates appends a duplicate of each arc in orig (sorted) to Fwd.
func (g *Graph) addDuplicates(orig []uint32) {
	g.Dup = orig
	for _, a := range orig {
		g.Fwd.Edges = append(g.Fwd.Edges, g.Fwd.Edges[3*a:3*a+3]...)
	}
}

// checkDuplicates verifies Dup against Fwd: one entry per arc beyond the
// originals, each an original, in ascending order.
func (g *Graph) checkDuplicates() bool {
	n := g.firstDup()
	if int(n)+len(g.Dup) != len(g.Fwd.Edges)/3 {
		return false
	}
	for i, a := range g.Dup {
		if a >= n || i > 0 && g.Dup[i-1] > a {
			return false
		}
	}
	return true
}

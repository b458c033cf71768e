// Package search finds shortest paths by travel time on a profile's graph.
//
// Searches start and end at seeds rather than nodes: a snapped point lies in
// the middle of a segment, so it reaches the segment's ends at a cost (the
// part of the segment's travel time still to go). Costs are whole
// milliseconds, summed in uint32 (49 days covers any route in one country),
// so results are exact and repeatable: a faster algorithm can be checked
// against plain Dijkstra for equality, not closeness.
//
// A Searcher holds per-node scratch arrays sized for one graph and is reused
// across queries (generation stamps make a reset O(1)). It is not safe for
// concurrent use: take one per goroutine from a Pool.
package search

import "math"

// Unreached is the cost of a node or target no path reaches.
const Unreached = math.MaxUint32

// noParent marks a node reached directly from a seed.
const noParent = math.MaxUint32

// Seed is a place a search starts or ends: a node and the cost of getting
// between it and the snapped point.
type Seed struct {
	Node uint32
	Cost uint32
}

// add sums two costs, saturating at Unreached.
func add(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < Unreached {
		return uint32(s)
	}
	return Unreached
}

// Package search holds what every shortest-path search on the turn-expanded
// graph shares: seeds, the priority queue, labels stored in proportion to
// what a search touches (Labels), the fixed set of search workers whose
// memory a serving process keeps (Pool), and plain Dijkstra, the reference
// that the contraction hierarchy (package ch) is tested against.
//
// Nodes of the turn-expanded graph are arcs: a segment travelled in one
// direction (see package graph). The cost of an arc's label is the time to
// reach its end. A search starts from source seeds (the arcs a snapped point
// lies on, with the time left to their ends) and finishes at target seeds
// (the arcs a destination lies on, with the time that remains from the
// point to the arc's end, which a path reaching that end has overpaid).
// Costs are whole milliseconds, so results are exact and repeatable: a
// faster algorithm can be checked against Dijkstra for equality.
package search

import "math"

// Unreached is the cost of a node or target no path reaches.
const Unreached = math.MaxUint32

// Seed is a place a search starts or ends. For a source, Cost is the time
// from the point to the end of arc Node. For a target, Cost is the time from
// the point to the end of arc Node, to be subtracted from a path that
// reaches that end.
type Seed struct {
	Node uint32
	Cost uint32
}

// Add sums two costs, saturating at Unreached.
func Add(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < Unreached {
		return uint32(s)
	}
	return Unreached
}

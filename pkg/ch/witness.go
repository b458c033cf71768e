package ch

import (
	"github.com/mapsco/maps/pkg/search"
)

// Witness searches are bounded by the nodes they settle. A search that
// gives up early only adds a shortcut that was not needed: the hierarchy
// stays exact, a little larger. Road graphs find their witnesses within a
// few dozen nodes.
//
// contractionBudget bounds the searches whose shortcuts are added;
// simulationBudget the two in three that only rank nodes (every node's
// first priority and each lazy re-check). A cut simulation overcounts
// shortcuts and ranks its node a little late: on the 3M-node country, 30
// instead of 300 took a quarter off contracting for 0.6 % (car) to 3.4 %
// (pedestrian) more hierarchy edges (BenchmarkSynthBuild).
const (
	contractionBudget = 300
	simulationBudget  = 30
)

// witnessSearch is a Dijkstra on the uncontracted graph that avoids the
// node being contracted, with generation-stamped labels for O(1) resets.
type witnessSearch struct {
	labels []witnessLabel
	gen    uint32
	heap   search.Heap
}

// witnessLabel is a node's cost, valid when stamp is the search's
// generation; target marks the nodes the search must settle.
type witnessLabel struct {
	stamp, cost uint32
	target      uint32 // == stamp: a target of this search not yet settled
}

func newWitnessSearch(n int) *witnessSearch {
	return &witnessSearch{labels: make([]witnessLabel, n)}
}

func (s *witnessSearch) cost(v uint32) uint32 {
	if l := &s.labels[v]; l.stamp == s.gen {
		return l.cost
	}
	return search.Unreached
}

// run searches from u, skipping avoid, until costs reach limit, every
// target is settled (their costs are final then: searching on would change
// nothing the caller reads), or budget nodes are settled, which it reports
// as cut (a target may then lack a witness it has). A witness must cost no
// more than the path through avoid at every time, so it passes through no
// marked node other than u (what a state adds to the edge into a target,
// the path through avoid pays too) and takes no variable edge (see
// vary.go).
func (s *witnessSearch) run(c *contractor, u, avoid, limit uint32, targets []dynEdge, budget int) (cut bool) {
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could look current
		clear(s.labels)
		s.gen = 1
	}
	left := 0
	for _, t := range targets {
		if l := &s.labels[t.other]; t.other != u && l.target != s.gen {
			l.target = s.gen
			left++
		}
	}
	s.heap.Reset()
	s.set(u, 0)
	s.heap.Push(0, u)
	settled := 0
	for s.heap.Len() > 0 && settled < budget && left > 0 {
		d, x := s.heap.Pop()
		lx := &s.labels[x]
		if d != lx.cost || lx.stamp != s.gen {
			continue
		}
		settled++
		if lx.target == s.gen {
			lx.target = 0
			left--
		}
		if x != u && c.isMarked(x) {
			continue
		}
		for _, e := range c.out[x] {
			if e.other == avoid || c.varies(x, e) {
				continue
			}
			// A node beyond limit could only be popped to end the search:
			// queuing it would only grow the heap every pop sifts through.
			if nd := addOrNone(d, e.weight); nd <= limit && nd < s.cost(e.other) {
				s.set(e.other, nd)
				s.heap.Push(nd, e.other)
			}
		}
	}
	return settled == budget && left > 0 && s.heap.Len() > 0
}

func (s *witnessSearch) set(v, c uint32) {
	l := &s.labels[v]
	l.stamp, l.cost = s.gen, c
}

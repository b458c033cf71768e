package ch

import "github.com/mapsco/maps/pkg/search"

// maxSettled bounds a witness search. A search that gives up early only
// adds a shortcut that was not needed: the hierarchy stays exact, a little
// larger. Road graphs find their witnesses within a few dozen nodes.
const maxSettled = 300

// witnessSearch is a Dijkstra on the uncontracted graph that avoids the
// node being contracted, with generation-stamped labels for O(1) resets.
type witnessSearch struct {
	costs []uint32
	stamp []uint32
	gen   uint32
	heap  search.Heap
}

func newWitnessSearch(n int) *witnessSearch {
	return &witnessSearch{costs: make([]uint32, n), stamp: make([]uint32, n)}
}

func (s *witnessSearch) cost(v uint32) uint32 {
	if s.stamp[v] != s.gen {
		return search.Unreached
	}
	return s.costs[v]
}

// run searches from u, skipping avoid, until costs reach limit or the
// settled budget runs out. Core nodes other than u are reached but not
// passed through: their weights change at query time, so a witness
// through one might not exist then.
func (s *witnessSearch) run(c *contractor, u, avoid, limit uint32) {
	s.gen++
	s.heap.Reset()
	s.set(u, 0)
	s.heap.Push(0, u)
	for settled := 0; s.heap.Len() > 0 && settled < maxSettled; {
		d, x := s.heap.Pop()
		if d != s.cost(x) {
			continue
		}
		if d > limit {
			return
		}
		settled++
		if x != u && c.isCore(x) {
			continue
		}
		for _, e := range c.out[x] {
			if e.other == avoid {
				continue
			}
			if nd := d + e.weight; nd < s.cost(e.other) {
				s.set(e.other, nd)
				s.heap.Push(nd, e.other)
			}
		}
	}
}

func (s *witnessSearch) set(v, c uint32) {
	s.stamp[v] = s.gen
	s.costs[v] = c
}

package search

import "github.com/mapsco/maps/pkg/graph"

// label is what one search direction knows about a node.
type label struct {
	gen    uint32 // the query that wrote this label; older ones are unset
	cost   uint32
	parent uint32 // previous node, or the seed's index when seg is noParent
	seg    uint32 // segment reference of the edge used to arrive, or noParent
}

// side is one direction of a search: its labels, queue and adjacency.
type side struct {
	labels []label
	heap   minHeap
	adj    *graph.CSR
}

func newSide(numNodes int, adj *graph.CSR) side {
	return side{labels: make([]label, numNodes), adj: adj}
}

func (s *side) cost(v, gen uint32) uint32 {
	if l := &s.labels[v]; l.gen == gen {
		return l.cost
	}
	return Unreached
}

// improve lowers v's cost if c is better and queues it.
func (s *side) improve(v, c, parent, seg, gen uint32) bool {
	l := &s.labels[v]
	if l.gen == gen && l.cost <= c {
		return false
	}
	*l = label{gen: gen, cost: c, parent: parent, seg: seg}
	s.heap.push(c, v)
	return true
}

// seed starts the side from a set of seeds.
func (s *side) seed(seeds []Seed, gen uint32) {
	s.heap.reset()
	for i, sd := range seeds {
		s.improve(sd.Node, sd.Cost, uint32(i), noParent, gen)
	}
}

// minKey returns the smallest queued cost (possibly of a stale entry,
// which only makes stopping tests more careful).
func (s *side) minKey() uint32 {
	if s.heap.len() == 0 {
		return Unreached
	}
	c, _ := unpack(s.heap.top())
	return c
}

package search

import "github.com/mapsco/maps/pkg/graph"

// Searcher runs point-to-point queries on one graph.
type Searcher struct {
	g        *graph.Graph
	gen      uint32
	fwd, bwd side
}

// NewSearcher allocates scratch space for g.
func NewSearcher(g *graph.Graph) *Searcher {
	n := g.Net.NumNodes()
	return &Searcher{g: g, fwd: newSide(n, &g.Fwd), bwd: newSide(n, &g.Bwd)}
}

// Path is a shortest path between two seeds.
type Path struct {
	Cost    uint32
	Direct  bool     // both points on one segment, joined along it without a node
	Source  int      // index of the source seed used
	Target  int      // index of the target seed used
	SegRefs []uint32 // edges in travel order (segment references)
}

// Shortest returns the cheapest way from any source seed to any target seed,
// or direct when that (a path along one segment, computed by the caller) is
// at least as cheap; ok is false when nothing connects them. The path's
// SegRefs are appended to buf.
//
// It is a bidirectional Dijkstra: both directions advance the side with the
// smaller queue head, and stop when the two heads together cannot beat the
// best meeting found (Pohl 1971; the stopping rule as in Goldberg & Harrelson
// 2005).
func (s *Searcher) Shortest(sources, targets []Seed, direct uint32, buf []uint32) (Path, bool) {
	s.nextGen()
	gen := s.gen
	s.fwd.seed(sources, gen)
	s.bwd.seed(targets, gen)
	best, meet := direct, uint32(noParent)
	for _, t := range targets { // a node that is both a source and a target
		if c := add(s.fwd.cost(t.Node, gen), s.bwd.cost(t.Node, gen)); c < best {
			best, meet = c, t.Node
		}
	}
	for {
		kf, kb := s.fwd.minKey(), s.bwd.minKey()
		if uint64(kf)+uint64(kb) >= uint64(best) {
			break
		}
		if kf <= kb {
			best, meet = s.step(&s.fwd, &s.bwd, best, meet)
		} else {
			best, meet = s.step(&s.bwd, &s.fwd, best, meet)
		}
	}
	if best == Unreached {
		return Path{}, false
	}
	if meet == noParent {
		return Path{Cost: best, Direct: true, SegRefs: buf}, true
	}
	return s.unpack(best, meet, buf), true
}

// step settles the head of side a and relaxes its edges, recording any node
// that the opposite side b has reached as a meeting point.
func (s *Searcher) step(a, b *side, best, meet uint32) (uint32, uint32) {
	gen := s.gen
	c, u := a.heap.pop()
	if c != a.labels[u].cost {
		return best, meet // stale entry
	}
	begin, end := a.adj.Out(u)
	for i := begin; i < end; i++ {
		e := a.adj.Edges[3*i : 3*i+3 : 3*i+3]
		v, nc := e[0], add(c, e[1])
		if a.improve(v, nc, u, e[2], gen) {
			if m := add(nc, b.cost(v, gen)); m < best {
				best, meet = m, v
			}
		}
	}
	return best, meet
}

// unpack walks parents from the meeting node back to the source seed and
// forward to the target seed.
func (s *Searcher) unpack(cost, meet uint32, buf []uint32) Path {
	p := Path{Cost: cost}
	start := len(buf)
	v := meet
	for l := s.fwd.labels[v]; l.seg != noParent; l = s.fwd.labels[v] {
		buf = append(buf, l.seg)
		v = l.parent
	}
	p.Source = int(s.fwd.labels[v].parent)
	for i, j := start, len(buf)-1; i < j; i, j = i+1, j-1 {
		buf[i], buf[j] = buf[j], buf[i]
	}
	v = meet
	for l := s.bwd.labels[v]; l.seg != noParent; l = s.bwd.labels[v] {
		buf = append(buf, l.seg)
		v = l.parent
	}
	p.Target = int(s.bwd.labels[v].parent)
	p.SegRefs = buf[start:]
	return p
}

func (s *Searcher) nextGen() {
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could collide, so clear them
		clear(s.fwd.labels)
		clear(s.bwd.labels)
		s.gen = 1
	}
}

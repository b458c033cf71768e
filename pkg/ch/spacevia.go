package ch

import (
	"slices"

	"github.com/mapsco/maps/pkg/search"
)

// NoMeet is the Meet of a Result that no search of these seeds found (see
// SpaceVias).
const NoMeet = ^uint32(0)

// SpaceVias finds candidate via nodes for alternatives to best.Arcs, a
// path from a source seed to a target seed, as OSRM's CH alternatives and
// X-CHV do (Abraham, Delling, Goldberg and Werneck, "Alternative routes in
// road networks", 2013): every node both upward searches settle, run to
// limit, is a candidate whose path is the forward search tree's path to it
// and the backward tree's path from it, appended to out when that costs
// less than limit. Its route indexes (see Via) are carried along each tree
// as Vias carries them along its cones.
//
// Unlike Vias, a candidate's cost is that of its tree paths, which may be
// dearer than the best path through its node, and only nodes of both
// search spaces are candidates; but the work is the two upward searches
// alone, whatever the length of the route. On a long route across a
// country the search spaces are large and hold many good detours (three
// quarters of 700 km trips across the 3M-node synthetic country get an
// alternative from them), where Vias's cones above the route grow with its
// length (docs/benchmarks-history.md, issue 37).
//
// When best is what Shortest found for these seeds under q's state (its
// Meet, not NoMeet), every candidate's path shares its trees' paths with
// best up to where they part, and ViaPath copies that much of best.Arcs
// rather than unpacking it again (the partial unpacking of OSRM's CH
// alternatives). The labels stay valid for ViaPath until the next search
// on q.
func (q *Query) SpaceVias(sources, targets []search.Seed, best Result, limit uint32, out []Via) []Via {
	shift := q.settleBoth(sources, targets, best.Arcs, limit)
	v := q.via
	v.along = q.bestTrees(best, shift)
	down, up := &v.cones[0], &v.cones[1]
	for k, u := range v.settled[0] {
		a := v.marks.get(u, markUp)
		if a > settledAt {
			continue // not settled backward
		}
		f, b := down.pre[k], up.pre[settledAt-a]
		total := uint64(f.cost) + uint64(b.cost)
		if total < uint64(shift) || total-uint64(shift) >= uint64(limit) {
			continue
		}
		out = append(out, Via{Node: u, Cost: uint32(total - uint64(shift)),
			Leaves: int(f.route), Joins: int(b.route), at: inSpaces})
	}
	return out
}

// bestTrees notes the nodes of the search trees' paths that make up best,
// from its Meet back to each seed, and reports whether they are best's: the
// meeting costs best.Cost, best.Arcs holds no arc twice (so that an arc's
// index names one place on it), and each tree path's nodes lie on
// best.Arcs in order, from its first arc to its last.
func (q *Query) bestTrees(best Result, shift uint32) bool {
	v := q.via
	v.bestIn, v.bestOut = v.bestIn[:0], v.bestOut[:0]
	if best.Meet == NoMeet || !v.simple {
		return false
	}
	lf, lb := q.fwd.labels.Get(best.Meet), q.bwd.labels.Get(best.Meet)
	if lf == nil || lb == nil || uint64(lf.cost)+uint64(lb.cost) != uint64(best.Cost)+uint64(shift) {
		return false
	}
	var ok bool
	if v.bestIn, v.bestSource, ok = q.treePath(&q.fwd, best.Meet, v.bestIn, -1); !ok {
		return false
	}
	v.bestOut, v.bestTarget, ok = q.treePath(&q.bwd, best.Meet, v.bestOut, 1)
	return ok
}

// treePath appends to nodes the path of side s's search tree from u to its
// seed, and returns the seed's index; ok is false unless every node is on
// the route, each after the one before in direction step (−1 towards the
// route's first arc, +1 towards its last), and the seed is its end.
func (q *Query) treePath(s *side, u uint32, nodes []uint32, step int32) (_ []uint32, seed int, ok bool) {
	v := q.via
	last, end := int32(len(v.route)), int32(0)
	if step > 0 {
		last, end = -1, int32(len(v.route)-1)
	}
	for {
		i := v.marks.get(u, markRoute)
		if i < 0 || (i-last)*step <= 0 {
			return nodes, 0, false
		}
		nodes, last = append(nodes, u), i
		l := s.labels.Get(u)
		if l.middle == seedMark {
			return nodes, int(l.parent), i == end
		}
		u = l.parent
	}
}

// spacePath appends the path of SpaceVias candidate v to buf: the forward
// tree's path to its node and the backward tree's from it, each copied
// from the best route as far as it is the best route's (see bestTrees) and
// unpacked beyond.
func (q *Query) spacePath(v Via, buf []uint32) Result {
	x := q.via
	r := Result{Cost: v.Cost, Meet: v.Node}
	start := len(buf)
	chain := q.hops[:0]
	u := v.Node
	for x.along && !slices.Contains(x.bestIn, u) {
		l := q.fwd.labels.Get(u)
		if l.middle == seedMark {
			break // a tree path of its own from another source seed
		}
		chain = append(chain, hop{from: l.parent, to: u, middle: l.middle, weight: l.weight})
		u = l.parent
	}
	if x.along && slices.Contains(x.bestIn, u) {
		buf = append(buf, x.route[:x.marks.get(u, markRoute)+1]...)
		r.Source = x.bestSource
		for i := len(chain) - 1; i >= 0; i-- {
			buf = q.expand(buf, chain[i])
		}
		q.hops = chain
	} else {
		buf, r.Source = q.appendIn(buf, chain, u)
	}
	for u = v.Node; ; {
		if x.along && slices.Contains(x.bestOut, u) {
			buf = append(buf, x.route[x.marks.get(u, markRoute)+1:]...)
			r.Target = x.bestTarget
			break
		}
		l := q.bwd.labels.Get(u)
		if l.middle == seedMark {
			r.Target = int(l.parent)
			break
		}
		buf = q.expand(buf, hop{from: u, to: l.parent, middle: l.middle, weight: l.weight})
		u = l.parent
	}
	r.Arcs = buf[start:]
	return r
}

package match

import (
	"math"
	"sync"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Transitions need the road distance from each candidate of one point to
// each candidate of the next. The hierarchy's many-to-many answers that in
// two upward searches per candidate, a few hundred nodes each on Andorra;
// but consecutive fixes of a trace lie tens to hundreds of metres apart,
// so a plain Dijkstra over the turn graph from each candidate, bounded by
// the distance a plausible transition may take and stopped as soon as
// every next candidate is settled, touches a few dozen arcs instead
// (Valhalla's map matcher does the same). It searches by length, not time:
// the transition probability compares the road distance with the distance
// as the crow flies (Newson and Krumm's shortest route).

// unreachable is the distance of a candidate no path reaches within bound.
const unreachable = math.MaxUint32

// distSearch is one bounded search's memory, kept between calls (dists).
type distSearch struct {
	labels search.Labels[uint32] // cm to the end of the arc
	heap   search.Heap
	g      *graph.Graph
	st     *graph.State
}

// searches pools distSearch values: their labels are sized to the graph.
var searches = sync.Pool{New: func() any { return new(distSearch) }}

func getSearch(g *graph.Graph, st *graph.State) *distSearch {
	s := searches.Get().(*distSearch)
	if s.g != g {
		s.labels.Fit(int(g.NumArcs()))
		s.g = g
	}
	s.st = st
	return s
}

func putSearch(s *distSearch) {
	s.st = nil
	searches.Put(s)
}

// target is a candidate of the next point as the search meets it.
type target struct {
	p    snap.Result
	len  uint32 // its segment's length, cm
	best uint32 // cm from the source, or unreachable
}

// dists fills out[j] with the road distance in cm from a to targets[j]
// (unreachable beyond boundCM) and returns out. A target a little behind a
// on a's own road, at most jitterCM, counts as that far: a vehicle that
// barely moved between two fixes (stopped, or slow with noisy fixes) is
// found behind itself, and on a one-way road going round the block would
// lose the road to the carriageway the other way.
func (s *distSearch) dists(a snap.Result, targets []target, boundCM, jitterCM uint32, out []uint32) []uint32 {
	for j := range targets {
		targets[j].best = unreachable
		if d, ok := s.direct(a, targets[j].p); ok {
			targets[j].best = d
		} else if d, ok := s.direct(targets[j].p, a); ok && d <= jitterCM {
			targets[j].best = d
		}
	}
	s.labels.Reset()
	s.heap.Reset()
	s.seed(a)
	var maxLen uint32
	for _, t := range targets {
		maxLen = max(maxLen, t.len)
	}
	for s.heap.Len() > 0 {
		c, u := s.heap.Pop()
		if l := s.labels.Get(u); l == nil || *l != c {
			continue // a stale entry
		}
		if uint64(c) > uint64(boundCM)+uint64(maxLen) || s.settled(c, targets) {
			break
		}
		s.reach(u, c, targets)
		s.relax(u, c)
	}
	out = out[:0]
	for _, t := range targets {
		d := t.best
		if d > boundCM {
			d = unreachable
		}
		out = append(out, d)
	}
	return out
}

// settled reports whether no arc at cost c or more can bring a target
// nearer: a path reaching an arc's end at c reaches a point on it at c
// minus at most the arc's length.
func (s *distSearch) settled(c uint32, targets []target) bool {
	for _, t := range targets {
		if t.best == unreachable || uint64(c) < uint64(t.best)+uint64(t.len) {
			return false
		}
	}
	return true
}

// seed starts the search from a: not on the arcs a lies on, which would
// settle them at once, but on the turns out of them, so that a target
// behind a on its own arc is reached by going round (direct covers the
// target ahead).
func (s *distSearch) seed(a snap.Result) {
	g := s.g
	length := float64(g.Net.SegLength[a.Seg]) * 100
	for _, rev := range [2]bool{false, true} {
		arc := g.ArcOf[graph.SegRef(a.Seg, rev)]
		if arc == graph.NoArc || !s.open(arc) || (rev && a.NoBackward) || (!rev && a.NoForward) {
			continue
		}
		left := (1 - a.Frac) * length
		if rev {
			left = a.Frac * length
		}
		s.relax(arc, uint32(math.Round(left)))
	}
}

// relax pushes the arcs turned onto from arc u, reached at c cm.
func (s *distSearch) relax(u, c uint32) {
	g := s.g
	begin, end := g.Turns.Out(u)
	for i := begin; i < end; i++ {
		t := g.Turns.At(i)
		if s.st.Edge(u, t.Head, t.Weight, true) == graph.NoWay {
			continue
		}
		seg, _ := g.ArcSegment(t.Head)
		nc := search.Add(c, uint32(math.Round(float64(g.Net.SegLength[seg])*100)))
		l, added := s.labels.Add(t.Head)
		if added || nc < *l {
			*l = nc
			s.heap.Push(nc, t.Head)
		}
	}
}

// reach records the targets on arc u, whose end the search reached at c.
func (s *distSearch) reach(u, c uint32, targets []target) {
	seg, rev := s.g.ArcSegment(u)
	for j := range targets {
		t := &targets[j]
		if t.p.Seg != seg || (rev && t.p.NoBackward) || (!rev && t.p.NoForward) {
			continue
		}
		rem := float64(t.len) * (1 - t.p.Frac) // from the point to the arc's end
		if rev {
			rem = float64(t.len) * t.p.Frac
		}
		if d := float64(c) - rem; d >= 0 && uint32(math.Round(d)) < t.best {
			t.best = uint32(math.Round(d))
		}
	}
}

// direct is the distance from a to b along their common segment, when b
// lies ahead of a in a direction the profile may travel.
func (s *distSearch) direct(a, b snap.Result) (uint32, bool) {
	if a.Seg != b.Seg {
		return 0, false
	}
	g := s.g
	d := uint32(math.Round(math.Abs(b.Frac-a.Frac) * float64(g.Net.SegLength[a.Seg]) * 100))
	fwd := g.ArcOf[graph.SegRef(a.Seg, false)]
	if b.Frac >= a.Frac && fwd != graph.NoArc && s.open(fwd) && !a.NoForward && !b.NoForward {
		return d, true
	}
	bwd := g.ArcOf[graph.SegRef(a.Seg, true)]
	if b.Frac <= a.Frac && bwd != graph.NoArc && s.open(bwd) && !a.NoBackward && !b.NoBackward {
		return d, true
	}
	return 0, false
}

// open reports whether arc a is open under the search's state.
func (s *distSearch) open(a uint32) bool {
	return s.st == nil || s.st.ArcTime(s.g, a) != graph.NoWay
}

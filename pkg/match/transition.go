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
	len  uint32    // its segment's length, cm
	best [2]uint32 // cm from the source to it travelling forward, backward; or unreachable
}

// dists fills out[2j+d] with the road distance in cm from a, leaving it in
// direction d (0 along its segment, 1 against), to targets[j] reached in
// direction d (unreachable beyond boundCM; see settled for slackCM), and
// returns out. A direction is each state of the model (viterbi.go): a
// vehicle seldom turns round in the middle of a road, so the transitions
// of a state leaving a in direction dir are the lesser of this search's
// and the other direction's plus a turning cost (turned).
func (s *distSearch) dists(a snap.Result, dir int, targets []target, boundCM, slackCM uint32, out []uint32) []uint32 {
	var maxLen uint32
	for j := range targets {
		t := &targets[j]
		t.best = [2]uint32{unreachable, unreachable}
		if d, ok := s.ahead(a, t.p, dir); ok {
			t.best[dir] = d
		}
		maxLen = max(maxLen, t.len)
	}
	s.labels.Reset()
	s.heap.Reset()
	s.seed(a, dir, 0)
	for s.heap.Len() > 0 {
		c, u := s.heap.Pop()
		if l := s.labels.Get(u); l == nil || *l != c {
			continue // a stale entry
		}
		if uint64(c) > uint64(boundCM)+uint64(maxLen) || s.settled(targets, c, slackCM) {
			break
		}
		s.reach(u, c, targets)
		s.relax(u, c)
	}
	out = out[:0]
	for _, t := range targets {
		for _, d := range t.best {
			if d > boundCM {
				d = unreachable
			}
			out = append(out, d)
		}
	}
	return out
}

// settled reports whether every target's distances are known, the search
// having reached the end of an arc at c. The first arc of a direction
// settled gives that direction's distance (its copies lie as far from the
// point). Once one direction is known, the other is looked for only while
// it could come within slackCM of it: farther, the transition would be
// e^-10 times less likely (slack is 10 beta) and never chosen, and looking
// for it (a U-turn away) would take every search to its bound.
func (s *distSearch) settled(targets []target, c, slackCM uint32) bool {
	for _, t := range targets {
		found := min(t.best[0], t.best[1])
		if found == unreachable {
			return false
		}
		if max(t.best[0], t.best[1]) == unreachable && uint64(c) < uint64(found)+uint64(t.len)+uint64(slackCM) {
			return false
		}
	}
	return true
}

// seed starts the search from a leaving in direction dir, extraCM further:
// not on the arc a
// lies on, which would settle it at once, but on the turns out of it, so
// that a target behind a on its own arc is reached by going round (ahead
// covers the target in front).
func (s *distSearch) seed(a snap.Result, dir int, extraCM uint32) {
	arc, ok := s.arc(a.Seg, dir)
	if !ok {
		return
	}
	length := float64(s.g.Net.SegLength[a.Seg]) * 100
	left := (1 - a.Frac) * length
	if dir == 1 {
		left = a.Frac * length
	}
	s.relax(arc, uint32(math.Round(left))+extraCM)
}

// arc returns segment seg's arc in direction dir, if the profile may use it
// now.
func (s *distSearch) arc(seg uint32, dir int) (uint32, bool) {
	a := s.g.ArcOf[graph.SegRef(seg, dir == 1)]
	return a, a != graph.NoArc && s.open(a)
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
	dir := 0
	if rev {
		dir = 1
	}
	for j := range targets {
		t := &targets[j]
		if t.p.Seg != seg || t.best[dir] != unreachable {
			continue
		}
		rem := float64(t.len) * (1 - t.p.Frac) // from the point to the arc's end
		if rev {
			rem = float64(t.len) * t.p.Frac
		}
		if d := float64(c) - rem; d >= 0 {
			t.best[dir] = uint32(math.Round(d))
		}
	}
}

// ahead is the distance from a to b along their common segment when b lies
// ahead of a in direction dir and the profile may travel that way.
func (s *distSearch) ahead(a, b snap.Result, dir int) (uint32, bool) {
	if a.Seg != b.Seg {
		return 0, false
	}
	if _, ok := s.arc(a.Seg, dir); !ok || (dir == 0) != (b.Frac >= a.Frac) && b.Frac != a.Frac {
		return 0, false
	}
	return uint32(math.Round(math.Abs(b.Frac-a.Frac) * float64(s.g.Net.SegLength[a.Seg]) * 100)), true
}

// open reports whether arc a is open under the search's state.
func (s *distSearch) open(a uint32) bool {
	return s.st == nil || s.st.ArcTime(s.g, a) != graph.NoWay
}

// turned combines the distances from one position leaving in direction
// dir (own) and leaving the other way (other, which costs turnCM more to
// take: a turn on the spot) into out, per target and arrival direction.
func turned(own, other []uint32, turnCM uint32, out []uint32) []uint32 {
	out = out[:0]
	for i, d := range own {
		out = append(out, min(d, search.Add(other[i], turnCM)))
	}
	return out
}

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
//
// Each search is given, per next state, how far it is worth looking
// (viterbi.go's limit: no farther than a transition that could still beat
// the state's best score so far), and stops once every state is found or
// out of reach: with the best source searched first, the others' searches
// are short. Measured on 2,000-fix traces, this and meeting targets on the
// arc turned onto (dists) cut the arcs settled by 2.6 times at 5 s and
// the CPU of a trace by a quarter to two fifths, with the same answer.

// unreachable is the distance of a candidate no path reaches within bound.
const unreachable = math.MaxUint32

// distSearch is one bounded search's memory, kept between calls (dists).
type distSearch struct {
	labels search.Labels[uint32] // cm to the end of the arc
	heap   search.Heap
	g      *graph.Graph
	st     *graph.State
	// What done last found, so that most arcs reached skip it: until a
	// target is met again (met), the search reaches the next known
	// distance (known), or it passes every stop (horizon), nothing done
	// looks at changes.
	met            bool
	known, horizon uint32
	// bloom has bit seg%64 set for each target's segment: most arcs
	// turned onto carry none, and this says so in one test.
	bloom uint64
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
	want [2]bool   // per arrival direction (forward, backward): worth finding at all
	lim  [2]uint32 // per arrival direction: the farthest, in cm, worth finding
	best [2]uint32 // cm from the source to it arriving forward, backward: the least found so far, or unreachable
	stop [2]uint32 // per arrival direction: lim, or nearer once the other direction is known (slack)
}

// dists fills out[2j+d] with the road distance in cm from a, leaving it in
// direction d (0 along its segment, 1 against), to targets[j] reached in
// direction d when that direction is wanted and the distance is within
// its lim and within slackCM of the other direction's; unreachable
// otherwise. It returns out. A direction is each state of the model
// (viterbi.go): a vehicle seldom turns round in the middle of a road, so
// the transitions of a state leaving a in direction dir are the lesser of
// this search's and the other direction's plus a turning cost (turned).
//
// Slack: once one direction of a target is known, the other is looked
// for only while it could come within slackCM of it: farther, the
// transition would be e^-10 times less likely (slack is 10 beta) and never
// chosen, and looking for it (a U-turn away) would take every search to
// its bound.
//
// A target is met when the search turns onto its arc, not when it
// reaches the arc's end: its distance is then known as soon as the search
// has gone as far, so a target on a long road neither holds the search
// beyond it nor widens its bound.
func (s *distSearch) dists(a snap.Result, dir int, targets []target, slackCM uint32, out []uint32) []uint32 {
	wanted := false
	s.bloom = 0
	for j := range targets {
		t := &targets[j]
		s.bloom |= 1 << (t.p.Seg % 64)
		t.best, t.stop = [2]uint32{unreachable, unreachable}, t.lim
		if d, ok := s.ahead(a, t.p, dir); ok {
			t.best[dir] = d // along the road: nothing is nearer
		}
		wanted = wanted || t.want[0] || t.want[1]
	}
	if !wanted {
		return s.report(targets, slackCM, out)
	}
	s.labels.Reset()
	s.heap.Reset()
	s.met = true
	s.seed(a, dir, targets)
	for s.heap.Len() > 0 {
		c, u := s.heap.Pop()
		if l := s.labels.Get(u); l == nil || *l != c {
			continue // a stale entry
		}
		if (s.met || c >= s.known || c > s.horizon) && s.done(targets, c, slackCM) {
			break
		}
		s.relax(u, c, targets)
	}
	return s.report(targets, slackCM, out)
}

// report fills out as dists says from what the search found.
func (s *distSearch) report(targets []target, slackCM uint32, out []uint32) []uint32 {
	out = out[:0]
	for _, t := range targets {
		near := min(t.best[0], t.best[1])
		for d, b := range t.best {
			if !t.want[d] || b > t.lim[d] || uint64(b) > uint64(near)+uint64(slackCM) {
				b = unreachable
			}
			out = append(out, b)
		}
	}
	return out
}

// done reports whether the search, having reached the end of an arc at c
// cm, has nothing left to find: every wanted direction of every target is
// either known (no path yet to come is shorter than c) or farther than
// worth finding. A known direction brings the other's stop within slack
// of it (dists).
func (s *distSearch) done(targets []target, c, slackCM uint32) bool {
	s.met, s.known, s.horizon = false, unreachable, 0
	done := true
	for j := range targets {
		t := &targets[j]
		for d := range 2 {
			if t.best[d] <= c {
				t.stop[1-d] = uint32(min(uint64(t.stop[1-d]), uint64(t.best[d])+uint64(slackCM)))
			}
		}
		for d := range 2 {
			if t.best[d] > c {
				s.known = min(s.known, t.best[d])
			}
			if t.want[d] && t.best[d] > c && t.stop[d] >= c {
				done, s.horizon = false, max(s.horizon, t.stop[d])
			}
		}
	}
	return done
}

// seed starts the search from a leaving in direction dir: not on the arc
// a lies on, which would settle it at once, but on the turns out of it,
// so that a target behind a on its own arc is reached by going round
// (ahead covers the target in front).
func (s *distSearch) seed(a snap.Result, dir int, targets []target) {
	arc, ok := s.arc(a.Seg, dir)
	if !ok {
		return
	}
	length := float64(s.g.Net.SegLength[a.Seg]) * 100
	left := (1 - a.Frac) * length
	if dir == 1 {
		left = a.Frac * length
	}
	s.relax(arc, uint32(math.Round(left)), targets)
}

// arc returns segment seg's arc in direction dir, if the profile may use it
// now.
func (s *distSearch) arc(seg uint32, dir int) (uint32, bool) {
	a := s.g.ArcOf[graph.SegRef(seg, dir == 1)]
	return a, a != graph.NoArc && s.open(a)
}

// relax pushes the arcs turned onto from arc u, reached at c cm, and
// notes the targets on them.
func (s *distSearch) relax(u, c uint32, targets []target) {
	g := s.g
	begin, end := g.Turns.Out(u)
	for i := begin; i < end; i++ {
		t := g.Turns.At(i)
		if s.st.Edge(u, t.Head, t.Weight, true) == graph.NoWay {
			continue
		}
		ref := g.ArcSegRef(t.Head)
		seg, rev := graph.SplitSegRef(ref)
		nc := search.Add(c, cm(g.Net.SegLength[seg]))
		l, added := s.labels.Add(t.Head)
		if !added && nc >= *l {
			continue
		}
		*l = nc
		s.heap.Push(nc, t.Head)
		if s.bloom&(1<<(seg%64)) != 0 {
			s.meet(seg, rev, nc, targets)
		}
	}
}

// meet records the targets on segment seg, whose end the search reaches
// at c travelling it backward when rev.
func (s *distSearch) meet(seg uint32, rev bool, c uint32, targets []target) {
	for j := range targets {
		t := &targets[j]
		if t.p.Seg != seg {
			continue
		}
		dir, rem := 0, float64(t.len)*(1-t.p.Frac) // from the point to the arc's end
		if rev {
			dir, rem = 1, float64(t.len)*t.p.Frac
		}
		if d := float64(c) - rem; d >= 0 && uint32(math.Round(d)) < t.best[dir] {
			t.best[dir], s.met = uint32(math.Round(d)), true
		}
	}
}

// cm is a segment length in whole centimetres (math.Round's, for the
// non-negative lengths of the network, without its cost).
func cm(m float32) uint32 { return uint32(float64(m)*100 + 0.5) }

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

package route

import (
	"context"
	"math"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Bounds of an acceptable alternative (Abraham, Delling, Goldberg and
// Werneck, "Alternative routes in road networks", 2010): it shares at most
// MaxShare of the best route's length, takes at most MaxStretch times its
// time, and every stretch of it around the via node of LocalWindow of the
// best route's time is itself a shortest path (no detour a driver would
// never take).
const (
	MaxShare    = 0.75
	MaxStretch  = 1.3
	LocalWindow = 0.25
	maxVias     = 64
	// penaltyFactor is how much dearer each found route's arcs become per
	// round, and penaltyRounds how many rounds are tried.
	penaltyFactor = 1.4
	penaltyRounds = 3
)

// Alternatives finds up to n routes from a to b that differ from best (a
// two-waypoint route from Route). Candidates come from two sources: via
// nodes that both upward hierarchy searches reach (cheap, but few on a
// hierarchy), then the penalty method (penalty.go): the arcs of every
// route found so far are made dearer by penaltyFactor and a goal-directed
// search on the turn graph finds the next candidate. A candidate is kept when it passes
// the three bounds above, measured in true times, against best and every
// alternative kept before it.
func (r *Router) Alternatives(ctx context.Context, best *Route, n int) []*Route {
	if n <= 0 || len(best.Legs) != 1 || best.Legs[0].Direct {
		return nil
	}
	a, b := best.Snapped[0], best.Snapped[1]
	st := best.st
	e := MakeEnds(r.g, st, a, b)
	for i, s := range e.Sources {
		if e.Origin[i] != s.Node {
			return nil // both points on one road: no meaningful alternative
		}
	}
	q, err := r.QueryContext(ctx)
	if err != nil {
		return nil
	}
	defer r.PutQuery(q)
	q.SetState(st)
	bestCost := uint32(math.Round(best.DurationS * 1000))
	limit := uint32(float64(bestCost) * MaxStretch)
	kept := []*Route{best}
	consider := func(leg Leg) {
		if r.locallyOptimal(q, e, leg, bestCost) && r.distinct(leg, kept) {
			kept = append(kept, &Route{DistanceM: leg.DistanceM, DurationS: leg.DurationS, Legs: []Leg{leg},
				Shape: r.appendShape(nil, a, b, leg), Snapped: best.Snapped, st: st})
		}
	}
	for _, v := range q.Vias(e.Sources, e.Targets, limit+1, maxVias) {
		if len(kept) > n || ctx.Err() != nil {
			return kept[1:]
		}
		if leg, ok := r.viaLeg(q, e, a, b, v.Node, limit); ok {
			consider(leg)
		}
	}
	s, _ := r.alts.TryGet() // never waits: as many as queries, and this call holds one
	defer r.alts.Put(s)
	s.begin(len(r.g.Turns.First) - 1)
	for round := 0; round < penaltyRounds && len(kept) <= n && ctx.Err() == nil; round++ {
		for _, k := range kept {
			s.penalize(k.Legs[0].Arcs)
		}
		leg, ok := r.penaltyLeg(s, st, e, a, b, limit)
		if ok {
			consider(leg)
		}
	}
	return kept[1:]
}

// viaLeg is the fastest path from a through arc v to b, when it is simple
// (no road twice) and within limit.
func (r *Router) viaLeg(q *ch.Query, e Ends, a, b snap.Result, v, limit uint32) (Leg, bool) {
	if isTarget(e.Targets, v) || isTarget(e.Sources, v) {
		return Leg{}, false
	}
	first, ok := q.Shortest(e.Sources, []search.Seed{{Node: v}}, nil)
	if !ok {
		return Leg{}, false
	}
	arcs := append([]uint32(nil), first.Arcs...)
	second, ok := q.Shortest([]search.Seed{{Node: v}}, e.Targets, nil)
	if !ok || uint64(first.Cost)+uint64(second.Cost) > uint64(limit) {
		return Leg{}, false
	}
	arcs = append(arcs, second.Arcs[1:]...)
	if !r.simple(arcs) {
		return Leg{}, false
	}
	leg := r.makeLeg(q.State(), a, b, arcs, first.Cost+second.Cost)
	leg.via = len(first.Arcs) - 1
	return leg, true
}

// locallyOptimal is the T-test: the stretch of the alternative from
// LocalWindow of the best route's time before its via arc to as much after
// must be a shortest path between its ends.
func (r *Router) locallyOptimal(q *ch.Query, e Ends, leg Leg, bestCost uint32) bool {
	arcs := leg.Arcs
	cum := make([]uint64, len(arcs)) // time to each arc's end along the alternative
	for i := range arcs {
		if i == 0 {
			for _, s := range e.Sources {
				if s.Node == arcs[0] {
					cum[0] = uint64(s.Cost)
				}
			}
			continue
		}
		w, ok := turnWeight(r.g, q.State(), arcs[i-1], arcs[i])
		if !ok {
			return false
		}
		cum[i] = cum[i-1] + uint64(w)
	}
	window := uint64(LocalWindow * float64(bestCost))
	x, y := leg.via, leg.via
	for x > 0 && cum[leg.via]-cum[x] < window {
		x--
	}
	for y < len(arcs)-1 && cum[y]-cum[leg.via] < window {
		y++
	}
	if x == y {
		return true
	}
	res, ok := q.Shortest([]search.Seed{{Node: arcs[x]}}, []search.Seed{{Node: arcs[y]}}, nil)
	return ok && uint64(res.Cost) == cum[y]-cum[x]
}

// distinct reports whether leg shares at most MaxShare of each kept route's
// length with it (whole segments only: the partial end pieces are the same
// for every route between two points, and short).
func (r *Router) distinct(leg Leg, kept []*Route) bool {
	mine := make(map[uint32]bool, len(leg.Arcs))
	for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
		mine[r.segOf(arc)] = true
	}
	for _, k := range kept {
		if r.shared(mine, k.Legs[0]) > MaxShare*k.DistanceM {
			return false
		}
	}
	return true
}

// shared is the length of the whole segments of other that are in segs.
func (r *Router) shared(segs map[uint32]bool, other Leg) float64 {
	var m float64
	if other.Direct {
		return 0
	}
	for _, arc := range other.Arcs[1 : len(other.Arcs)-1] {
		if s := r.segOf(arc); segs[s] {
			m += float64(r.g.Net.SegLength[s])
		}
	}
	return m
}

// Share is the fraction of route a's length on whole segments that route b
// also travels (for reporting and tests).
func (r *Router) Share(a, b *Route) float64 {
	segs := map[uint32]bool{}
	if !b.Legs[0].Direct {
		for _, arc := range b.Legs[0].Arcs[1 : len(b.Legs[0].Arcs)-1] {
			segs[r.segOf(arc)] = true
		}
	}
	return r.shared(segs, a.Legs[0]) / a.DistanceM
}

// turnWeight is the weight of the turn a→b under st; ok is false when there
// is none or it is forbidden now.
func turnWeight(g *graph.Graph, st *graph.State, a, b uint32) (uint32, bool) {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, w, _ := g.Turn(i); to == b {
			w = st.Edge(a, b, w, true)
			return w, w != graph.NoWay
		}
	}
	return 0, false
}

// simple reports whether a path travels no road twice (no turning back).
func (r *Router) simple(arcs []uint32) bool {
	seen := make(map[uint32]bool, len(arcs))
	for _, arc := range arcs {
		s := r.segOf(arc)
		if seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

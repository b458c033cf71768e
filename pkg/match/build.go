package match

import (
	"context"
	"errors"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// build turns a part into a matching: the route through its waypoints,
// found by package route as directions are, its steps when asked for, its
// confidence, and the tracepoints of its fixes. Should route find no path
// where the transition search found one (it searches by time, not
// length, so this is rare), the part is split at that leg.
func (m *Matcher) build(ctx context.Context, res *Result, t Trace, cs candidateSet, p part, st *graph.State) error {
	if len(p.points) < 2 {
		return nil
	}
	placed := make([]snap.Snapped, len(p.points))
	for k, st := range p.chosen {
		placed[k] = snap.Snapped{Result: cs.all[st/2]}
	}
	rt, err := m.r.RouteThrough(ctx, placed, st)
	var we *route.WaypointError
	if errors.As(err, &we) && errors.Is(err, route.ErrNoRoute) {
		a, b := p.split(we.Index + 1)
		if err := m.build(ctx, res, t, cs, a, st); err != nil {
			return err
		}
		return m.build(ctx, res, t, cs, b, st)
	}
	if err != nil {
		return err
	}
	if t.Steps {
		dests := make([]route.Point, len(p.points))
		for k, i := range p.points {
			dests[k] = t.Points[i]
		}
		m.r.Narrate(rt, dests, t.MaxSteps)
	}
	id := len(res.Matchings)
	mean := 0.0
	for k, i := range p.points {
		mean += p.share[k]
		res.Tracepoints[i] = Tracepoint{Matched: true, Place: rt.Snapped[k], Matching: id, Waypoint: k,
			Alternate: cs.start[i+1] - cs.start[i] - 1}
	}
	mean /= float64(len(p.points))
	res.Matchings = append(res.Matchings, Matching{Route: rt, Confidence: mean * float64(p.span-p.dropped) / float64(max(p.span, 1)),
		Waypoints: p.points})
	m.placeFolded(res, cs, p, rt, id)
	return nil
}

// split cuts p before waypoint k; the dropped fixes between are lost to
// both halves' spans, and the folded fixes go with the half they follow.
func (p part) split(k int) (part, part) {
	a := part{points: p.points[:k], chosen: p.chosen[:k], share: p.share[:k], span: k}
	b := part{points: p.points[k:], chosen: p.chosen[k:], share: p.share[k:], span: len(p.points) - k}
	for _, f := range p.folded {
		if f < p.points[k] {
			a.folded = append(a.folded, f)
		} else {
			b.folded = append(b.folded, f)
		}
	}
	return a, b
}

// placeFolded places each fix kept out of the model on the leg it falls
// in: at its nearest candidate on a road of that leg (or, after the last
// waypoint, on the last waypoint's road). A fix with none there is left
// unmatched.
func (m *Matcher) placeFolded(res *Result, cs candidateSet, p part, rt *route.Route, id int) {
	g := m.r.Graph()
	k := 0
	for _, i := range p.folded {
		for k+1 < len(p.points) && p.points[k+1] < i {
			k++
		}
		onLeg := func(seg uint32) bool { return seg == rt.Snapped[k].Seg }
		if k < len(rt.Legs) {
			leg := rt.Legs[k]
			onLeg = func(seg uint32) bool {
				if seg == rt.Snapped[k].Seg || seg == rt.Snapped[k+1].Seg {
					return true
				}
				for _, a := range leg.Arcs {
					if s, _ := g.ArcSegment(a); s == seg {
						return true
					}
				}
				return false
			}
		}
		lo, hi := cs.of(i)
		for c := lo; c < hi; c++ { // nearest first
			if onLeg(cs.all[c].Seg) {
				res.Tracepoints[i] = Tracepoint{Matched: true, Place: cs.all[c], Matching: id, Waypoint: -1, Alternate: hi - lo - 1}
				break
			}
		}
	}
}

package route

import (
	"context"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// RouteThrough finds the fastest route through waypoints placed by Place,
// under st. A waypoint placed on a road off the profile's main component
// (see package snap) may be one no path leaves or reaches: when a leg finds
// no path, each of its two waypoints that has a fallback moves to it, for
// both legs that meet there so that the route stays continuous, and the
// legs touching a moved waypoint are searched again. The route's Snapped
// says where each waypoint ended up.
func (r *Router) RouteThrough(ctx context.Context, placed []snap.Snapped, st *graph.State) (*Route, error) {
	use := make([]snap.Result, len(placed))
	for i, p := range placed {
		use[i] = p.Result
	}
	moved := make([]bool, len(placed))
	legs := make([]Leg, len(placed)-1)
	found := make([]bool, len(legs))
	q, err := r.QueryContext(ctx) // waits for a search worker, at most until ctx ends
	if err != nil {
		return nil, err
	}
	defer r.PutQuery(q)
	q.SetState(st)
	for {
		failed, searched := -1, false
		for i := range legs {
			// A leg that leaves the way the one before arrives (throughLeg)
			// is searched again after it.
			if found[i] && !(searched && placed[i].Options.Bearing != nil) {
				searched = false
				continue
			}
			searched = true
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if legs[i], found[i] = r.throughLeg(q, placed, use, legs, i); !found[i] {
				failed = i
				break
			}
		}
		if failed < 0 {
			return r.assemble(use, legs, st), nil
		}
		fellBack := false
		for _, w := range [2]int{failed, failed + 1} {
			if !moved[w] && placed[w].HasFallback {
				use[w], moved[w], fellBack = placed[w].Fallback, true, true
				found[max(w-1, 0)] = false
				found[min(w, len(legs)-1)] = false
			}
		}
		if !fellBack {
			fellBack = r.fallBackNow(placed, use, moved, failed, st)
			for _, w := range [2]int{failed, failed + 1} {
				if moved[w] {
					found[max(w-1, 0)] = false
					found[min(w, len(legs)-1)] = false
				}
			}
		}
		if !fellBack {
			return nil, &WaypointError{Index: failed, Err: ErrNoRoute}
		}
	}
}

// throughLeg finds leg i. When its first waypoint is a stop on the way
// placed with a bearing that admits both directions of its road (a
// tolerance of 90 degrees or more), the leg leaves it the way the previous
// leg arrived: turning round there would be turning round in the road
// (graph's U-turn rule), which a bearing does not ask for. Only when no
// path leaves that way does it leave the other. The choice is greedy, leg
// by leg: the previous leg's arrival is not reconsidered.
func (r *Router) throughLeg(q *ch.Query, placed []snap.Snapped, use []snap.Result, legs []Leg, i int) (Leg, bool) {
	a := use[i]
	if i == 0 || placed[i].Options.Bearing == nil || a.NoForward || a.NoBackward {
		return r.Leg(q, a, use[i+1])
	}
	if r.arrivesBackward(legs[i-1], use[i-1], a) {
		a.NoForward = true
	} else {
		a.NoBackward = true
	}
	if leg, ok := r.Leg(q, a, use[i+1]); ok {
		return leg, true
	}
	return r.Leg(q, use[i], use[i+1])
}

// arrivesBackward reports whether leg, from a to b, reaches b travelling
// its segment backwards.
func (r *Router) arrivesBackward(leg Leg, a, b snap.Result) bool {
	if leg.Direct {
		return b.Frac < a.Frac
	}
	_, reversed := r.g.ArcSegment(leg.Arcs[len(leg.Arcs)-1])
	return reversed
}

// fallBackNow moves the waypoints of failed leg that are not yet moved
// and lie off the main component at the time of travel (a time-conditioned
// closure can cut off a road that is on the main component at other times:
// issue 36) to their nearest road on it, within their radius and bearing.
// It reports whether any moved.
func (r *Router) fallBackNow(placed []snap.Snapped, use []snap.Result, moved []bool, failed int, st *graph.State) bool {
	main := st.MainSegments()
	if main == nil {
		return false
	}
	any := false
	for _, w := range [2]int{failed, failed + 1} {
		if moved[w] || main[use[w].Seg] {
			continue
		}
		p := placed[w]
		if res, ok := r.finder.NearestOnMain(p.From[0], p.From[1], p.Options, st, main); ok {
			use[w], moved[w], any = res, true, true
		}
	}
	return any
}

// assemble totals the legs; the route's shape is drawn from them when
// asked for (Route.Shape, Route.AppendPolyline).
func (r *Router) assemble(snapped []snap.Result, legs []Leg, st *graph.State) *Route {
	rt := &Route{Snapped: snapped, Legs: legs, st: st, g: r.g}
	for _, leg := range legs {
		rt.DistanceM += leg.DistanceM
		rt.DurationS += leg.DurationS
	}
	return rt
}

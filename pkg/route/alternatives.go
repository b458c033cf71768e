package route

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// Bounds of an acceptable alternative (Abraham, Delling, Goldberg and
// Werneck, "Alternative routes in road networks", 2010): it shares at most
// MaxShare of the shorter route's length with the best route and with every
// other alternative, takes at most MaxStretch times the best route's time,
// and every stretch of it around its via arc of LocalWindow of the best
// route's time each way is itself a shortest path (no detour a driver
// would never take).
const (
	MaxShare    = 0.75
	MaxStretch  = 1.3
	LocalWindow = 0.25
	// maxChecks bounds the candidates unpacked and checked per call
	// (besides one per alternative asked for): they come best first, and
	// the later ones rarely pass.
	maxChecks = 12
	// searchAlternatives is the fewest alternatives the search looks for,
	// whatever is asked: see Alternatives.
	searchAlternatives = 2
	// conesMaxM is the longest best route whose candidates come from the
	// cones above it (ch.Query.Vias); longer routes take them from the
	// search spaces (ch.Query.SpaceVias). The cones grow with the route:
	// across the 3M-node country a call on a 700 km route cost 1.7 ms of
	// CPU with them, twelve times the route's own search, and 0.37 ms with
	// the search spaces, which give an alternative to more such trips (75 %
	// of 100 trips against 67 %). On short routes the search spaces are
	// small (on Andorra a car trip gets an alternative from them a quarter
	// less often) and the cones cheap (docs/benchmarks-history.md, issue
	// 37).
	conesMaxM = 100_000
)

// Alternatives finds up to n routes from a to b that differ from best (a
// two-waypoint route from Route), fewer when fewer good ones exist. It is
// the via-node method. On a best route of at most conesMaxM, with exact
// distances (X-BDV, Abraham et al.) over the part of the hierarchy above
// the arcs one turn off the best route (ch.Query.Vias): each node v there
// gives the path a → v → b made of the fastest path to v and the fastest
// path from it. On a longer one, as OSRM's CH alternatives and X-CHV, over
// the nodes both upward searches settle (ch.Query.SpaceVias), each giving
// the path through it along both search trees. Either way a candidate
// knows, without unpacking its path, about where it leaves the best route
// and rejoins it. Candidates are ranked by time and by the time they share
// with the best route (as OSRM ranks its CH alternatives), those leading
// to one path counted once; the best ranked are unpacked, rid of out-and-back spurs
// (unloop.go), and kept when they pass the bounds above, in true times and
// metres, against best and every alternative kept before them.
//
// When fewer than two (or the three asked for) were found on a route of at
// most penaltyMaxM, the penalty method (penalty.go) looks for more: on
// Andorra it gives a second or third alternative to several times as many
// trips, at five times the CPU (docs/benchmarks-history.md).
//
// The search does not depend on n below searchAlternatives: asking for one
// runs the search asking for two runs, stopping at the first route kept,
// so one alternative is returned whenever two would return any, and it is
// the first of those two (issue 36: with the lighter search for one, 108 of
// 1,800 Andorra trips got none where asking for two gave one).
func (r *Router) Alternatives(ctx context.Context, best *Route, n int) []*Route {
	return r.alternatives(ctx, best, n, best.DistanceM > conesMaxM)
}

// alternatives is Alternatives with the candidates taken from the search
// spaces (spaces) or from the cones above the route.
func (r *Router) alternatives(ctx context.Context, best *Route, n int, spaces bool) []*Route {
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
	w := altWork.Get().(*altScratch)
	defer altWork.Put(w)
	bestArcs := best.Legs[0].Arcs
	// Costs hold destination penalties (graph.DestinationPenalty): a
	// candidate may enter as many destination-only areas as the best route,
	// no more, and take MaxStretch times its time.
	bestCost := best.Legs[0].weight
	limit := graph.Penalties(bestCost) + uint32(float64(graph.Unpenalised(bestCost))*MaxStretch) + 1
	if !w.measure(r.g, st, e, bestArcs) {
		return nil
	}
	if spaces {
		found := ch.Result{Arcs: bestArcs, Cost: bestCost, Meet: best.Legs[0].meet}
		w.vias = q.SpaceVias(e.Sources, e.Targets, found, limit, w.vias[:0])
	} else {
		w.around = w.aroundRoute(r.g, bestArcs)
		w.vias = q.Vias(e.Sources, e.Targets, bestArcs, w.around, limit, w.vias[:0])
	}
	w.rank(bestCost)
	if len(w.prints) < n+2 {
		w.prints = make([]footprint, n+2)
	}
	w.shareMuch = w.shareMuch[:0]
	k := keeper{r: r, w: w, best: best, bestCost: bestCost, e: e}
	k.start()
	defer k.finish()
	searched := max(n, searchAlternatives)
	for i := 0; i < len(w.vias) && i < maxChecks+searched && len(k.kept) <= n && ctx.Err() == nil; i++ {
		v := w.vias[i]
		res := q.ViaPath(v, w.arcs[:0])
		w.arcs = res.Arcs
		cost := uint64(v.Cost)
		arcs, at, ok := r.unloop(res.Arcs, slices.Index(res.Arcs, v.Node), &w.seen)
		if !ok {
			continue
		}
		h := pathHash(arcs)
		if slices.Contains(w.shareMuch, h) {
			continue // this path shares too much, whichever its via node
		}
		// A path unlooped, or crossing a road an operation changes (the
		// hierarchy's cost is the time without it, unless customized), is
		// costed again.
		if len(arcs) < len(res.Arcs) || !q.Customized() && st.Overlay().Touches(arcs) {
			if cost, ok = r.pathCost(st, e, arcs); !ok || cost >= uint64(limit) {
				continue
			}
		}
		leg := r.makeLeg(st, a, b, arcs, uint32(cost))
		leg.via = at
		if k.consider(leg, true) == sharesMuch {
			w.shareMuch = append(w.shareMuch, h)
		}
	}
	if len(k.kept) <= n && ctx.Err() == nil && best.DistanceM <= penaltyMaxM {
		r.penaltyAlternatives(ctx, &k, n, limit)
	}
	return k.kept[1:]
}

// aroundRoute lists the arcs whose hierarchy cones hold the candidates:
// every arc one turn off the best route, where a detour may begin (U-turns
// aside: no detour worth showing starts by turning back). The route's own
// arcs are no seeds: a via node on the route gives the route itself, and
// the cones above the arcs off it hold the route's arcs that matter
// anyway; without them the cones are a quarter smaller by car and
// alternatives are found on as many trips (docs/benchmarks-history.md).
func (w *altScratch) aroundRoute(g *graph.Graph, arcs []uint32) []uint32 {
	out := w.around[:0]
	for i, a := range arcs {
		back := g.ArcOf[g.ArcSegRef(a)^1] // the U-turn's arc (NoArc on a one-way road)
		begin, end := g.Turns.Out(a)
		for j := begin; j < end; j++ {
			if to, _, _ := g.Turn(j); to != back && (i+1 == len(arcs) || to != arcs[i+1]) {
				out = append(out, to)
			}
		}
	}
	return out
}

// measure notes the time from a to each arc's end along the best route,
// without destination penalties.
func (w *altScratch) measure(g *graph.Graph, st *graph.State, e Ends, arcs []uint32) bool {
	w.cumEnd = append(w.cumEnd[:0], uint64(seedCost(e.Sources, arcs[0])))
	for i := 1; i < len(arcs); i++ {
		t, ok := turnWeight(g, st, arcs[i-1], arcs[i])
		if !ok {
			return false
		}
		w.cumEnd = append(w.cumEnd, w.cumEnd[i-1]+uint64(graph.Unpenalised(t)))
	}
	return true
}

// sharedTime is the time a candidate's path surely shares with the best
// route: the route up to the end of the arc it leaves it on, and from the
// start of the arc it rejoins it on.
func (w *altScratch) sharedTime(v ch.Via, bestCost uint32) uint64 {
	var t uint64
	if v.Leaves >= 0 {
		t += w.cumEnd[v.Leaves]
	}
	switch {
	case v.Joins == 0:
		t += uint64(bestCost)
	case v.Joins < len(w.cumEnd):
		t += uint64(bestCost) - min(uint64(bestCost), w.cumEnd[v.Joins-1])
	}
	return t
}

// rank orders the candidates best first, as OSRM does: by twice their time
// plus the time they share with the best route, so that a slightly slower
// candidate that shares less comes before one that mostly follows the best
// route. Candidates that surely share too much, or rejoin the route before
// they leave it, go, and of candidates that leave and rejoin it at the same
// arcs at the same cost (nodes along one detour) only the first stays.
func (w *altScratch) rank(bestCost uint32) {
	bestCost = graph.Unpenalised(bestCost) // shared times leave penalties out (measure)
	maxShared := uint64(MaxShare * float64(bestCost))
	w.vias = slices.DeleteFunc(w.vias, func(v ch.Via) bool {
		return v.Leaves >= v.Joins || w.sharedTime(v, bestCost) > maxShared
	})
	key := func(v ch.Via) uint64 { return 2*uint64(v.Cost) + w.sharedTime(v, bestCost) }
	slices.SortFunc(w.vias, func(x, y ch.Via) int {
		return cmp.Or(cmp.Compare(key(x), key(y)), cmp.Compare(x.Leaves, y.Leaves), cmp.Compare(x.Joins, y.Joins),
			cmp.Compare(x.Node, y.Node))
	})
	w.vias = slices.CompactFunc(w.vias, func(x, y ch.Via) bool {
		return x.Cost == y.Cost && x.Leaves == y.Leaves && x.Joins == y.Joins
	})
}

// pathHash identifies a path by its arcs (FNV-1a). Nodes along one detour,
// or at the tips of spurs off it, lead to one path once unlooped: on
// Andorra about 40 % of the candidates checked by car repeated one checked
// before. Whether a path shares too much does not depend on its via node,
// so such a path is not measured twice; the T-test, which looks around the
// via node, is run again.
func pathHash(arcs []uint32) uint64 {
	h := uint64(14695981039346656037)
	for _, a := range arcs {
		h = (h ^ uint64(a)) * 1099511628211
	}
	return h
}

// seedCost is the cost of seed arc in seeds, 0 if it is none of them.
func seedCost(seeds []search.Seed, arc uint32) uint32 {
	for _, s := range seeds {
		if s.Node == arc {
			return s.Cost
		}
	}
	return 0
}

// altScratch is one Alternatives call's memory, pooled across calls,
// routers and releases: it holds buffers only, stamped or overwritten per
// use, so nothing one call leaves behind is visible to the next.
type altScratch struct {
	vias      []ch.Via
	prints    []footprint // the kept routes', then the candidate's
	arcs      []uint32    // the candidate's
	cumEnd    []uint64    // time from a to each best route arc's end
	around    []uint32    // the arcs the via search looks above
	overlap   overlap
	seen      segMap[int32]
	shareMuch []uint64 // pathHash of the candidates found to share too much in this call
	best      overlap  // the best route's footprint, held once per call
}

var altWork = sync.Pool{New: func() any { return new(altScratch) }}

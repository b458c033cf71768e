// Package route answers directions: it snaps waypoints onto a profile's
// graph, finds the fastest path for each consecutive pair with the
// contraction hierarchy, and assembles legs, totals and the route's shape.
//
// A Router is safe for concurrent use. It keeps a fixed set of search
// workers' memory (search.Pool, search.DefaultWorkers of them): a
// computation takes one for as long as it searches, and waits when all are
// taken, so the memory searches hold does not grow with the number of
// clients. Routes returned own their memory.
package route

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Errors a caller can test for with errors.Is.
var (
	// ErrUnsnappable: a waypoint is farther than the snapping radius from any
	// road the profile may use.
	ErrUnsnappable = errors.New("route: waypoint is not near a usable road")
	// ErrNoRoute: the waypoints are on roads, but no path joins them.
	ErrNoRoute = errors.New("route: no path between waypoints")
)

// WaypointError says which waypoint or leg failed.
type WaypointError struct {
	Index int // waypoint index, or leg index for ErrNoRoute
	Err   error
}

func (e *WaypointError) Error() string {
	if errors.Is(e.Err, ErrNoRoute) {
		return fmt.Sprintf("%v: leg %d (waypoint %d to %d)", e.Err, e.Index, e.Index, e.Index+1)
	}
	return fmt.Sprintf("%v: waypoint %d", e.Err, e.Index)
}

func (e *WaypointError) Unwrap() error { return e.Err }

// Router answers directions for one profile.
type Router struct {
	g       *graph.Graph
	h       *ch.Hierarchy
	ix      *snap.Index
	maxSnap float64
	queries *search.Pool[*ch.Query]
	tests   *search.Pool[*ch.Query] // Alternatives' second query, one per worker
}

// NewRouter serves profile graph g with its hierarchy h and snapping index
// ix. maxSnap is the snapping radius in metres (0 means snap.MaxDistance).
func NewRouter(g *graph.Graph, h *ch.Hierarchy, ix *snap.Index, maxSnap float64) *Router {
	if maxSnap <= 0 {
		maxSnap = snap.MaxDistance
	}
	workers := search.DefaultWorkers()
	return &Router{g: g, h: h, ix: ix, maxSnap: maxSnap,
		queries: search.NewPool(workers, func() *ch.Query { return ch.NewQuery(h) }),
		tests:   search.NewPool(workers, func() *ch.Query { return ch.NewQuery(h) }),
	}
}

// Query takes a hierarchy query from the router's workers, waiting while
// all are busy; give it back with PutQuery when done.
func (r *Router) Query() *ch.Query {
	q, _ := r.queries.Get(context.Background()) // cannot fail without a deadline
	return q
}

// QueryContext is Query, giving up with ctx's error when ctx ends first.
func (r *Router) QueryContext(ctx context.Context) (*ch.Query, error) {
	return r.queries.Get(ctx)
}

// TryQuery takes a query only if a worker is free at once: for extra
// parallel work by a computation that already holds one (see search.Pool).
func (r *Router) TryQuery() (*ch.Query, bool) { return r.queries.TryGet() }

// PutQuery gives a query back to the workers.
func (r *Router) PutQuery(q *ch.Query) { r.queries.Put(q) }

// Workers returns how many computations may search at once.
func (r *Router) Workers() int { return r.queries.Size() }

// StateAt returns the state of the profile's time conditions at t (the
// zero time means now), to pass to Route or ch.Query.SetState; nil when the
// profile has none.
func (r *Router) StateAt(t time.Time) *graph.State {
	if t.IsZero() {
		t = time.Now()
	}
	return r.g.StateAt(t)
}

// Index returns the snapping index the router uses.
func (r *Router) Index() *snap.Index { return r.ix }

// Graph returns the profile graph the router serves.
func (r *Router) Graph() *graph.Graph { return r.g }

// Hierarchy returns the router's contraction hierarchy.
func (r *Router) Hierarchy() *ch.Hierarchy { return r.h }

// Leg is the part of a route between two consecutive waypoints.
type Leg struct {
	DistanceM float64
	DurationS float64
	Arcs      []uint32 // arcs travelled, the first and last only in part
	Direct    bool     // along one segment, from point to point
	via       int      // for an alternative: index in Arcs of its via arc
	st        *graph.State
}

// Route is the fastest way through all waypoints in order.
type Route struct {
	DistanceM float64
	DurationS float64
	Legs      []Leg
	Shape     []Point
	Snapped   []snap.Result
	st        *graph.State // the conditions it was found under
}

// Snap places every waypoint on the graph.
func (r *Router) Snap(pts []Point) ([]snap.Result, error) {
	out := make([]snap.Result, len(pts))
	for i, p := range pts {
		res, err := r.ix.Nearest(r.g, p[0], p[1], r.maxSnap)
		if err != nil {
			return nil, &WaypointError{Index: i, Err: ErrUnsnappable}
		}
		out[i] = res
	}
	return out, nil
}

// Route snaps the waypoints and finds the fastest route through them under
// st, the state of the graph's conditions at departure (nil for none: see
// graph.Graph.StateAt).
func (r *Router) Route(ctx context.Context, pts []Point, st *graph.State) (*Route, error) {
	snapped, err := r.Snap(pts)
	if err != nil {
		return nil, err
	}
	q, err := r.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer r.PutQuery(q)
	q.SetState(st)
	rt := &Route{Snapped: snapped, Legs: make([]Leg, len(pts)-1), st: st}
	for i := range rt.Legs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		leg, ok := r.Leg(q, snapped[i], snapped[i+1])
		if !ok {
			return nil, &WaypointError{Index: i, Err: ErrNoRoute}
		}
		rt.Shape = r.appendShape(rt.Shape, snapped[i], snapped[i+1], leg)
		rt.Legs[i] = leg
		rt.DistanceM += leg.DistanceM
		rt.DurationS += leg.DurationS
	}
	return rt, nil
}

// Leg finds the fastest path from a to b with query q, under the state q
// was given.
func (r *Router) Leg(q *ch.Query, a, b snap.Result) (Leg, bool) {
	st := q.State()
	e := MakeEnds(r.g, st, a, b)
	res, ok := q.Shortest(e.Sources, e.Targets, nil)
	if e.Direct != search.Unreached && (!ok || e.Direct <= res.Cost) {
		return Leg{DurationS: float64(e.Direct) / 1000, Direct: true, st: st,
			DistanceM: abs(b.Frac-a.Frac) * float64(r.g.Net.SegLength[a.Seg])}, true
	}
	if !ok {
		return Leg{}, false
	}
	arcs := res.Arcs
	if origin := e.Origin[res.Source]; origin != e.Sources[res.Source].Node {
		arcs = append([]uint32{origin}, arcs...)
	}
	return r.makeLeg(st, a, b, arcs, res.Cost), true
}

// makeLeg measures a leg that travels arcs (the first and last in part)
// from a to b in cost milliseconds.
func (r *Router) makeLeg(st *graph.State, a, b snap.Result, arcs []uint32, cost uint32) Leg {
	leg := Leg{DurationS: float64(cost) / 1000, Arcs: arcs, st: st}
	net := r.g.Net
	leg.DistanceM = r.partLength(a, arcs[0], true) + r.partLength(b, arcs[len(arcs)-1], false)
	for _, arc := range arcs[1 : len(arcs)-1] {
		leg.DistanceM += float64(net.SegLength[r.segOf(arc)])
	}
	return leg
}

func (r *Router) segOf(arc uint32) uint32 {
	s, _ := r.g.ArcSegment(arc)
	return s
}

// partLength is the length of arc between point p and the arc's end (for
// the first arc of a leg) or its start (for the last).
func (r *Router) partLength(p snap.Result, arc uint32, first bool) float64 {
	_, reversed := r.g.ArcSegment(arc)
	length := float64(r.g.Net.SegLength[p.Seg])
	if reversed == first {
		return p.Frac * length
	}
	return (1 - p.Frac) * length
}

// appendShape adds a leg's shape to the route's.
func (r *Router) appendShape(pts []Point, a, b snap.Result, leg Leg) []Point {
	net := r.g.Net
	if leg.Direct {
		return AppendPart(pts, net, a.Seg, a.Frac, b.Frac)
	}
	pts = slices.Grow(pts, r.shapePoints(leg))
	first, last := leg.Arcs[0], leg.Arcs[len(leg.Arcs)-1]
	if _, rev := r.g.ArcSegment(first); rev {
		pts = AppendPart(pts, net, a.Seg, a.Frac, 0)
	} else {
		pts = AppendPart(pts, net, a.Seg, a.Frac, 1)
	}
	for _, arc := range leg.Arcs[1 : len(leg.Arcs)-1] {
		pts = appendSegment(pts, net, r.g.ArcSegRef(arc))
	}
	if _, rev := r.g.ArcSegment(last); rev {
		return AppendPart(pts, net, b.Seg, 1, b.Frac)
	}
	return AppendPart(pts, net, b.Seg, 0, b.Frac)
}

// shapePoints is at most how many points appendShape adds for leg, so that
// a route's shape is allocated once at its size rather than grown by
// doubling (which made most of a directions request's garbage).
func (r *Router) shapePoints(leg Leg) int {
	n := 0
	for _, arc := range leg.Arcs {
		s, _ := r.g.ArcSegment(arc)
		begin, end := r.g.Net.Points(s)
		n += int(end-begin) + 1 // +1: a partial segment adds its cut point
	}
	return n
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

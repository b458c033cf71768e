// Package route answers directions: it places waypoints on a profile's
// graph (package snap, falling back to a waypoint's nearest road on the
// main component when no path uses the road it snapped to), finds the
// fastest path for each consecutive pair with the contraction hierarchy,
// and assembles legs, totals and the route's shape; Directions adds the
// alternatives, each route's steps and climb, and where each waypoint met
// the network, so that callers only write the answer.
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
	"sync"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Errors a caller can test for with errors.Is.
var (
	// ErrUnsnappable: a waypoint could not be placed on a road the profile
	// may use; the error also wraps snap's reason (snap.ErrOutside or
	// snap.ErrTooFar, the latter as a *snap.FarError).
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
	finder  *snap.Finder
	queries *search.Pool[*ch.Query]
	tests   *search.Pool[*ch.Query] // Alternatives' second query, one per worker
	ops     opsPointer              // published road operations (operations.go)
	// excluded holds, per set of kinds, the arcs a request's exclusions
	// close (exclude.go).
	excluded [excludeAll + 1]atomic.Pointer[[]uint32]
	// avoided holds, per hiking limit (0 for none) and steps, the arcs
	// they close (avoid.go).
	avoided [8][2]atomic.Pointer[[]uint32]
	states  stateCache // states under overlays, kept (operations.go)
	custom  customizer // the hierarchy contracted again under operations (customize.go)
}

// NewRouter serves profile graph g with its hierarchy h, placing points
// with f, the snapping index seen by g's profile.
func NewRouter(g *graph.Graph, h *ch.Hierarchy, f *snap.Finder) *Router {
	workers := search.DefaultWorkers()
	return &Router{g: g, h: h, finder: f,
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
// zero time means now) with the road operations in force then (see
// SetOperations), to pass to Route or ch.Query.SetState; nil when the
// profile has neither.
func (r *Router) StateAt(t time.Time) *graph.State {
	return r.StateExcluding(t, 0)
}

// StateExcluding is StateAt with the roads x excludes closed as well (a
// request's exclusions, exclude.go).
func (r *Router) StateExcluding(t time.Time, x Exclude) *graph.State {
	return r.StateWith(t, x, Vehicle{}, Avoid{})
}

// StateFor is StateExcluding with the arcs vehicle v is refused closed as
// well (a request's vehicle, vehicle.go).
func (r *Router) StateFor(t time.Time, x Exclude, v Vehicle) *graph.State {
	return r.StateWith(t, x, v, Avoid{})
}

// StateAvoiding is StateExcluding with what a keeps off closed too
// (avoid.go).
func (r *Router) StateAvoiding(t time.Time, x Exclude, a Avoid) *graph.State {
	return r.StateWith(t, x, Vehicle{}, a)
}

// StateWith is the state of a request departing at t: the roads x
// excludes, the arcs vehicle v is refused (none for the profile's own) and
// what a keeps off closed, in one overlay. A state with avoid areas is the
// request's own: it is not kept for others.
func (r *Router) StateWith(t time.Time, x Exclude, v Vehicle, a Avoid) *graph.State {
	if t.IsZero() {
		t = time.Now()
	}
	base, ov := r.g.StateAt(t), r.overlayAt(t, x, r.closingFor(v), a)
	switch {
	case ov == nil:
		return base.With(nil)
	case a.Areas != nil:
		return base.With(ov)
	}
	return r.states.with(base, ov)
}

// Finder returns the snapping index the router places points with.
func (r *Router) Finder() *snap.Finder { return r.finder }

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
	// Operated is true when the fastest path without the road operations
	// in force crossed a road they change, so this leg was found under them
	// (repair.go): its path or its time is not what it would be without.
	Operated bool
	via      int // for an alternative: index in Arcs of its via arc
	// meet is where the hierarchy's searches met when Arcs is the path they
	// found from the leg's own seeds (ch.Result.Meet), else ch.NoMeet.
	meet   uint32
	weight uint32 // the search's cost: DurationS in ms plus destination penalties (graph.DestinationPenalty)
	points int    // at least the points its shape adds (Route.MaxPoints)
	st     *graph.State
}

// Route is the fastest way through all waypoints in order.
type Route struct {
	DistanceM float64
	DurationS float64
	Legs      []Leg
	Snapped   []snap.Result // where each waypoint was placed, fallbacks applied
	// Steps (per leg) and Climb are filled by Directions when asked for.
	Steps [][]guidance.Step
	Climb elevation.Climb // Covered is false when not computed or out of the DEM
	st    *graph.State    // the conditions it was found under
	g     *graph.Graph    // whose network draws its Shape
	moved bool            // road operations moved a waypoint (Router.MovedByOperations)
}

// Snap places every waypoint on the graph by the default rule, with no
// conditions in force, and returns the roads chosen.
func (r *Router) Snap(pts []Point) ([]snap.Result, error) {
	placed, err := r.Place(pts, nil, nil)
	if err != nil {
		return nil, err
	}
	out := make([]snap.Result, len(placed))
	for i, p := range placed {
		out[i] = p.Result
	}
	return out, nil
}

// Place places every point by its options (opts nil, or shorter than pts,
// means the default for the rest) under st, the state of the conditions at
// the time of travel (nil for none). It fails on the first point that
// cannot be placed, with a *WaypointError naming it.
func (r *Router) Place(pts []Point, opts []snap.Options, st *graph.State) ([]snap.Snapped, error) {
	out := make([]snap.Snapped, len(pts))
	for i, p := range pts {
		var err error
		if out[i], err = r.PlaceOne(p, optionAt(opts, i), st); err != nil {
			return nil, &WaypointError{Index: i, Err: err}
		}
	}
	return out, nil
}

// PlaceOne places one point; its error wraps ErrUnsnappable and snap's
// reason.
func (r *Router) PlaceOne(p Point, o snap.Options, st *graph.State) (snap.Snapped, error) {
	s, err := r.finder.Nearest(p[0], p[1], o, st)
	if err != nil {
		return snap.Snapped{}, fmt.Errorf("%w: %w", ErrUnsnappable, err)
	}
	return s, nil
}

func optionAt(opts []snap.Options, i int) snap.Options {
	if i < len(opts) {
		return opts[i]
	}
	return snap.Options{}
}

// Route places the waypoints by the default rule and finds the fastest
// route through them under st, the state of the graph's conditions at
// departure (nil for none: see graph.Graph.StateAt).
func (r *Router) Route(ctx context.Context, pts []Point, st *graph.State) (*Route, error) {
	placed, err := r.Place(pts, nil, st)
	if err != nil {
		return nil, err
	}
	return r.RouteThrough(ctx, placed, st)
}

// Leg finds the fastest path from a to b with query q, under the state q
// was given.
func (r *Router) Leg(q *ch.Query, a, b snap.Result) (Leg, bool) {
	st := q.State()
	e := MakeEnds(r.g, st, a, b)
	if e.Direct == 0 {
		// b is where a is (a table's diagonal, a repeated waypoint), or so
		// little ahead along the road that no millisecond passes: no path
		// costs less, and a tie goes to the direct way, so the search,
		// which would look for a way around and back, is not run.
		return r.directLeg(st, a, b, e.Direct), true
	}
	scratch := arcScratch.Get().(*[]uint32)
	defer arcScratch.Put(scratch)
	res, ok := q.Shortest(e.Sources, e.Targets, (*scratch)[:0])
	if ok {
		*scratch = res.Arcs[:0] // grown to this path: keep it for the next
		if !q.Customized() && crossesOperations(st.Overlay(), e, res) {
			leg, ok := r.repairLeg(st, e, a, b) // repair.go
			leg.Operated = operatedPath(st.Overlay(), e, res)
			return leg, ok
		}
	}
	operated := q.Customized() && r.operatedCustomized(q, e, res, ok)
	if e.Direct != search.Unreached && (!ok || e.Direct <= res.Cost) {
		return r.directLeg(st, a, b, e.Direct), true
	}
	if !ok {
		return Leg{Operated: operated}, false
	}
	// The leg keeps its arcs in one slice of their size: unpacked into the
	// pooled buffer, they cost one allocation rather than one per doubling.
	arcs := make([]uint32, 0, len(res.Arcs)+1)
	meet := res.Meet
	if origin := e.Origin[res.Source]; origin != e.Sources[res.Source].Node {
		arcs = append(arcs, origin)
		meet = ch.NoMeet // no longer the searches' path alone
	}
	arcs = append(arcs, res.Arcs...)
	leg := r.makeLeg(st, a, b, arcs, res.Cost)
	leg.meet = meet
	leg.Operated = operated
	return leg, true
}

// directLeg is the leg from a to b along their common segment, at cost
// milliseconds (Ends.Direct).
func (r *Router) directLeg(st *graph.State, a, b snap.Result, cost uint32) Leg {
	begin, end := r.g.Net.Points(a.Seg)
	return Leg{DurationS: float64(cost) / 1000, Direct: true, st: st, points: int(end-begin) + 2, weight: cost, meet: ch.NoMeet,
		DistanceM: abs(b.Frac-a.Frac) * float64(r.g.Net.SegLength[a.Seg])}
}

// arcScratch pools the buffers paths are unpacked into (*[]uint32), each
// grown to the longest path it has held; it holds no state a caller sees.
var arcScratch = sync.Pool{New: func() any { return new([]uint32) }}

// makeLeg measures a leg that travels arcs (the first and last in part)
// from a to b at search cost cost: its time in milliseconds plus any
// destination penalties, which the leg's duration leaves out. One pass over the arcs gives both its
// length and the size of its shape (each arc's segment is a cache miss on
// a country: reading them twice showed in profiles).
func (r *Router) makeLeg(st *graph.State, a, b snap.Result, arcs []uint32, cost uint32) Leg {
	leg := Leg{DurationS: float64(graph.Unpenalised(cost)) / 1000, Arcs: arcs, st: st, weight: cost, meet: ch.NoMeet}
	net := r.g.Net
	leg.DistanceM = r.partLength(a, arcs[0], true) + r.partLength(b, arcs[len(arcs)-1], false)
	points := 0
	for _, arc := range arcs[1 : len(arcs)-1] {
		s := r.segOf(arc)
		leg.DistanceM += float64(net.SegLength[s])
		begin, end := net.Points(s)
		points += int(end - begin)
	}
	// The end arcs are drawn in part: their points and the two cut points.
	for _, s := range [2]uint32{a.Seg, b.Seg} {
		begin, end := net.Points(s)
		points += int(end-begin) + 2
	}
	leg.points = points
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

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

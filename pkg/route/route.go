// Package route answers directions: it snaps waypoints onto a profile's
// graph, finds the fastest path for each consecutive pair, and assembles
// legs, totals and the route's shape.
//
// A Router is safe for concurrent use; it keeps a pool of searchers, one per
// goroutine in flight. Routes returned own their memory.
package route

import (
	"context"
	"errors"
	"fmt"
	"sync"

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
	g         *graph.Graph
	ix        *snap.Index
	maxSnap   float64
	searchers sync.Pool
}

// NewRouter serves profile graph g with snapping index ix. maxSnap is the
// snapping radius in metres (0 means snap.MaxDistance).
func NewRouter(g *graph.Graph, ix *snap.Index, maxSnap float64) *Router {
	if maxSnap <= 0 {
		maxSnap = snap.MaxDistance
	}
	r := &Router{g: g, ix: ix, maxSnap: maxSnap}
	r.searchers.New = func() any { return search.NewSearcher(g) }
	return r
}

// Graph returns the profile graph the router serves.
func (r *Router) Graph() *graph.Graph { return r.g }

// Leg is the part of a route between two consecutive waypoints.
type Leg struct {
	DistanceM float64
	DurationS float64
	SegRefs   []uint32 // full segments travelled, in order
}

// Route is the fastest way through all waypoints in order.
type Route struct {
	DistanceM float64
	DurationS float64
	Legs      []Leg
	Shape     []Point
	Snapped   []snap.Result
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

// Route snaps the waypoints and finds the fastest route through them.
func (r *Router) Route(ctx context.Context, pts []Point) (*Route, error) {
	snapped, err := r.Snap(pts)
	if err != nil {
		return nil, err
	}
	s := r.searchers.Get().(*search.Searcher)
	defer r.searchers.Put(s)
	rt := &Route{Snapped: snapped, Legs: make([]Leg, len(pts)-1)}
	var seeds [4]search.Seed
	for i := range rt.Legs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, b := snapped[i], snapped[i+1]
		src := Sources(r.g, a, seeds[:0])
		dst := Targets(r.g, b, seeds[2:2])
		path, ok := s.Shortest(src, dst, Direct(r.g, a, b), nil)
		if !ok {
			return nil, &WaypointError{Index: i, Err: ErrNoRoute}
		}
		leg := r.leg(a, b, path)
		rt.Shape = r.appendShape(rt.Shape, a, b, path)
		rt.Legs[i] = leg
		rt.DistanceM += leg.DistanceM
		rt.DurationS += leg.DurationS
	}
	return rt, nil
}

// leg measures a path: whole segments plus the parts of the end segments
// between the waypoints and the nodes where the path leaves and joins.
func (r *Router) leg(a, b snap.Result, p search.Path) Leg {
	net := r.g.Net
	l := Leg{DurationS: float64(p.Cost) / 1000, SegRefs: p.SegRefs}
	if p.Direct {
		l.DistanceM = abs(b.Frac-a.Frac) * float64(net.SegLength[a.Seg])
		return l
	}
	l.DistanceM = r.partLength(a, p.Source == 0 && r.g.WF[a.Seg] != graph.NoWay, true)
	for _, ref := range p.SegRefs {
		s, _ := graph.SplitSegRef(ref)
		l.DistanceM += float64(net.SegLength[s])
	}
	l.DistanceM += r.partLength(b, p.Target == 0 && r.g.WF[b.Seg] != graph.NoWay, false)
	return l
}

// partLength is the length between a snapped point and the node it leaves
// by (source) or arrives from (target); forward tells the direction.
func (r *Router) partLength(p snap.Result, forward, source bool) float64 {
	length := float64(r.g.Net.SegLength[p.Seg])
	if forward == source {
		return (1 - p.Frac) * length
	}
	return p.Frac * length
}

// appendShape adds a leg's shape to the route's.
func (r *Router) appendShape(pts []Point, a, b snap.Result, p search.Path) []Point {
	net := r.g.Net
	if p.Direct {
		return AppendPart(pts, net, a.Seg, a.Frac, b.Frac)
	}
	srcForward := p.Source == 0 && r.g.WF[a.Seg] != graph.NoWay
	if srcForward {
		pts = AppendPart(pts, net, a.Seg, a.Frac, 1)
	} else {
		pts = AppendPart(pts, net, a.Seg, a.Frac, 0)
	}
	for _, ref := range p.SegRefs {
		pts = appendSegment(pts, net, ref)
	}
	if p.Target == 0 && r.g.WF[b.Seg] != graph.NoWay {
		return AppendPart(pts, net, b.Seg, 0, b.Frac)
	}
	return AppendPart(pts, net, b.Seg, 1, b.Frac)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

package route

import (
	"context"
	"errors"
	"time"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/snap"
)

// Request is a whole directions question.
type Request struct {
	Points       []Point
	Snapping     []snap.Options // per point; nil or a zero entry for the default rule
	Departure    time.Time      // the zero time means now
	Alternatives int            // routes wanted besides the best (two waypoints only)
	Steps        bool           // narrate each leg
	Language     string         // of the steps' instructions, one of guidance.Languages; "" for the default
	MaxSteps     int            // per leg, 0 for no limit: the rest fold into the last one kept
	Terrain      Terrain        // for each route's Climb; a nil DEM skips it
	Exclude      Exclude        // kinds of road the route must not use (exclude.go)
	Vehicle      Vehicle        // the truck's vehicle, zero for the profile's own (vehicle.go)
	Avoid        Avoid          // areas, trails and steps the route keeps off (avoid.go)
}

// Terrain is what a route's climb is measured on: the release's DEM and
// the height samples mapc stored per segment (nil: sample everything now).
type Terrain struct {
	DEM     *elevation.DEM
	Samples *elevation.Samples
}

// Directions is the whole answer: routes with their steps and climbs, best
// first, and where each waypoint was placed.
type Directions struct {
	Routes    []*Route
	Waypoints []Waypoint
}

// Waypoint is where an input point met the network.
type Waypoint struct {
	Location  Point   // on the road
	DistanceM float64 // from the input point
	RoadName  string  // "" when the road has no name
}

// Directions answers req: it places the waypoints under the conditions in
// force at departure, finds the best route (see RouteThrough for the
// fallbacks) and the alternatives asked for, and narrates and measures
// each. Errors are *WaypointError (ErrUnsnappable, ErrNoRoute),
// *ExcludedError (a route exists only on roads req.Exclude or req.Avoid
// forbids) or ctx's.
func (r *Router) Directions(ctx context.Context, req Request) (*Directions, error) {
	st := r.StateWith(req.Departure, req.Exclude, req.Vehicle, req.Avoid)
	placed, err := r.Place(req.Points, req.Snapping, st)
	if err != nil {
		return nil, err
	}
	best, err := r.RouteThrough(ctx, placed, st)
	if err != nil {
		return nil, r.excludedOr(ctx, err, req, placed)
	}
	// Alternatives are for journeys of two waypoints; with more, each leg's
	// choices would multiply into routes no one asked for.
	routes := append([]*Route{best}, r.Alternatives(ctx, best, req.Alternatives)...)
	moved := r.MovedByOperations(req.Points, req.Snapping, placed, st)
	for _, rt := range routes {
		rt.moved = moved
		if req.Steps {
			rt.Steps = r.steps(rt, req)
		}
		if req.Terrain.DEM != nil {
			rt.Climb = r.Elevation(req.Terrain.DEM, req.Terrain.Samples, rt)
		}
	}
	return &Directions{Routes: routes, Waypoints: r.waypoints(best.Snapped)}, nil
}

// MovedByOperations reports whether road operations moved a point: placed
// (under st, with its options) off the road it is placed on without them,
// which an operation changes (a closure: a point on the closed road goes to
// the nearest open one). A route or a table cell from there starts or ends
// elsewhere because of them, whatever its path. A point placed[i] lacks
// (Seg 0 with an error) is skipped by the caller's choice of placed.
func (r *Router) MovedByOperations(pts []Point, opts []snap.Options, placed []snap.Snapped, st *graph.State) bool {
	ov := st.Overlay()
	if !ov.HasOperations() {
		return false
	}
	without := st.Base() // the departure's conditions alone
	for i, p := range pts {
		base, err := r.PlaceOne(p, optionAt(opts, i), without)
		if err == nil && base.Result.Seg != placed[i].Result.Seg && segmentChanged(r.g, ov, base.Result.Seg) {
			return true
		}
	}
	return false
}

// waypoints describes where each waypoint was placed.
func (r *Router) waypoints(snapped []snap.Result) []Waypoint {
	out := make([]Waypoint, len(snapped))
	for i, s := range snapped {
		out[i] = Waypoint{Location: Point{s.Lon, s.Lat}, DistanceM: s.Dist, RoadName: r.g.Net.Name(s.Seg)}
	}
	return out
}

// Narrate fills rt.Steps: every leg's steps, leg i arriving at dests[i+1]
// (the point asked for; the arrival step says on which side it lies), at
// most maxSteps a leg (0 for no limit, see Request.MaxSteps), in English.
// Map matching narrates its matchings with it.
func (r *Router) Narrate(rt *Route, dests []Point, maxSteps int) {
	rt.Steps = r.steps(rt, Request{Points: dests, MaxSteps: maxSteps})
}

// steps narrates every leg of rt.
func (r *Router) steps(rt *Route, req Request) [][]guidance.Step {
	out := make([][]guidance.Step, len(rt.Legs))
	for i, leg := range rt.Legs {
		a, b := rt.Snapped[i], rt.Snapped[i+1]
		gl := guidance.Leg{
			Pieces:   r.Pieces(leg, a, b),
			Start:    [2]float64{a.Lon, a.Lat},
			Dest:     req.Points[i+1],
			Snapped:  [2]float64{b.Lon, b.Lat},
			Language: req.Language,
		}
		if i+1 < len(rt.Legs) {
			gl.Waypoint = i + 1
		}
		steps := guidance.Steps(r.g, gl)
		out[i] = foldSteps(steps, req.MaxSteps)
	}
	placeSteps(rt, out)
	return out
}

// foldSteps keeps the first max−1 steps and the last, folding the distance
// and time of the ones between into the last kept before it, so that a
// leg's steps still add up to the leg.
func foldSteps(steps []guidance.Step, max int) []guidance.Step {
	if max < 2 || len(steps) <= max {
		return steps
	}
	last := &steps[max-2]
	for _, s := range steps[max-1 : len(steps)-1] {
		last.DistanceM += s.DistanceM
		last.DurationS += s.DurationS
	}
	return append(steps[:max-1], steps[len(steps)-1])
}

// excludedOr is err, or an *ExcludedError when err is a leg without a path
// under req's exclusions that has one without them: the client is told the
// exclusion is why, not that the places are not connected.
func (r *Router) excludedOr(ctx context.Context, err error, req Request, placed []snap.Snapped) error {
	var we *WaypointError
	if req.Exclude == 0 && req.Vehicle.IsZero() && req.Avoid.None() || !errors.As(err, &we) || !errors.Is(err, ErrNoRoute) {
		return err
	}
	if _, without := r.RouteThrough(ctx, placed, r.StateAt(req.Departure)); without != nil {
		return err
	}
	return &ExcludedError{Index: we.Index, Exclude: req.Exclude, Vehicle: req.Vehicle, Avoid: req.Avoid}
}

// Package resolve places published road operations (closures and
// slowdowns, package roadops) on one release's network: it finds the
// segments an operation names (an OSM way or part of one, a line matched
// onto the roads, or every road inside a polygon), the directions it
// affects, and what it does to each profile's arcs there, as the
// route.Operation values a route.Router applies.
//
// Resolution runs again for every release a server swaps in: tomorrow's
// release may split or renumber ways, so an operation is placed by its way
// id first and, on a release that lacks the id, along the shape the way had
// where it last resolved by it (Shapes), and one that no longer resolves is
// reported, never applied to the wrong road.
//
// A segment is the smallest unit an operation changes: a closure or a
// slowdown of part of a way changes every segment (the way between two
// junctions) that part overlaps, since a route cannot leave a road between
// junctions anyway.
package resolve

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/route"
)

// Result is how one operation resolved on a release.
type Result struct {
	ID       string
	Resolved bool
	Segments int    // segments it changes
	Detail   string // what it was placed on, or why it could not be
	// Shape is the part of the way an operation by way id was placed on
	// by that id, [lon, lat] along the way; nil otherwise. Kept with the
	// resolution (roadops.Resolution.Shape) for the releases to come.
	Shape [][2]float64
	// Segs are the segments it was placed on for any profile, in order:
	// what a map draws of it.
	Segs []uint32
}

// Shapes are the shapes operations by way id had where they last resolved
// by their way id, by operation id (roadops.Resolution.Shape): on a
// release that lacks the way id, the operation is placed along its shape
// as along a line, so that a way a mapper split or re-created overnight
// stays closed.
type Shapes map[string][][2]float64

// piece is a segment and the directions of it an operation affects,
// relative to the segment's drawing direction.
type piece struct {
	seg           uint32
	fwd, backward bool
}

// Apply resolves ops on a release's network and routers (see Resolve) and
// sets on every router the operations that apply to its profile (none
// for a profile no operation changes), returning the results.
func Apply(net *graph.Network, routers map[string]*route.Router, ops []roadops.Operation, shapes Shapes) []Result {
	byProfile, results := Resolve(net, routers, ops, shapes)
	for name, r := range routers {
		r.SetOperations(byProfile[name])
	}
	return results
}

// Resolve places the reviewed ones of ops on a release's network and its
// profiles' routers (a draft or withdrawn operation is left out, with no
// result): per profile, the route operations to apply, and a result per
// operation placed, in the order given. An operation by a way id the
// release lacks is placed by its entry in shapes, if any.
func Resolve(net *graph.Network, routers map[string]*route.Router, all []roadops.Operation, shapes Shapes) (map[string][]route.Operation, []Result) {
	var ops []roadops.Operation
	for _, op := range all {
		if op.State == roadops.ReviewReviewed {
			ops = append(ops, op)
		}
	}
	out := map[string][]route.Operation{}
	results := make([]Result, len(ops))
	ways := wayIndex(net, ops)
	for i, op := range ops {
		results[i] = Result{ID: op.ID}
		op, byShape := placedBy(op, ways, shapes)
		if net.SegWay == nil && op.Way != 0 {
			results[i].Detail = "this release keeps no OSM way ids (compiled before road operations): recompile it"
			continue
		}
		segs := 0
		drawn := map[uint32]bool{}
		for name, r := range routers {
			if !op.ForProfile(name) {
				continue
			}
			g := r.Graph()
			pieces, detail := place(net, ways, g, r.Finder(), op)
			if len(pieces) == 0 {
				if results[i].Detail == "" {
					results[i].Detail = detail
				}
				continue
			}
			if ro := effect(g, op, pieces); len(ro.Changes) > 0 {
				out[name] = append(out[name], ro)
			}
			segs = max(segs, len(pieces))
			results[i].Detail = detail
			for _, p := range pieces {
				drawn[p.seg] = true
			}
		}
		results[i].Segs = slices.Sorted(maps.Keys(drawn))
		results[i].Resolved, results[i].Segments = segs > 0, segs
		if segs == 0 && results[i].Detail == "" {
			results[i].Detail = "no road of the profiles it names is there"
		}
		switch {
		case byShape != 0:
			results[i].Detail = fmt.Sprintf("way %d is not in this release; placed by the shape it had where it last resolved: %s", byShape, results[i].Detail)
		case segs > 0 && op.Way != 0:
			results[i].Shape = wayShape(net, ways[op.Way], op)
		}
	}
	return out, results
}

// placedBy is op as it is placed: unchanged, or, for an operation by a way
// id the release lacks whose shape is known, an operation along that shape
// (a line drawn along the way), with the way id it replaced.
func placedBy(op roadops.Operation, ways map[int64][]uint32, shapes Shapes) (roadops.Operation, int64) {
	shape := shapes[op.ID]
	if op.Way == 0 || len(ways[op.Way]) > 0 || len(shape) < 2 {
		return op, 0
	}
	way := op.Way
	op.Way, op.From, op.To, op.Line = 0, nil, nil, shape
	return op, way
}

// effect is what op does to g's arcs on pieces.
func effect(g *graph.Graph, op roadops.Operation, pieces []piece) route.Operation {
	ro := route.Operation{ID: op.ID}
	if op.ValidFrom != nil {
		ro.From = *op.ValidFrom
	}
	if op.ValidUntil != nil {
		ro.Until = *op.ValidUntil
	}
	for _, p := range pieces {
		for _, rev := range [2]bool{false, true} {
			if (!rev && !p.fwd) || (rev && !p.backward) {
				continue
			}
			a := g.ArcOf[graph.SegRef(p.seg, rev)]
			if a == graph.NoArc {
				continue
			}
			if x, ok := extra(g, op, a); ok {
				ro.Changes = append(ro.Changes, route.ArcChange{Arc: a, Extra: x})
			}
		}
	}
	return ro
}

// extra is the time op adds to arc a, in milliseconds (NoWay: closed);
// false when it adds nothing (a speed limit above the road's speed).
func extra(g *graph.Graph, op roadops.Operation, a uint32) (uint32, bool) {
	t := float64(g.ArcTime(a))
	switch {
	case op.Kind == roadops.KindClosure:
		return graph.NoWay, true
	case op.Factor > 1:
		return uint32(math.Round(t * (op.Factor - 1))), true
	case op.SpeedKPH > 0:
		s, _ := g.ArcSegment(a)
		slow := float64(g.Net.SegLength[s]) / (op.SpeedKPH / 3.6) * 1000
		if slow <= t {
			return 0, false
		}
		return uint32(math.Round(slow - t)), true
	}
	return 0, false
}

// directions reads an operation's direction for a piece drawn along
// (along) or against the way or line it was named by.
func directions(dir roadops.Direction, along bool) (fwd, bwd bool) {
	switch dir {
	case roadops.DirForward:
		return along, !along
	case roadops.DirBackward:
		return !along, along
	}
	return true, true
}

func describe(kind string, id int64, n int) string {
	if n == 1 {
		return fmt.Sprintf("%s %d: 1 segment", kind, id)
	}
	return fmt.Sprintf("%s %d: %d segments", kind, id, n)
}

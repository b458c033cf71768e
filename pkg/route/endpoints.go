package route

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// A snapped point splits its segment's travel time. alongForward is the time
// from the segment's first node to the point travelling forward, and
// alongBackward the time from its last node to the point travelling
// backward; both are rounded once, so every way of combining the parts
// (source, target, direct) agrees to the millisecond.
func alongForward(g *graph.Graph, p snap.Result) uint32 {
	return uint32(math.Round(p.Frac * float64(g.WF[p.Seg])))
}

func alongBackward(g *graph.Graph, p snap.Result) uint32 {
	return uint32(math.Round((1 - p.Frac) * float64(g.WB[p.Seg])))
}

// pointArcs calls fn for each arc the point lies on, with the time from
// the arc's start to the point and the arc's whole time.
func pointArcs(g *graph.Graph, p snap.Result, fn func(arc, along, whole uint32)) {
	if a := g.ArcOf[graph.SegRef(p.Seg, false)]; a != graph.NoArc {
		fn(a, alongForward(g, p), g.WF[p.Seg])
	}
	if a := g.ArcOf[graph.SegRef(p.Seg, true)]; a != graph.NoArc {
		fn(a, alongBackward(g, p), g.WB[p.Seg])
	}
}

// Sources returns the seeds of a search leaving point p: each arc p lies
// on, with the time from p to the arc's end.
func Sources(g *graph.Graph, p snap.Result) []search.Seed {
	var seeds []search.Seed
	pointArcs(g, p, func(arc, along, whole uint32) {
		seeds = append(seeds, search.Seed{Node: arc, Cost: whole - along})
	})
	return seeds
}

// Ends are the seeds of a search between two snapped points.
type Ends struct {
	Sources []search.Seed
	Origin  []uint32 // per source seed: the arc the start point lies on
	Targets []search.Seed
	Direct  uint32 // cost along the common segment without a turn, or Unreached
}

// MakeEnds builds the seeds for going from a to b. A source arc that is also
// a target arc is replaced by the turns out of it: otherwise the two seeds
// would "meet" on that arc even when b lies behind a, and the path along
// the arc ahead is Direct's to report.
func MakeEnds(g *graph.Graph, a, b snap.Result) Ends {
	var e Ends
	pointArcs(g, b, func(arc, along, whole uint32) {
		e.Targets = append(e.Targets, search.Seed{Node: arc, Cost: whole - along})
	})
	pointArcs(g, a, func(arc, along, whole uint32) {
		left := whole - along
		if !isTarget(e.Targets, arc) {
			e.Sources = append(e.Sources, search.Seed{Node: arc, Cost: left})
			e.Origin = append(e.Origin, arc)
			return
		}
		begin, end := g.Turns.Out(arc)
		for i := begin; i < end; i++ {
			t := g.Turns.At(i)
			e.Sources = append(e.Sources, search.Seed{Node: t.Head, Cost: search.Add(left, t.Weight)})
			e.Origin = append(e.Origin, arc)
		}
	})
	e.Direct = direct(g, a, b)
	return e
}

func isTarget(targets []search.Seed, arc uint32) bool {
	for _, t := range targets {
		if t.Node == arc {
			return true
		}
	}
	return false
}

// direct returns the cost of going from a to b along their common segment
// without passing a node, or search.Unreached when they are on different
// segments or the profile may not go that way.
func direct(g *graph.Graph, a, b snap.Result) uint32 {
	if a.Seg != b.Seg {
		return search.Unreached
	}
	best := uint32(search.Unreached)
	if g.WF[a.Seg] != graph.NoWay && b.Frac >= a.Frac {
		best = alongForward(g, b) - alongForward(g, a)
	}
	if g.WB[a.Seg] != graph.NoWay && b.Frac <= a.Frac {
		best = min(best, alongBackward(g, b)-alongBackward(g, a))
	}
	return best
}

package route

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// A snapped point splits its segment's travel time. alongForward is the time
// from the segment's first node to the point travelling forward, whole
// being the forward arc's time, and alongBackward the time from its last
// node to the point travelling backward; both are rounded once, so every way
// of combining the parts (source, target, direct) agrees to the millisecond.
func alongForward(whole uint32, p snap.Result) uint32 {
	return uint32(math.Round(p.Frac * float64(whole)))
}

func alongBackward(whole uint32, p snap.Result) uint32 {
	return uint32(math.Round((1 - p.Frac) * float64(whole)))
}

// arcTimes returns the times now (under st, nil for none) of the forward
// and backward arcs of segment s, NoWay for a direction not usable now.
func arcTimes(g *graph.Graph, st *graph.State, s uint32) (fwd, bwd uint32) {
	fwd, bwd = graph.NoWay, graph.NoWay
	if a := g.ArcOf[graph.SegRef(s, false)]; a != graph.NoArc {
		fwd = st.ArcTime(g, a)
	}
	if a := g.ArcOf[graph.SegRef(s, true)]; a != graph.NoArc {
		bwd = st.ArcTime(g, a)
	}
	return fwd, bwd
}

// pointTimes is arcTimes for the directions point p may travel: a bearing
// asked for at p may have excluded one (snap.Result's NoForward and
// NoBackward).
func pointTimes(g *graph.Graph, st *graph.State, p snap.Result) (fwd, bwd uint32) {
	fwd, bwd = arcTimes(g, st, p.Seg)
	if p.NoForward {
		fwd = graph.NoWay
	}
	if p.NoBackward {
		bwd = graph.NoWay
	}
	return fwd, bwd
}

// pointArcs calls fn for each arc the point lies on and may use now, with
// the time from the arc's start to the point and the arc's whole time.
func pointArcs(g *graph.Graph, st *graph.State, p snap.Result, fn func(arc, along, whole uint32)) {
	fwd, bwd := pointTimes(g, st, p)
	if fwd != graph.NoWay {
		fn(g.ArcOf[graph.SegRef(p.Seg, false)], alongForward(fwd, p), fwd)
	}
	if bwd != graph.NoWay {
		fn(g.ArcOf[graph.SegRef(p.Seg, true)], alongBackward(bwd, p), bwd)
	}
}

// Sources returns the seeds of a search leaving point p under st: each arc
// p lies on, with the time from p to the arc's end.
func Sources(g *graph.Graph, st *graph.State, p snap.Result) []search.Seed {
	var seeds []search.Seed
	pointArcs(g, st, p, func(arc, along, whole uint32) {
		seeds = append(seeds, search.Seed{Node: arc, Cost: whole - along})
	})
	return seeds
}

// Targets returns the seeds of a search arriving at point p under st: each
// arc p lies on and each of its duplicates (via-way restrictions' copies,
// see graph.Graph.Dup), with the time from p to the arc's end. Reaching a
// copy is reaching its road; sources, by contrast, are originals only, as
// a journey that starts on a road is bound by no restriction entered before.
func Targets(g *graph.Graph, st *graph.State, p snap.Result) []search.Seed {
	var seeds []search.Seed
	pointArcs(g, st, p, func(arc, along, whole uint32) {
		seeds = append(seeds, search.Seed{Node: arc, Cost: whole - along})
		begin, end := g.Duplicates(arc)
		for d := begin; d < end; d++ {
			seeds = append(seeds, search.Seed{Node: d, Cost: whole - along})
		}
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
//
// st is the state of g's conditions to use, nil for none.
func MakeEnds(g *graph.Graph, st *graph.State, a, b snap.Result) Ends {
	var e Ends
	e.Targets = Targets(g, st, b)
	pointArcs(g, st, a, func(arc, along, whole uint32) {
		left := whole - along
		if !isTarget(e.Targets, arc) {
			e.Sources = append(e.Sources, search.Seed{Node: arc, Cost: left})
			e.Origin = append(e.Origin, arc)
			return
		}
		begin, end := g.Turns.Out(arc)
		for i := begin; i < end; i++ {
			t := g.Turns.At(i)
			if w := st.Edge(arc, t.Head, t.Weight, true); w != graph.NoWay {
				e.Sources = append(e.Sources, search.Seed{Node: t.Head, Cost: search.Add(left, w)})
			}
			e.Origin = append(e.Origin, arc)
		}
	})
	e.Direct = direct(g, st, a, b)
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
// segments or the profile may not go that way (nor leave a or reach b in
// that direction).
func direct(g *graph.Graph, st *graph.State, a, b snap.Result) uint32 {
	if a.Seg != b.Seg {
		return search.Unreached
	}
	fwd, bwd := pointTimes(g, st, a)
	if b.NoForward {
		fwd = graph.NoWay
	}
	if b.NoBackward {
		bwd = graph.NoWay
	}
	best := uint32(search.Unreached)
	if fwd != graph.NoWay && b.Frac >= a.Frac {
		best = alongForward(fwd, b) - alongForward(fwd, a)
	}
	if bwd != graph.NoWay && b.Frac <= a.Frac {
		best = min(best, alongBackward(bwd, b)-alongBackward(bwd, a))
	}
	return best
}

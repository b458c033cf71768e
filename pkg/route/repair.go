package route

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// A leg under road operations (graph.Overlay) is first searched on the
// hierarchy, whose times are the graph's own: a lower bound of every cost
// under the operations. When the path found crosses no arc they change,
// it costs the same under them and no other path got cheaper, so it is the
// answer. Otherwise the leg is searched again, exactly, by A* on the turn
// graph under the operations with the hierarchy's distances as potentials
// (potential.go): consistent lower bounds, so the first path to settle the
// target is the fastest, and the search stays near the route, widening only
// as far as the operations' delay. No query goes back to plain Dijkstra.

// crossesOperations reports whether the path res found from ends e enters
// an arc the overlay changes (its start arc included).
func crossesOperations(ov *graph.Overlay, e Ends, res ch.Result) bool {
	if ov == nil {
		return false
	}
	return ov.Has(e.Origin[res.Source]) || ov.Touches(res.Arcs)
}

// operatedPath reports whether road operations, not the request's own
// exclusions, change the path res found from ends e: whether it enters an
// arc they change. For the fastest path without them, that is whether they
// change the leg (its path or its duration): a leg is Operated then.
func operatedPath(ov *graph.Overlay, e Ends, res ch.Result) bool {
	return ov.HasOperation(e.Origin[res.Source]) || ov.TouchesOperations(res.Arcs)
}

// operatedCustomized reports whether the leg res that q found (found: a
// path was) on a hierarchy customized under its overlay, exact as found,
// is Operated. It is when its own path enters an operated arc (then the
// fastest path without operations did too, or cost as much as this one at
// its old times: less than now); otherwise the operations may still have
// turned it off its old path, or closed every path, which only the
// compiled hierarchy's fastest path tells, searched for the few legs that
// need it.
func (r *Router) operatedCustomized(q *ch.Query, e Ends, res ch.Result, found bool) bool {
	ov := q.State().Overlay()
	if found && operatedPath(ov, e, res) {
		return true
	}
	if !ov.HasOperations() {
		return false
	}
	base, pooled := r.tests.TryGet() // never waits: a caller may hold one
	if pooled {
		defer r.tests.Put(base)
	} else {
		base = ch.NewQuery(r.h)
	}
	base.SetStateCompiled(q.State())
	scratch := arcScratch.Get().(*[]uint32)
	defer arcScratch.Put(scratch)
	old, ok := base.Shortest(e.Sources, e.Targets, (*scratch)[:0])
	if ok {
		*scratch = old.Arcs[:0]
	}
	return ok && operatedPath(ov, e, old)
}

// repairLeg is the exact leg from a to b under st's overlay (see above);
// the caller says whether it is Operated.
func (r *Router) repairLeg(st *graph.State, e Ends, a, b snap.Result) (Leg, bool) {
	s := penaltyWork.Get().(*penaltySearch)
	defer penaltyWork.Put(s)
	s.begin(len(r.g.Turns.First) - 1) // no arc penalised: the plain fastest path
	leg, ok, _ := r.penaltyLeg(s, st, e, a, b, search.Unreached-1, math.MaxInt)
	cost := uint32(search.Unreached)
	if ok {
		cost = leg.weight // the search's cost, destination penalties included
		leg.via = 0
		if i := sourceOf(e, leg.Arcs[0]); i >= 0 && e.Origin[i] != leg.Arcs[0] {
			leg.Arcs = append([]uint32{e.Origin[i]}, leg.Arcs...)
		}
	}
	if e.Direct != search.Unreached && (!ok || e.Direct <= cost) {
		leg, ok = r.directLeg(st, a, b, e.Direct), true
	}
	return leg, ok
}

// sourceOf is the index of the source seed on arc, -1 for none.
func sourceOf(e Ends, arc uint32) int {
	for i, s := range e.Sources {
		if s.Node == arc {
			return i
		}
	}
	return -1
}

// LegsFrom finds, under st's operations, the exact fastest legs from a to
// each of bs by one search: a Dijkstra on the turn graph from a's arcs
// that stops once every target's arcs are settled. A table repairs a row
// with it when several of the row's cells crossed a changed road: one
// search instead of one A* a cell (each of which, on a long trip, settles
// most of the trip anyway). ok[j] is false when no path reaches bs[j].
// A pair on one segment (route.MakeEnds' case) is the caller's: here the
// leg leaves a by its arcs' ends only.
func (r *Router) LegsFrom(ctx context.Context, st *graph.State, a snap.Result, bs []snap.Result) (legs []Leg, ok []bool) {
	s := rowWork.Get().(*rowSearch)
	defer rowWork.Put(s)
	g := r.g
	s.labels.Fit(len(g.Turns.First) - 1)
	s.heap.Reset()
	left := map[uint32]int{} // target arcs not settled yet, with how many targets wait on each
	targets := make([][]search.Seed, len(bs))
	for j, b := range bs {
		targets[j] = Targets(g, st, b)
		for _, t := range targets[j] {
			left[t.Node]++
		}
	}
	for _, src := range Sources(g, st, a) {
		s.label(src.Node, src.Cost, graph.NoArc)
	}
	for s.heap.Len() > 0 && len(left) > 0 && ctx.Err() == nil {
		c, u := s.heap.Pop()
		if c != s.labels.Get(u).cost {
			continue
		}
		delete(left, u)
		begin, end := g.Turns.Out(u)
		for i := begin; i < end; i++ {
			to, w, _ := g.Turn(i)
			if w = st.Edge(u, to, w, true); w != graph.NoWay {
				s.label(to, search.Add(c, w), u)
			}
		}
	}
	legs, ok = make([]Leg, len(bs)), make([]bool, len(bs))
	for j, b := range bs {
		best, at := uint32(search.Unreached), graph.NoArc
		for _, t := range targets[j] {
			if l := s.labels.Get(t.Node); l != nil && l.cost >= t.Cost && l.cost-t.Cost < best {
				best, at = l.cost-t.Cost, t.Node
			}
		}
		if at == graph.NoArc {
			continue
		}
		legs[j], ok[j] = r.makeLeg(st, a, b, s.path(at), best), true
		legs[j].Operated = true
	}
	return legs, ok
}

// rowSearch is LegsFrom's memory, pooled like the penalty search's.
type rowSearch struct {
	labels search.Labels[rowLabel]
	heap   search.Heap
}

type rowLabel struct{ cost, parent uint32 }

var rowWork = sync.Pool{New: func() any { return new(rowSearch) }}

func (s *rowSearch) label(v, c, parent uint32) {
	l := s.labels.Get(v)
	if l == nil {
		l, _ = s.labels.Add(v)
	} else if l.cost <= c {
		return
	}
	*l = rowLabel{cost: c, parent: parent}
	s.heap.Push(c, v)
}

// path follows parents back from end.
func (s *rowSearch) path(end uint32) []uint32 {
	var arcs []uint32
	for v := end; v != graph.NoArc; v = s.labels.Get(v).parent {
		arcs = append(arcs, v)
	}
	slices.Reverse(arcs)
	return arcs
}

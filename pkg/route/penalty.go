package route

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// penaltyFactor is how much dearer each found route's arcs become per
// round, and penaltyRounds how many rounds are tried.
const (
	penaltyFactor = 1.4
	penaltyRounds = 3
)

// A penalised search settles at most penaltyPerArc arcs per arc of the
// best route, and never fewer than penaltyMinSettled, before it gives up
// with the rounds after it. Its ellipse of acceptable detours grows with
// the square of the route's length: on Andorra no search settles more than
// 13,000 arcs (150 per route arc at most, 12–25 typically), but across the
// 3M-node synthetic country a 700 km route's settled 90 per route arc in
// the median and up to 600, about 100 ms a call, for a second or third
// alternative on 3 % more trips (docs/benchmarks-history.md).
const (
	penaltyPerArc     = 16
	penaltyMinSettled = 1 << 15
)

// penaltyMaxM is the longest best route the penalty method is tried on.
// Its search's ellipse of acceptable detours grows with the square of the
// route's length: on Andorra (trips up to 40 km) it never spends its
// budget, but across the 3M-node country, run on the 29 of 100 trips of
// 690 km on average where the via-node method found nothing, it found an
// alternative on 2, at almost 60 % of the default request's CPU
// (issue 37). The bound
// is the same whatever the number asked for, so one alternative asked is
// still the first of two.
const penaltyMaxM = 100_000

// penaltySearch is the penalty method's search (Bader, Dees, Geisberger and
// Sanders, "Alternative route graphs in road networks", 2011): the arcs of
// the routes found so far cost penaltyFactor more per time they were
// penalised, and the fastest path under those times is the next candidate.
//
// It is A* on the turn graph with the hierarchy's exact distances to the
// target as potentials (potential.go), which are lower bounds of penalised
// times and of times under any departure-time state, so it finds the same penalised optimum as Dijkstra while settling
// only the arcs whose penalised detour is cheaper than that optimum's,
// rather than the whole region around the start. It also carries each
// label's true time and drops a label that cannot reach the target within
// the stretch limit even by the fastest way: only such paths would be
// rejected afterwards anyway, and the search stays inside the ellipse of
// acceptable detours.
//
// Its labels and penalties are kept in search.Labels, so a call costs
// what its searches touch, not the size of the graph.
type penaltySearch struct {
	labels   search.Labels[penaltyLabel]
	times    search.Labels[uint8] // how often each arc has been penalised in this call
	heap     search.Heap
	pot      potentials
	potReady bool // pot is set up for this call's targets
}

// penaltyLabel is what the search knows of one arc. One struct, so a
// relaxation touches one cache line.
type penaltyLabel struct {
	cost   uint32 // penalised time to the arc's end
	real   uint32 // true time to the arc's end along the same path
	parent uint32
	pot    uint32 // the arc's potential, so a pop needs no lookup
}

// penaltyFactors[k] is penaltyFactor to the power k.
var penaltyFactors = func() (f [math.MaxUint8 + 1]float64) {
	for k := range f {
		f[k] = math.Pow(penaltyFactor, float64(k))
	}
	return f
}()

// begin prepares the search for one Alternatives call on a turn graph of n
// nodes (arcs and their duplicates).
func (s *penaltySearch) begin(n int) {
	s.labels.Fit(n)
	s.times.Fit(n)
	s.potReady = false
}

// penalize makes arcs dearer by penaltyFactor once more.
func (s *penaltySearch) penalize(arcs []uint32) {
	for _, a := range arcs {
		if k, _ := s.times.Add(a); *k < math.MaxUint8 {
			*k++
		}
	}
}

// penalised is time w of arc a with a's penalty.
func (s *penaltySearch) penalisedTime(a, w uint32) uint32 {
	if k := s.times.Get(a); k != nil {
		return uint32(min(float64(w)*penaltyFactors[*k], search.Unreached-1))
	}
	return w
}

// label records a label for v if it is the first or a better one, and queues it.
func (s *penaltySearch) label(v, cost, real, parent, pot uint32) {
	l := s.labels.Get(v) // inlines: most arcs reached are labelled already
	if l == nil {
		l, _ = s.labels.Add(v)
	} else if l.cost <= cost {
		return
	}
	*l = penaltyLabel{cost: cost, real: real, parent: parent, pot: pot}
	s.heap.Push(search.Add(cost, pot), v)
}

// penaltyAlternatives adds to k what the penalty method finds: each round
// makes the arcs of every route kept dearer and takes the fastest path
// under those times as the next candidate.
func (r *Router) penaltyAlternatives(ctx context.Context, k *keeper, n int, limit uint32) {
	s := penaltyWork.Get().(*penaltySearch)
	defer penaltyWork.Put(s)
	s.begin(len(r.g.Turns.First) - 1)
	a, b := k.best.Snapped[0], k.best.Snapped[1]
	budget := max(penaltyMinSettled, penaltyPerArc*len(k.best.Legs[0].Arcs))
	for round := 0; round < penaltyRounds && len(k.kept) <= n && ctx.Err() == nil; round++ {
		for _, kept := range k.kept {
			s.penalize(kept.Legs[0].Arcs)
		}
		leg, ok, spent := r.penaltyLeg(s, k.best.st, k.e, a, b, limit, budget)
		if spent {
			return // later rounds, dearer still, would search wider
		}
		if ok {
			k.consider(leg, false)
		}
	}
}

// penaltyWork pools the penalty method's search memory across calls, routers
// and releases. Only a caller holding one of a router's search workers
// takes one, so no more are in use than there are workers.
var penaltyWork = sync.Pool{New: func() any { return new(penaltySearch) }}

// penaltyLeg finds the fastest path from a to b under the current
// penalties and returns it with its true cost, when that is within limit
// and found settling at most budget arcs (spent is true when it was not).
func (r *Router) penaltyLeg(s *penaltySearch, st *graph.State, e Ends, a, b snap.Result, limit uint32, budget int) (leg Leg, ok, spent bool) {
	if !s.potReady {
		s.pot.reset(r.h, e.Targets)
		s.potReady = true
	}
	s.labels.Reset()
	maxTarget := uint32(0)
	for _, t := range e.Targets {
		maxTarget = max(maxTarget, t.Cost)
	}
	// A label whose true time plus the fastest way on exceeds this cannot
	// end within limit (potentials are shifted by maxTarget, see potentials).
	bound := uint64(limit) + uint64(maxTarget)
	s.heap.Reset()
	for _, src := range e.Sources {
		if p := s.pot.at(src.Node); uint64(src.Cost)+uint64(p) <= bound {
			s.label(src.Node, s.penalisedTime(src.Node, src.Cost), src.Cost, graph.NoArc, p)
		}
	}
	end, best, spent := r.searchPenalised(s, st, e, maxTarget, bound, budget)
	if end == graph.NoArc || spent {
		return Leg{}, false, spent
	}
	arcs := s.path(end)
	total := uint64(s.labels.Get(end).real) - uint64(targetCost(e, end))
	if total > uint64(limit) || best == search.Unreached {
		return Leg{}, false, false
	}
	leg = r.makeLeg(st, a, b, arcs, uint32(total))
	leg.via = len(arcs) / 2
	return leg, true, false
}

// searchPenalised runs the A* queued by penaltyLeg and returns the target
// arc of the best path and that path's penalised cost to the target point
// plus maxTarget (the potentials' shift), or NoArc; spent when it gave up
// after settling budget arcs.
func (r *Router) searchPenalised(s *penaltySearch, st *graph.State, e Ends, maxTarget uint32, bound uint64, budget int) (end, best uint32, spent bool) {
	g := r.g
	end, best = graph.NoArc, search.Unreached
	for s.heap.Len() > 0 {
		key, u := s.heap.Pop()
		if key >= best {
			break // keys are lower bounds of the paths behind them
		}
		lu := *s.labels.Get(u)
		c := lu.cost
		if search.Add(c, lu.pot) != key {
			continue // superseded
		}
		if budget--; budget < 0 {
			return graph.NoArc, search.Unreached, true
		}
		if isTarget(e.Targets, u) {
			if obj := search.Add(c, maxTarget-targetCost(e, u)); obj < best {
				best, end = obj, u
			}
		}
		begin, stop := g.Turns.Out(u)
		for i := begin; i < stop; i++ {
			to, w, turn := g.Turn(i)
			if w = st.Edge(u, to, w, true); w == graph.NoWay {
				continue // forbidden at the departure time
			}
			p := s.pot.at(to)
			real := uint64(lu.real) + uint64(w)
			if p == search.Unreached || real+uint64(p) > bound {
				continue
			}
			s.label(to, search.Add(search.Add(c, turn), s.penalisedTime(to, w-turn)), uint32(real), u, p)
		}
	}
	return end, best, false
}

// path follows parents back from end.
func (s *penaltySearch) path(end uint32) []uint32 {
	var arcs []uint32
	for v := end; v != graph.NoArc; v = s.labels.Get(v).parent {
		arcs = append(arcs, v)
	}
	slices.Reverse(arcs)
	return arcs
}

// targetCost is the cost of target arc t past the target point.
func targetCost(e Ends, t uint32) uint32 {
	for _, s := range e.Targets {
		if s.Node == t {
			return s.Cost
		}
	}
	return 0
}

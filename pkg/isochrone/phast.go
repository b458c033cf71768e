package isochrone

import (
	"sort"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// searchPHAST is the measured alternative to search for time budgets: the
// same labels (sc.costs, sc.seeds with their loops), found by
// a PHAST run over the hierarchy instead of a bounded Dijkstra. It is not
// used by Compute: PHAST sweeps every node of the country whatever the
// budget, and the hierarchy cannot honour time-conditioned restrictions
// or weigh by distance (see docs/benchmarks-history.md for the figures). It uses the
// graph's own weights, the hierarchy's, with no time conditions applied.
// It returns false when the origin lies on no arc of g.
//
// PHAST runs unbounded because a partially reached arc needs the exact
// cost of its end, which lies beyond limit; its upward phase is a few
// hundred nodes either way.
func (sc *scratch) searchPHAST(g *graph.Graph, p *ch.PHAST, origin snap.Result, limit uint32) bool {
	sc.st = nil // no conditions: sample then weighs arcs as the hierarchy does
	sc.resetSearch(g)
	if !sc.placeSeeds(g, origin, byTime) {
		return false
	}
	var seeds [2]search.Seed
	for i, s := range sc.seeds {
		seeds[i] = search.Seed{Node: s.arc, Cost: weight(g, byTime, s.arc) - s.along}
	}
	cost := p.Run(seeds[:len(sc.seeds)], search.Unreached)
	for _, s := range sc.seeds {
		sc.touch(s.arc, cost[s.arc])
	}
	for a, c := range cost {
		if c != search.Unreached && c-weight(g, byTime, uint32(a)) < limit && !sc.isSeed(uint32(a)) {
			sc.touch(uint32(a), c)
		}
	}
	sc.findLoops(g, limit)
	return true
}

// touch labels arc a with cost c, which no other label competes with.
func (sc *scratch) touch(a, c uint32) {
	l, _ := sc.costs.Add(a)
	*l = c
}

// findLoops sets each seed's loop, the earliest cost within limit at which
// a turn enters the seed arc: Dijkstra finds it while relaxing, PHAST's
// labels do not say which turn they came by. Only arcs ending at the seed
// arc's tail, themselves within limit, can turn onto it.
func (sc *scratch) findLoops(g *graph.Graph, limit uint32) {
	for k := range sc.seeds {
		s := &sc.seeds[k]
		tail := uint32(sort.Search(len(g.Fwd.First)-1, func(v int) bool { return g.Fwd.First[v+1] > s.arc }))
		for i := range sc.costs.Len() {
			a, c := sc.costs.Node(i), *sc.costs.At(i)
			if c >= limit || g.ArcHead(a) != tail {
				continue
			}
			begin, end := g.Turns.Out(a)
			for i := begin; i < end; i++ {
				if to, _, turn := g.Turn(i); to == s.arc {
					if start := search.Add(c, graph.Unpenalised(turn)); start < limit {
						s.loop = min(s.loop, start)
					}
				}
			}
		}
	}
}

package ch_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// TestCoreQueryMatchesDijkstra: on random graphs contracted around a random
// core (a tenth of the nodes, or all of them), point-to-point queries that
// cross the core by its table agree with Dijkstra and with the queries that
// explore the core, and the path they unpack costs what they found, from a
// source seed to a target seed.
func TestCoreQueryMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	reached, across, pairs := 0, 0, 0
	for round := range 8 {
		g, n, h, explored := aroundCore(t, rng, round)
		q, old := ch.NewQuery(h), ch.NewQuery(explored)
		for range 400 {
			src, dst := randomSeeds(rng, n), randomSeeds(rng, n)
			for i := range dst {
				dst[i].Cost %= 50
			}
			cost := search.Dijkstra(g, src)
			if sharesNode(src, dst) || !wellPosed(cost, dst) {
				continue // the caller's to answer (see route.MakeEnds)
			}
			pairs++
			want, _ := search.Finish(func(a uint32) uint32 { return cost[a] }, dst)
			if ch.MeetsAcross(q, src, dst) {
				across++
			}
			res, ok := q.Shortest(src, dst, nil)
			oldCost, _ := old.Cost(src, dst)
			if !ok {
				if want != search.Unreached {
					t.Fatalf("round %d: %v→%v unreached, Dijkstra %d", round, src, dst, want)
				}
				continue
			}
			reached++
			if res.Cost != want || oldCost != want {
				t.Fatalf("round %d: %v→%v: %d across the core, %d exploring it, Dijkstra %d", round, src, dst, res.Cost, oldCost, want)
			}
			checkPath(t, g, nil, res, src, dst)
		}
	}
	if reached < pairs/5 || across < reached/4 {
		t.Fatalf("%d pairs, %d reached, %d across the core: the test proves little", pairs, reached, across)
	}
	t.Logf("%d pairs, %d reached, %d met across the core", pairs, reached, across)
}

// wellPosed reports whether every target seed the search reached is
// reached at no less than its cost, as on a road graph (a target seed's
// cost is part of its arc's time); Shortest and Finish differ otherwise.
func wellPosed(cost []uint32, dst []search.Seed) bool {
	for _, s := range dst {
		if cost[s.Node] < s.Cost {
			return false
		}
	}
	return true
}

// checkPath fails unless res's arcs go from its source seed to its target
// seed over edges of g and cost res.Cost under st.
func checkPath(t *testing.T, g *graph.Graph, st *graph.State, res ch.Result, src, dst []search.Seed) {
	t.Helper()
	a := res.Arcs
	if a[0] != src[res.Source].Node || a[len(a)-1] != dst[res.Target].Node {
		t.Fatalf("path %v does not go from seed %v to seed %v", a, src[res.Source], dst[res.Target])
	}
	total := uint64(src[res.Source].Cost)
	for i := 1; i < len(a); i++ {
		best := uint32(graph.NoWay)
		for e := g.Turns.First[a[i-1]]; e < g.Turns.First[a[i-1]+1]; e++ {
			te := g.Turns.At(e)
			if te.Head != a[i] {
				continue
			}
			w := te.Weight
			if st != nil {
				w = st.Edge(a[i-1], te.Head, w, true)
			}
			best = min(best, w)
		}
		if best == graph.NoWay {
			t.Fatalf("path %v: no usable edge %d→%d", a, a[i-1], a[i])
		}
		total += uint64(best)
	}
	if total-uint64(dst[res.Target].Cost) != uint64(res.Cost) {
		t.Fatalf("path %v costs %d, the query found %d", a, total-uint64(dst[res.Target].Cost), res.Cost)
	}
}

// TestCoreQueriesPerState: on a town whose conditional streets form the car
// hierarchy's core, queries under alternating states (so that the kept core
// tables are found again) agree with Dijkstra under the same state and with
// the queries that explore the core, their paths cost what they found under
// it, and the states change some answers.
func TestCoreQueriesPerState(t *testing.T) {
	rel := compiletest.TimedTown{W: 16, H: 16, Random: 10, Seed: 9}.Open(t)
	r := rel.Routers["car"]
	g, h := r.Graph(), r.Hierarchy()
	explored := *h
	explored.SetCore(nil)
	rng := rand.New(rand.NewPCG(23, 24))
	n := uint32(h.NumNodes())
	pairs := make([][2][]search.Seed, 60)
	for i := range pairs {
		pairs[i] = [2][]search.Seed{{{Node: rng.Uint32N(n)}}, {{Node: rng.Uint32N(n)}}}
	}
	zone, _ := time.LoadLocation("Europe/Andorra")
	times := []time.Time{
		time.Date(2026, 11, 24, 8, 0, 0, 0, zone),  // Tuesday morning
		time.Date(2026, 11, 28, 11, 0, 0, 0, zone), // Saturday
		time.Date(2026, 11, 24, 23, 0, 0, 0, zone), // Tuesday night
	}
	q, old := ch.NewQuery(h), ch.NewQuery(&explored)
	first := make([]uint32, len(pairs))
	changed, across := 0, 0
	for k := range 2 * len(times) {
		st := r.StateAt(times[k%len(times)])
		q.SetState(st)
		old.SetState(st)
		for i, p := range pairs {
			if p[0][0].Node == p[1][0].Node {
				continue
			}
			want, _ := search.Finish(func(a uint32) uint32 { return search.DijkstraAt(g, st, p[0])[a] }, p[1])
			if ch.MeetsAcross(q, p[0], p[1]) {
				across++
			}
			res, ok := q.Shortest(p[0], p[1], nil)
			oldCost, oldOK := old.Cost(p[0], p[1])
			if !ok {
				res.Cost = search.Unreached
			}
			if !oldOK {
				oldCost = search.Unreached
			}
			if res.Cost != want || oldCost != want {
				t.Fatalf("state %d (%s), pair %d: %d across the core table, %d exploring the core, Dijkstra %d", k, times[k%len(times)], i, res.Cost, oldCost, want)
			}
			if ok {
				checkPath(t, g, st, res, p[0], p[1])
			}
			if k == 0 {
				first[i] = res.Cost
			} else if k < len(times) && res.Cost != first[i] {
				changed++
			}
		}
	}
	if changed == 0 || across == 0 {
		t.Fatalf("%d answers changed between the states, %d met across the core: the test proves little", changed, across)
	}
	t.Logf("%d answers changed between states, %d met across the core", changed, across)
}

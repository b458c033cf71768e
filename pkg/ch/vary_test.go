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

// TestMarkedQueryMatchesDijkstra: on random graphs with random marked
// nodes (a tenth of them, or a third every fourth round), which witnesses
// may not pass through and whose shortcuts are variable, point-
// to-point queries agree with Dijkstra, and the path they unpack costs what
// they found, from a source seed to a target seed.
func TestMarkedQueryMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	reached, pairs, variable := 0, 0, 0
	for round := range 8 {
		n := 200 + rng.IntN(400)
		g := randomTurns(rng, n)
		share := 10
		if round%4 == 3 {
			share = 3
		}
		marked := make([]bool, n)
		for v := range marked {
			marked[v] = rng.IntN(share) == 0
		}
		h := contract(t, g, func(v uint32) bool { return marked[v] })
		k, _ := h.NumVariable()
		variable += k
		q := ch.NewQuery(h)
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
			res, ok := q.Shortest(src, dst, nil)
			if !ok {
				if want != search.Unreached {
					t.Fatalf("round %d: %v→%v unreached, Dijkstra %d", round, src, dst, want)
				}
				continue
			}
			reached++
			if res.Cost != want {
				t.Fatalf("round %d: %v→%v: %d, Dijkstra %d", round, src, dst, res.Cost, want)
			}
			checkPath(t, g, nil, res, src, dst)
		}
	}
	if reached < pairs/5 || variable == 0 {
		t.Fatalf("%d pairs, %d reached, %d variable shortcuts: the test proves little", pairs, reached, variable)
	}
	t.Logf("%d pairs, %d reached, %d variable shortcuts", pairs, reached, variable)
}

func sharesNode(a, b []search.Seed) bool {
	for _, s := range a {
		for _, t := range b {
			if s.Node == t.Node {
				return true
			}
		}
	}
	return false
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

// timedTown is a town whose random blocks (one in ten) carry conditions:
// opening hours, one-way hours, destination-only streets, on about a tenth
// of its arcs (a hundred times a country's share: the 3M and 10M synthetic
// countries' car graphs have 240 and 820 conditional arcs of 436,394 and
// 1,469,529). Denser conditions make contraction slow: witnesses may not
// pass through a road a time closes (docs/conditions.md).
var timedTown = compiletest.TimedTown{W: 16, H: 16, Random: 10, Seed: 9}

// townTimes are departures the town's conditions tell apart.
func townTimes() []time.Time {
	zone, _ := time.LoadLocation("Europe/Andorra")
	return []time.Time{
		time.Date(2026, 11, 24, 8, 0, 0, 0, zone),  // Tuesday morning
		time.Date(2026, 11, 28, 11, 0, 0, 0, zone), // Saturday
		time.Date(2026, 11, 24, 23, 0, 0, 0, zone), // Tuesday night
	}
}

// TestVaryQueriesPerState: on a town where a tenth of the arcs are conditional,
// queries under alternating states (so that the kept metrics are found
// again) agree with Dijkstra under the same state, their paths cost what
// they found under it, and the states change some answers.
func TestVaryQueriesPerState(t *testing.T) {
	rel := timedTown.Open(t)
	r := rel.Routers["car"]
	g, h := r.Graph(), r.Hierarchy()
	vary, cands := h.NumVariable()
	t.Logf("%d arcs, %d conditional arcs, %d conditional turns, %d variable shortcuts (%d candidates)", g.NumArcs(), len(g.Cond.Arcs), len(g.Cond.Turns)/3, vary, cands)
	if len(g.Cond.Arcs) < 50 || vary == 0 {
		t.Fatalf("%d conditional arcs, %d variable shortcuts: the test proves little", len(g.Cond.Arcs), vary)
	}
	rng := rand.New(rand.NewPCG(23, 24))
	n := uint32(h.NumNodes())
	pairs := make([][2][]search.Seed, 150)
	for i := range pairs {
		pairs[i] = [2][]search.Seed{{{Node: rng.Uint32N(n)}}, {{Node: rng.Uint32N(n)}}}
	}
	times := townTimes()
	q := ch.NewQuery(h)
	first := make([]uint32, len(pairs))
	changed := 0
	for k := range 2 * len(times) {
		st := r.StateAt(times[k%len(times)])
		q.SetState(st)
		for i, p := range pairs {
			if p[0][0].Node == p[1][0].Node {
				continue
			}
			want, _ := search.Finish(func(a uint32) uint32 { return search.DijkstraAt(g, st, p[0])[a] }, p[1])
			res, ok := q.Shortest(p[0], p[1], nil)
			if !ok {
				res.Cost = search.Unreached
			}
			if res.Cost != want {
				t.Fatalf("state %d (%s), pair %d: %d, Dijkstra %d", k, times[k%len(times)], i, res.Cost, want)
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
	if changed == 0 {
		t.Fatal("no answer changed between the states: the test proves little")
	}
	t.Logf("%d answers changed between states", changed)
}

// TestVaryTablesPerState: on the same town, tables under alternating states
// equal point-to-point queries under the state, cell by cell.
func TestVaryTablesPerState(t *testing.T) {
	rel := timedTown.Open(t)
	r := rel.Routers["car"]
	h := r.Hierarchy()
	rng := rand.New(rand.NewPCG(13, 14))
	ends := func(k int) []ch.Endpoint {
		e := make([]ch.Endpoint, k)
		for i := range e {
			e[i] = ch.Endpoint{Seeds: []search.Seed{{Node: rng.Uint32N(uint32(h.NumNodes()))}}, Dists: []int64{0}}
		}
		return e
	}
	src, dst := ends(30), ends(30)
	times := townTimes()
	q, p := ch.NewQuery(h), ch.NewQuery(h)
	first := make([]ch.Cell, len(src)*len(dst))
	changed := 0
	for k := range 2 * len(times) {
		st := r.StateAt(times[k%len(times)])
		q.SetState(st)
		p.SetState(st)
		got := make([]ch.Cell, len(first))
		q.Table(src, dst, got)
		for i := range got {
			s, d := src[i/len(dst)].Seeds, dst[i%len(dst)].Seeds
			if s[0].Node == d[0].Node {
				continue
			}
			want, ok := p.Cost(s, d)
			if !ok {
				want = search.Unreached
			}
			if got[i].Cost != want {
				t.Fatalf("table %d (%s), cell [%d][%d]: %d, query %d", k, times[k%len(times)], i/len(dst), i%len(dst), got[i].Cost, want)
			}
			if k == 0 {
				first[i] = got[i]
			} else if k < len(times) && got[i].Cost != first[i].Cost {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Fatal("no cell changed between the states: the test proves little")
	}
}

// TestSynthTablesEqualQueries is issue 41's check on a country: on the
// synthetic country MAPS_SYNTH_RELEASE names (the 10M one, built once by
// whoever measures; skipped without it), 20×20 car tables between random
// arcs equal point-to-point queries cell by cell under three departure
// times.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run SynthTablesEqualQueries -v ./pkg/ch
func TestSynthTablesEqualQueries(t *testing.T) {
	r := compiletest.OpenSynth(t).Routers["car"]
	h := r.Hierarchy()
	rng := rand.New(rand.NewPCG(41, 42))
	ends := func(k int) []ch.Endpoint {
		e := make([]ch.Endpoint, k)
		for i := range e {
			e[i] = ch.Endpoint{Seeds: []search.Seed{{Node: rng.Uint32N(uint32(h.NumNodes()))}}, Dists: []int64{0}}
		}
		return e
	}
	src, dst := ends(20), ends(20)
	q, p := ch.NewQuery(h), ch.NewQuery(h)
	reached := 0
	for _, at := range townTimes() {
		st := r.StateAt(at)
		q.SetState(st)
		p.SetState(st)
		got := make([]ch.Cell, len(src)*len(dst))
		q.Table(src, dst, got)
		for i := range got {
			s, d := src[i/len(dst)].Seeds, dst[i%len(dst)].Seeds
			want, ok := p.Cost(s, d)
			if !ok {
				want = search.Unreached
			}
			if got[i].Cost != want {
				t.Fatalf("%s, cell [%d][%d]: table %d, query %d", at, i/len(dst), i%len(dst), got[i].Cost, want)
			}
			if ok {
				reached++
			}
		}
	}
	t.Logf("%d cells under 3 states, %d reached", 3*len(src)*len(dst), reached)
}

// TestThousandsMarkedMatchDijkstra is issue 41's exactness at scale: on
// random rings (randomRing) of 10,000 and 30,000 nodes of which a tenth or a third are
// marked (1,000 to 3,300 marked nodes: witnesses pass none of them, and
// every shortcut through one is variable), point-to-point queries and 20×20
// tables both equal Dijkstra.
func TestThousandsMarkedMatchDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	for _, c := range []struct{ n, share int }{{10000, 10}, {10000, 3}, {30000, 10}} {
		g := randomRing(rng, c.n)
		marked := make([]bool, c.n)
		k := 0
		for v := range marked {
			if marked[v] = rng.IntN(c.share) == 0; marked[v] {
				k++
			}
		}
		h := contract(t, g, func(v uint32) bool { return marked[v] })
		vary, _ := h.NumVariable()
		if k < 900 || vary < 900 {
			t.Fatalf("%d nodes: %d marked, %d variable shortcuts: the test proves little", c.n, k, vary)
		}
		ends := make([]ch.Endpoint, 40)
		for i := range ends {
			seeds := randomSeeds(rng, c.n)
			for j := range seeds {
				seeds[j].Cost %= 50 // as in TestMarkedQueryMatchesDijkstra
			}
			ends[i] = ch.Endpoint{Seeds: seeds, Dists: make([]int64, len(seeds))}
		}
		src, dst := ends[:20], ends[20:]
		got := make([]ch.Cell, len(src)*len(dst))
		q := ch.NewQuery(h)
		q.Table(src, dst, got)
		reached := 0
		for i, s := range src {
			cost := search.Dijkstra(g, s.Seeds)
			for j, d := range dst {
				if sharesNode(s.Seeds, d.Seeds) || !wellPosed(cost, d.Seeds) {
					continue // the caller's to answer (see route.MakeEnds)
				}
				want, _ := search.Finish(func(a uint32) uint32 { return cost[a] }, d.Seeds)
				if cell := got[i*len(dst)+j].Cost; cell != want {
					t.Fatalf("%d nodes, %d marked: table [%d][%d] %d, Dijkstra %d", c.n, k, i, j, cell, want)
				}
				res, ok := q.Shortest(s.Seeds, d.Seeds, nil)
				if !ok {
					res.Cost = search.Unreached
				}
				if res.Cost != want {
					t.Fatalf("%d nodes, %d marked: query %d, Dijkstra %d", c.n, k, res.Cost, want)
				}
				if ok {
					reached++
					checkPath(t, g, nil, res, s.Seeds, d.Seeds)
				}
			}
		}
		t.Logf("%d nodes, %d marked, %d variable shortcuts: %d of %d cells reached equal Dijkstra", c.n, k, vary, reached, len(got))
		if reached < len(got)/5 {
			t.Fatalf("%d of %d cells reached: the test proves little", reached, len(got))
		}
	}
}

// randomRing is randomTurns with two to four edges a node, in both
// directions along the ring: most random pairs of its 10,000 or more nodes
// have a path, which randomTurns' sparser ring breaks at this size.
func randomRing(rng *rand.Rand, n int) *graph.Graph {
	g := &graph.Graph{Turns: graph.CSR{First: make([]uint32, n+1)}}
	for u := range n {
		for range 2 + rng.IntN(3) {
			v := (u + rng.IntN(21) - 10 + n) % n
			g.Turns.Edges = append(g.Turns.Edges, uint32(v), 1+rng.Uint32N(1000), 0)
		}
		g.Turns.First[u+1] = uint32(len(g.Turns.Edges) / 3)
	}
	return g
}

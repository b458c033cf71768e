package ch_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup() // the Andorra release, if a test built it
	os.Exit(code)
}

// randomTurns makes a sparse random turn graph with road-like locality
// (each node linked to a few near ids), parallel edges and loops, as a
// graph.Graph holding only Turns, which is all search.Dijkstra reads.
func randomTurns(rng *rand.Rand, n int) *graph.Graph {
	g := &graph.Graph{Turns: graph.CSR{First: make([]uint32, n+1)}}
	for u := range n {
		for range rng.IntN(5) {
			v := (u + rng.IntN(21) - 10 + n) % n
			g.Turns.Edges = append(g.Turns.Edges, uint32(v), 1+rng.Uint32N(1000), 0)
		}
		g.Turns.First[u+1] = uint32(len(g.Turns.Edges) / 3)
	}
	return g
}

// contract builds the hierarchy of g's turn graph with the nodes marked
// names marked (none if nil).
func contract(t *testing.T, g *graph.Graph, marked func(uint32) bool) *ch.Hierarchy {
	in := ch.Input{First: g.Turns.First, Edges: make([]ch.InputEdge, len(g.Turns.Edges)/3), Marked: marked}
	for i := range in.Edges {
		e := g.Turns.At(uint32(i))
		in.Edges[i] = ch.InputEdge{Head: e.Head, Weight: e.Weight}
	}
	h, err := ch.Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// randomSeeds picks one to three seeds with small initial costs.
func randomSeeds(rng *rand.Rand, n int) []search.Seed {
	seeds := make([]search.Seed, 1+rng.IntN(3))
	for i := range seeds {
		seeds[i] = search.Seed{Node: rng.Uint32N(uint32(n)), Cost: rng.Uint32N(2000)}
	}
	return seeds
}

// checkPHAST compares one PHAST run with search.Dijkstra on every node:
// equal below limit, and never below the true cost at or beyond it.
func checkPHAST(t *testing.T, p *ch.PHAST, g *graph.Graph, seeds []search.Seed, limit uint32) {
	t.Helper()
	want := search.Dijkstra(g, seeds)
	got := p.Run(seeds, limit)
	for v, w := range want {
		if w < limit && got[v] != w || w >= limit && got[v] < w {
			t.Fatalf("seeds %v, limit %d: node %d costs %d, Dijkstra %d", seeds, limit, v, got[v], w)
		}
	}
}

// TestPHASTMatchesDijkstra: on random graphs, unbounded and bounded runs
// (the scratch reused between them) agree with Dijkstra on every node.
func TestPHASTMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 8 {
		n := 200 + rng.IntN(600)
		g := randomTurns(rng, n)
		h := contract(t, g, nil)
		p := ch.NewPHAST(h, ch.NewSweep(h))
		for range 50 {
			limit := uint32(search.Unreached)
			if rng.IntN(2) == 0 {
				limit = rng.Uint32N(20000)
			}
			checkPHAST(t, p, g, randomSeeds(rng, n), limit)
		}
	}
}

// uncontracted returns g as a hierarchy whose nodes are all core (none
// contracted): every edge is both in Up at its tail and in Dn at its head,
// so Dn has cycles, the case NewSweep must detect.
func uncontracted(g *graph.Graph) *ch.Hierarchy {
	n := len(g.Turns.First) - 1
	h := &ch.Hierarchy{UpFirst: make([]uint32, n+1), DnFirst: make([]uint32, n+1)}
	in := make([][]uint32, n)
	for u := range uint32(n) {
		begin, end := g.Turns.Out(u)
		for i := begin; i < end; i++ {
			e := g.Turns.At(i)
			h.Up = append(h.Up, e.Head, e.Weight, ch.NoMiddle, 0)
			in[e.Head] = append(in[e.Head], u, e.Weight, ch.NoMiddle, 0)
		}
		h.UpFirst[u+1] = uint32(len(h.Up) / 4)
	}
	for v, l := range in {
		h.Dn = append(h.Dn, l...)
		h.DnFirst[v+1] = uint32(len(h.Dn) / 4)
	}
	return h
}

// TestPHASTCore: with every node in the core, the upward phase is a plain
// Dijkstra and the sweep must neither loop on Dn's cycles nor spoil exact
// labels with a previous run's costs.
func TestPHASTCore(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 4 {
		n := 100 + rng.IntN(300)
		g := randomTurns(rng, n)
		h := uncontracted(g)
		p := ch.NewPHAST(h, ch.NewSweep(h))
		for range 30 {
			checkPHAST(t, p, g, randomSeeds(rng, n), search.Unreached)
		}
	}
}

// TestPHASTMarked: random graphs with a tenth of their nodes marked (as
// conditional arcs are), PHAST against Dijkstra.
func TestPHASTMarked(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for range 6 {
		n := 200 + rng.IntN(400)
		g := randomTurns(rng, n)
		marked := make([]bool, n)
		for v := range marked {
			marked[v] = rng.IntN(10) == 0
		}
		h := contract(t, g, func(v uint32) bool { return marked[v] })
		p := ch.NewPHAST(h, ch.NewSweep(h))
		for range 40 {
			checkPHAST(t, p, g, randomSeeds(rng, n), search.Unreached)
		}
	}
}

// TestPHASTTimedTown: on a compiled town whose conditional streets and
// turns are marked in the car hierarchy, PHAST agrees with Dijkstra on every
// arc (both without the conditions applied).
func TestPHASTTimedTown(t *testing.T) {
	rel := compiletest.TimedTown{W: 16, H: 16, Random: 10, Seed: 9}.Open(t)
	rng := rand.New(rand.NewPCG(8, 8))
	r := rel.Routers["car"]
	g, h := r.Graph(), r.Hierarchy()
	if g.Cond.Empty() {
		t.Fatal("the town has no conditions: its hierarchy has no marked node")
	}
	p := ch.NewPHAST(h, ch.NewSweep(h))
	for range 50 {
		checkPHAST(t, p, g, randomSeeds(rng, h.NumNodes()), search.Unreached)
	}
}

// TestPHASTAndorra: on Andorra's car and pedestrian hierarchies, PHAST
// from random arcs agrees with Dijkstra on every arc.
func TestPHASTAndorra(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	origins := 100
	if testing.Short() {
		origins = 10
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, profile := range []string{"car", "pedestrian"} {
		r := rel.Routers[profile]
		g, h := r.Graph(), r.Hierarchy()
		p := ch.NewPHAST(h, ch.NewSweep(h))
		for i := range origins {
			limit := uint32(search.Unreached)
			if i%2 == 1 {
				limit = 900_000 + rng.Uint32N(2_700_000) // 15 to 60 minutes
			}
			checkPHAST(t, p, g, randomSeeds(rng, h.NumNodes()), limit)
		}
	}
}

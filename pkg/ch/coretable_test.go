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

// TestCoreTableMatchesDijkstra: on random graphs contracted around a random
// core (a tenth of the nodes, or all of them), tables that cross the core
// by its distance table agree with Dijkstra on every cell, on one query or
// shared among two, and with the tables that explore the core.
func TestCoreTableMatchesDijkstra(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	reached, cells := 0, 0
	for round := range 8 {
		g, n, h, explored := aroundCore(t, rng, round)
		// A target seed's cost is the part of its arc beyond the point,
		// at most the arc's own time: kept small here, as ch_test's are.
		ends := func(k int, most uint32) []ch.Endpoint {
			e := make([]ch.Endpoint, k)
			for i := range e {
				e[i].Seeds = randomSeeds(rng, n)
				for s := range e[i].Seeds {
					e[i].Seeds[s].Cost %= most
				}
				e[i].Dists = make([]int64, len(e[i].Seeds))
			}
			return e
		}
		src, dst := ends(23, 2000), ends(31, 50)
		old := make([]ch.Cell, len(src)*len(dst))
		ch.NewQuery(explored).Table(src, dst, old)
		for _, workers := range []int{1, 2} {
			qs := []*ch.Query{ch.NewQuery(h), ch.NewQuery(h)}[:workers]
			got := make([]ch.Cell, len(src)*len(dst))
			ch.ParallelTable(qs, src, dst, got)
			cells += len(got)
			for i := range src {
				cost := search.Dijkstra(g, src[i].Seeds)
				for j := range dst {
					if sharesNode(src[i].Seeds, dst[j].Seeds) {
						continue // the caller's to answer (see Table)
					}
					want, _ := search.Finish(func(a uint32) uint32 { return cost[a] }, dst[j].Seeds)
					c := got[i*len(dst)+j].Cost
					if c != want || old[i*len(dst)+j].Cost != want {
						t.Fatalf("round %d, %d queries, [%d][%d]: table %d, exploring the core %d, Dijkstra %d", round, workers, i, j, c, old[i*len(dst)+j].Cost, want)
					}
					if want != search.Unreached {
						reached++
					}
				}
			}
		}
	}
	if reached < cells/4 {
		t.Fatalf("only %d of %d cells reached: the test proves little", reached, cells)
	}
	t.Logf("%d of %d cells reached", reached, cells)
}

// aroundCore draws a random turn graph of 200–600 nodes and contracts it
// around a random core: a tenth of the nodes, or all of them every fourth
// round. It returns the graph, the hierarchy that crosses its core by the
// core table, and the same hierarchy without its core named, which
// explores the core as before.
func aroundCore(t *testing.T, rng *rand.Rand, round int) (g *graph.Graph, n int, h, explored *ch.Hierarchy) {
	t.Helper()
	n = 200 + rng.IntN(400)
	g = randomTurns(rng, n)
	share := 10
	if round%4 == 3 {
		share = 1 // the whole graph is the core
	}
	set := make([]uint64, (n+63)/64)
	for v := range n {
		if rng.IntN(share) == 0 {
			set[v>>6] |= 1 << (v & 63)
		}
	}
	h = contract(t, g, func(v uint32) bool { return set[v>>6]>>(v&63)&1 != 0 })
	without := *h
	h.SetCore(set)
	return g, n, h, &without
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

// BenchmarkSynthCoreTable is what the first table under a new state pays
// (and, without a state, the first table after start-up): the car core
// table of the 3M synthetic country (MAPS_SYNTH_RELEASE, see
// BenchmarkSynthTable in pkg/matrix).
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench SynthCoreTable ./pkg/ch
func BenchmarkSynthCoreTable(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	st := r.StateAt(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC))
	for b.Loop() {
		ch.CrossCore(r.Hierarchy(), st)
	}
}

// TestCoreTablesPerState: on a town whose conditional streets form the car
// hierarchy's core, tables under states that alternate (so that the kept
// core tables are found again) equal the tables that explore the core
// under the same state, and the states change some cells.
func TestCoreTablesPerState(t *testing.T) {
	rel := compiletest.TimedTown{W: 16, H: 16, Random: 10, Seed: 9}.Open(t)
	r := rel.Routers["car"]
	h := r.Hierarchy()
	explored := *h
	explored.SetCore(nil)
	rng := rand.New(rand.NewPCG(13, 14))
	ends := func(k int) []ch.Endpoint {
		e := make([]ch.Endpoint, k)
		for i := range e {
			e[i] = ch.Endpoint{Seeds: []search.Seed{{Node: rng.Uint32N(uint32(h.NumNodes()))}}, Dists: []int64{0}}
		}
		return e
	}
	src, dst := ends(30), ends(30)
	zone, _ := time.LoadLocation("Europe/Andorra")
	times := []time.Time{
		time.Date(2026, 11, 24, 8, 0, 0, 0, zone),  // Tuesday morning
		time.Date(2026, 11, 28, 11, 0, 0, 0, zone), // Saturday
		time.Date(2026, 11, 24, 23, 0, 0, 0, zone), // Tuesday night
	}
	q, old := ch.NewQuery(h), ch.NewQuery(&explored)
	first := make([]ch.Cell, len(src)*len(dst))
	changed := 0
	for k := range 3 * len(times) {
		st := r.StateAt(times[k%len(times)])
		q.SetState(st)
		old.SetState(st)
		got, want := make([]ch.Cell, len(first)), make([]ch.Cell, len(first))
		q.Table(src, dst, got)
		old.Table(src, dst, want)
		for i := range got {
			if got[i].Cost != want[i].Cost {
				t.Fatalf("table %d (%s), cell [%d][%d]: %d across the core table, %d exploring the core", k, times[k%len(times)], i/len(dst), i%len(dst), got[i].Cost, want[i].Cost)
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

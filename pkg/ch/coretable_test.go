package ch_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
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
		n := 200 + rng.IntN(400)
		g := randomTurns(rng, n)
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
		inCore := func(v uint32) bool { return set[v>>6]>>(v&63)&1 != 0 }
		h := contract(t, g, inCore)
		explored := *h // the same hierarchy without its core named
		h.SetCore(set)
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
		ch.NewQuery(&explored).Table(src, dst, old)
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

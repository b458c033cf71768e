package ch_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/search"
)

// BenchmarkSynthShortest is the hierarchy's part of a car route on the 3M
// synthetic country (MAPS_SYNTH_RELEASE, see BenchmarkSynthLeg in
// pkg/route): queries with unpacking between random arcs, without a state
// and under the state at a departure (as the server computes every route,
// departure_time defaulting to now).
//
//	MAPS_SYNTH_RELEASE=/work/s3m/releases/s3m go test -run X -bench SynthShortest ./pkg/ch
func BenchmarkSynthShortest(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	h := r.Hierarchy()
	vary, candidates := h.NumVariable()
	b.Logf("car: %d arcs, %d conditional, %d hierarchy edges, %d variable shortcuts (%d candidates)",
		h.NumNodes(), len(r.Graph().Cond.Arcs), (len(h.Up)+len(h.Dn))/4, vary, candidates)
	rng := rand.New(rand.NewPCG(31, 32))
	pairs := make([][2][]search.Seed, 1000)
	for i := range pairs {
		pairs[i] = [2][]search.Seed{{{Node: rng.Uint32N(uint32(h.NumNodes()))}}, {{Node: rng.Uint32N(uint32(h.NumNodes()))}}}
	}
	states := []struct {
		name string
		st   *graph.State
	}{{"none", nil}, {"state", r.StateAt(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC))}}
	for _, s := range states {
		b.Run(s.name, func(b *testing.B) {
			q := ch.NewQuery(h)
			q.SetState(s.st)
			var buf []uint32
			for _, p := range pairs { // fault the pages in, weigh the state's metric
				res, _ := q.Shortest(p[0], p[1], buf[:0])
				buf = res.Arcs
			}
			i := 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				p := pairs[i%len(pairs)]
				i++
				res, _ := q.Shortest(p[0], p[1], buf[:0])
				buf = res.Arcs
			}
		})
	}
}

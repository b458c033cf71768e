package ch_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

// BenchmarkBuild contracts Andorra's turn graph of each profile, the work
// mapc build does once per profile (the 3M-node country's figures are in
// docs/benchmarks-history.md, "Compile").
func BenchmarkBuild(b *testing.B) {
	rel := compiletest.OpenAndorra(b)
	for _, profile := range []string{"car", "bicycle", "pedestrian"} {
		in := ch.FromGraph(rel.Routers[profile].Graph())
		b.Run(profile, func(b *testing.B) {
			defer benchcpu.Report(b)()
			for b.Loop() {
				if _, err := ch.Build(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSynthBuild contracts one profile's turn graph of the ~3M-node
// synthetic country (mapc build contracts six, two at a time), from the
// release in MAPS_SYNTH_RELEASE (pedestrian is the largest, ~30 s a run),
// and reports the hierarchy's size and its queries' reach: the nodes an
// upward search from a random arc could settle, on average (the search
// space's bound, which orders of contraction are judged by).
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthBuild/car -benchtime 1x -count 6 ./pkg/ch
func BenchmarkSynthBuild(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	for _, profile := range []string{"car", "bicycle", "pedestrian"} {
		b.Run(profile, func(b *testing.B) {
			g := rel.Routers[profile].Graph()
			in := ch.FromGraph(g)
			stop := benchcpu.Report(b)
			var h *ch.Hierarchy
			for b.Loop() {
				var err error
				if h, err = ch.Build(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			stop()
			b.ReportMetric(float64(len(h.Up)+len(h.Dn))/4, "edges")
			b.ReportMetric(upwardReach(h, g, 400), "up-nodes")
		})
	}
}

// upwardReach returns the average number of nodes reachable from n random
// arcs of g's main network over h's upward edges.
func upwardReach(h *ch.Hierarchy, g *graph.Graph, n int) float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make([]int, h.NumNodes())
	var stack []uint32
	total := 0
	for i := 1; i <= n; {
		a := rng.Uint32N(g.NumArcs())
		if s, _ := g.ArcSegment(a); g.Big[s] != 1 {
			continue
		}
		stack = append(stack[:0], a)
		seen[a] = i
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			total++
			for e := h.UpFirst[u]; e < h.UpFirst[u+1]; e++ {
				if v := h.Up[4*e]; seen[v] != i {
					seen[v] = i
					stack = append(stack, v)
				}
			}
		}
		i++
	}
	return float64(total) / float64(n)
}

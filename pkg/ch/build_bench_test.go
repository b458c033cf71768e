package ch_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
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
// release in MAPS_SYNTH_RELEASE (pedestrian is the largest, ~45 s a run):
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthBuild/car -benchtime 1x -count 6 ./pkg/ch
func BenchmarkSynthBuild(b *testing.B) {
	rel := compiletest.OpenSynth(b)
	for _, profile := range []string{"car", "bicycle", "pedestrian"} {
		b.Run(profile, func(b *testing.B) {
			in := ch.FromGraph(rel.Routers[profile].Graph())
			defer benchcpu.Report(b)()
			var h *ch.Hierarchy
			for b.Loop() {
				var err error
				if h, err = ch.Build(context.Background(), in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(h.Up)+len(h.Dn))/4, "edges")
		})
	}
}

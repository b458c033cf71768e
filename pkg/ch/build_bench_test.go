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

package matrix_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/matrix"
)

// BenchmarkSynthTable is the other figure: a 100×100 car table
// (snapping included) between random points of the ~3M-node synthetic
// country, which tests do not build: point MAPS_SYNTH_RELEASE at a release
// of `mapc synth --nodes 3000000` (docs/benchmarks-history.md says how to build one).
//
//	MAPS_SYNTH_RELEASE=/tmp/iso-releases/iso-synth-3m-v2 go test -run X -bench SynthTable -count 6 ./pkg/matrix
func BenchmarkSynthTable(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	q := ch.NewQuery(r.Hierarchy())
	rng := rand.New(rand.NewPCG(5, 6))
	src, dst := randomPoints(rng, r, 100), randomPoints(rng, r, 100)
	matrix.Compute(r, q, src, dst) // the first table faults the mapping in
	defer benchcpu.Report(b)()
	for b.Loop() {
		matrix.Compute(r, q, src, dst)
	}
}

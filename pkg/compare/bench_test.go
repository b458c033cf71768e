package compare

import (
	"context"
	"os"
	"testing"
)

// BenchmarkCompareAndorra is the first time target: Andorra against
// its edited copy with the defaults (1,000 pairs × 6 profiles, 50
// isochrones, 20-point matrices, 200 heights) and the HTML map.
func BenchmarkCompareAndorra(b *testing.B) {
	_, old, edited := fixture(b)
	benchmarkRun(b, old, edited)
}

// BenchmarkCompareSynth is the second: the ~3M-node synthetic country.
// Tests do not build it (docs/benchmarks-history.md says how): MAPS_SYNTH_RELEASE names
// the old release and MAPS_SYNTH_RELEASE_NEW the new one (the old one again
// when unset: the same work, every answer compared, nothing changed).
func BenchmarkCompareSynth(b *testing.B) {
	old := os.Getenv("MAPS_SYNTH_RELEASE")
	if old == "" {
		b.Skip("MAPS_SYNTH_RELEASE is not set: point it at a release of mapc synth --nodes 3000000 (see docs/benchmarks-history.md)")
	}
	edited := os.Getenv("MAPS_SYNTH_RELEASE_NEW")
	if edited == "" {
		edited = old
	}
	benchmarkRun(b, old, edited)
}

func benchmarkRun(b *testing.B, old, edited string) {
	routes := 0
	for b.Loop() {
		rep, err := Run(context.Background(), old, edited, Options{Map: true})
		if err != nil {
			b.Fatal(err)
		}
		routes = 0
		for _, s := range rep.Routes {
			routes += 2 * s.Pairs // each pair is routed on both releases
		}
	}
	b.ReportMetric(float64(routes), "routes/op")
}

package compiletest

import (
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/serving"
)

// OpenSynth opens the release that MAPS_SYNTH_RELEASE names, or skips the
// test. Benchmarks on the ~3M-node synthetic country use it: tests do not
// build that country (a few minutes of mapc), so whoever measures builds it
// once (BENCHMARKS.md says how) and points the variable at the release.
func OpenSynth(t testing.TB) *serving.Release {
	t.Helper()
	dir := os.Getenv("MAPS_SYNTH_RELEASE")
	if dir == "" {
		t.Skip("MAPS_SYNTH_RELEASE is not set: point it at a release of mapc synth --nodes 3000000 (see BENCHMARKS.md)")
	}
	rel, err := serving.Open(dir)
	if err != nil {
		t.Fatalf("MAPS_SYNTH_RELEASE: %v", err)
	}
	t.Cleanup(func() { rel.Close() })
	return rel
}

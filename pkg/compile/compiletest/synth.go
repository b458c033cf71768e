package compiletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/mapsco/maps/pkg/serving"
)

// OpenSynth opens the release that MAPS_SYNTH_RELEASE names, or skips the
// test. Benchmarks on the ~3M-node synthetic country use it: tests do not
// build that country (a few minutes of mapc), so whoever measures builds it
// once (docs/benchmarks-history.md says how) and points the variable at the release.
func OpenSynth(t testing.TB) *serving.Release {
	t.Helper()
	dir := os.Getenv("MAPS_SYNTH_RELEASE")
	if dir == "" {
		t.Skip("MAPS_SYNTH_RELEASE is not set: point it at a release of mapc synth --nodes 3000000 (see docs/benchmarks-history.md)")
	}
	rel, err := serving.Open(dir)
	if err != nil {
		t.Fatalf("MAPS_SYNTH_RELEASE: %v", err)
	}
	t.Cleanup(func() { rel.Close() })
	return rel
}

// SynthRelease returns a release of a synthetic country of about nodes
// routable nodes (mapc synth --nodes, then mapc build with every profile),
// compiled into out, or the release MAPS_SYNTH_RELEASE names when it is
// set (the full 3M-node country, built once by whoever measures).
func SynthRelease(t testing.TB, out string, nodes int) string {
	t.Helper()
	if dir := os.Getenv("MAPS_SYNTH_RELEASE"); dir != "" {
		return dir
	}
	mapc := mapcIn(t, out)
	pbf := filepath.Join(out, "synth.osm.pbf")
	synth := exec.Command(mapc, "synth", "--nodes", strconv.Itoa(nodes), "--data-dir", filepath.Join(Root(), "..", "shared", "data"), "--out", pbf)
	if b, err := synth.CombinedOutput(); err != nil {
		t.Fatalf("mapc synth --nodes %d: %v\n%s", nodes, err, b)
	}
	build := exec.Command(mapc, "build", "--osm", pbf, "--profiles", filepath.Join(Root(), "profiles"),
		"--data-version", "synth", "--out", out)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("mapc build of the synthetic country: %v\n%s", err, b)
	}
	os.Remove(pbf)
	return filepath.Join(out, "synth")
}

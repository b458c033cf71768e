package compiletest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/serving"
)

// The releases below are compiled by the mapc binary rather than in the test
// process: under -race an in-process build of Andorra takes many times as
// long, and tests that need several releases would blow their time budget.

var (
	mapcMu  sync.Mutex
	mapcBin string // built once per test binary, removed by Cleanup
)

// mapcIn returns a mapc binary built from this checkout, once per test
// binary (linking it costs seconds, and tests compile many small towns).
// out is unused: releases of any directory share it.
func mapcIn(t testing.TB, out string) string {
	t.Helper()
	_ = out
	mapcMu.Lock()
	defer mapcMu.Unlock()
	if mapcBin != "" {
		return mapcBin
	}
	dir, err := os.MkdirTemp("", "compiletest-mapc-")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "mapc")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mapc")
	cmd.Dir = Root()
	if b, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("build mapc: %v\n%s", err, b)
	}
	mapcBin = bin
	return bin
}

// Mapc returns the mapc binary that compiles the releases here, for tests
// that run mapc's other commands on them (built once per test binary,
// removed by Cleanup).
func Mapc(t testing.TB) string {
	t.Helper()
	return mapcIn(t, "")
}

// AndorraRelease compiles ../shared/data/andorra.osm.pbf and AndorraDEM into
// out/version with `mapc build` and returns that directory. Unlike Andorra it builds
// every time and into a directory the caller owns, for tests that keep
// several releases side by side, point "current" at them, or corrupt them.
func AndorraRelease(t testing.TB, out, version string) string {
	t.Helper()
	RequireAndorra(t)
	args := []string{"build", "--osm", SharedData(t, "andorra.osm.pbf"),
		"--profiles", filepath.Join(Root(), "profiles"), "--data-version", version, "--out", out}
	for _, dem := range AndorraDEM() { // as Andorra builds, so the releases can replace each other
		args = append(args, "--dem", dem)
	}
	cmd := exec.Command(mapcIn(t, out), args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mapc build Andorra as %s: %v\n%s", version, err, b)
	}
	return filepath.Join(out, version)
}

// Extract compiles the extract ../shared/data/name (no DEM) with mapc
// (cached: cache.go) and opens the release for the test or benchmark.
func Extract(tb testing.TB, name string) *serving.Release {
	tb.Helper()
	pbf := SharedData(tb, name)
	dir := compileCached(tb, "extract", []string{pbf},
		[]string{"--osm", pbf, "--profiles", filepath.Join(Root(), "profiles"), "--data-version", "extract"})
	return openRelease(tb, dir)
}

// openFixture writes a synthetic fixture with write into a temporary
// directory as name.osm.pbf, compiles it with mapc (every profile, plus any
// extra build flags; cached: cache.go) as data version name, and opens the
// release for the test.
func openFixture(tb testing.TB, name string, write func(pbf string) error, extra ...string) *serving.Release {
	tb.Helper()
	pbf := filepath.Join(tb.TempDir(), name+".osm.pbf")
	if err := write(pbf); err != nil {
		tb.Fatal(err)
	}
	args := append([]string{"--osm", pbf, "--profiles", filepath.Join(Root(), "profiles"), "--data-version", name}, extra...)
	return openRelease(tb, compileCached(tb, name, []string{pbf}, args))
}

// openRelease opens the release in dir and closes it when tb ends.
func openRelease(tb testing.TB, dir string) *serving.Release {
	tb.Helper()
	rel, err := serving.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { rel.Close() })
	return rel
}

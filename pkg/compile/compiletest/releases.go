package compiletest

import (
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The releases below are compiled by the mapc binary rather than in the test
// process: under -race an in-process build of Andorra takes many times as
// long, and tests that need several releases would blow their time budget.

var (
	mapcOnce sync.Once
	mapcBin  string
	mapcErr  error
)

// mapc builds cmd/mapc once per test binary, beside Andorra's release (so
// Cleanup removes it), and returns its path.
func mapc(t testing.TB) string {
	t.Helper()
	out := filepath.Dir(Andorra(t))
	mapcOnce.Do(func() {
		mapcBin = filepath.Join(out, "mapc")
		cmd := exec.Command("go", "build", "-o", mapcBin, "./cmd/mapc")
		cmd.Dir = Root()
		if b, err := cmd.CombinedOutput(); err != nil {
			mapcErr = &buildError{err, string(b)}
		}
	})
	if mapcErr != nil {
		t.Fatalf("build mapc: %v", mapcErr)
	}
	return mapcBin
}

type buildError struct {
	err    error
	output string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.output }

// AndorraRelease compiles ../shared/data/andorra.osm.pbf into out/version
// with `mapc build` and returns that directory. Unlike Andorra it builds
// every time and into a directory the caller owns, for tests that keep
// several releases side by side, point "current" at them, or corrupt them.
func AndorraRelease(t testing.TB, out, version string) string {
	t.Helper()
	cmd := exec.Command(mapc(t), "build", "--osm", SharedData("andorra.osm.pbf"),
		"--profiles", filepath.Join(Root(), "profiles"), "--data-version", version, "--out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mapc build Andorra as %s: %v\n%s", version, err, b)
	}
	return filepath.Join(out, version)
}

var (
	versionsMu sync.Mutex
	versions   = map[string]string{}
)

// AndorraVersion returns a release of Andorra with data version v, compiled
// once per test binary beside the one Andorra returns (so Cleanup removes
// it too). v "test1" is Andorra's own. Tests must not modify it: copy it.
func AndorraVersion(t testing.TB, v string) string {
	t.Helper()
	shared := Andorra(t)
	if v == "test1" {
		return shared
	}
	versionsMu.Lock()
	defer versionsMu.Unlock()
	if dir, ok := versions[v]; ok {
		return dir
	}
	dir := AndorraRelease(t, filepath.Dir(shared), v)
	versions[v] = dir
	return dir
}

// Package compiletest builds releases from the real extracts in
// ../shared/data for other packages' tests, once per test binary.
package compiletest

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/internal/shareddata"
	"github.com/mapsco/maps/pkg/serving"
)

// Root returns the repository root, found from this file's location.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// SharedData returns the path of a file under ../shared/data, skipping the
// test with the path and where the data comes from when it is absent
// (shareddata.Path, which tests outside pkg/ cannot import).
func SharedData(tb testing.TB, name string) string {
	tb.Helper()
	return shareddata.Path(tb, name)
}

// andorraFiles are the files under ../shared/data Andorra's releases are
// compiled from: the extract and AndorraDEM.
var andorraFiles = []string{"andorra.osm.pbf", "dem/N42E001.hgt.zip"}

// RequireAndorra skips tb, as SharedData does, unless the files Andorra's
// releases are compiled from are there. Call it before a build inside a
// sync.Once: a skip in there would leave the Once done and nothing built.
func RequireAndorra(tb testing.TB) {
	tb.Helper()
	for _, name := range andorraFiles {
		SharedData(tb, name)
	}
}

// AndorraMissing returns why a file Andorra's releases are compiled from is
// absent, or nil, for a TestMain, which has no testing.TB to skip.
func AndorraMissing() error {
	return shareddata.Missing(andorraFiles...)
}

var (
	once sync.Once
	dir  string
)

// AndorraDEM returns the elevation rasters covering Andorra: the SRTM3
// tile N42E001 from ../shared/data/dem. Releases built for tests pass it to
// --dem (or Options.DEM), so they have elevation and grade-aware times.
// It does not check they are there: RequireAndorra does.
func AndorraDEM() []string {
	return []string{filepath.Join(shareddata.Dir(), andorraFiles[1])}
}

// Andorra returns the directory of a release compiled from
// ../shared/data/andorra.osm.pbf and AndorraDEM with data version "test1". All tests of a
// package share it, so it outlives any one test: call Cleanup from TestMain.
func Andorra(t testing.TB) string {
	t.Helper()
	RequireAndorra(t)
	once.Do(func() {
		// Through the mapc binary (see releases.go): under -race an
		// in-process build costs a minute per test binary. Cached
		// (cache.go): every test binary of a run shares one build.
		pbf := SharedData(t, andorraFiles[0])
		args := []string{"--osm", pbf, "--profiles", filepath.Join(Root(), "profiles"), "--data-version", "test1"}
		for _, dem := range AndorraDEM() { // as AndorraRelease builds, so the releases can replace each other
			args = append(args, "--dem", dem)
		}
		dir = compileCached(t, "test1", append([]string{pbf}, AndorraDEM()...), args)
	})
	if dir == "" {
		t.Fatal("compile Andorra failed in an earlier test")
	}
	return dir
}

// Cleanup removes the mapc binary, if any; the cached releases stay for
// the next test binary (cache.go).
func Cleanup() {
	mapcMu.Lock()
	defer mapcMu.Unlock()
	if mapcBin != "" {
		os.RemoveAll(filepath.Dir(mapcBin))
		mapcBin = ""
	}
}

// OpenAndorra opens the shared Andorra release for a test and closes it when
// the test ends.
func OpenAndorra(t testing.TB) *serving.Release {
	t.Helper()
	rel, err := serving.Open(Andorra(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rel.Close() })
	return rel
}

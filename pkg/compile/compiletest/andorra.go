// Package compiletest builds releases from the real extracts in
// ../shared/data for other packages' tests, once per test binary.
package compiletest

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/serving"
)

// Root returns the repository root, found from this file's location.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// SharedData returns the path of a file under ../shared/data.
func SharedData(name string) string {
	return filepath.Join(Root(), "..", "shared", "data", name)
}

var (
	once sync.Once
	out  string
	dir  string
	err  error
)

// AndorraDEM returns the elevation rasters covering Andorra: the SRTM3
// tile N42E001 from ../shared/data/dem. Releases built for tests pass it to
// --dem (or Options.DEM), so they have elevation and grade-aware times.
func AndorraDEM() []string {
	return []string{SharedData("dem/N42E001.hgt.zip")}
}

// Andorra returns the directory of a release compiled from
// ../shared/data/andorra.osm.pbf and AndorraDEM with data version "test1". All tests of a
// package share it, so it outlives any one test: call Cleanup from TestMain.
func Andorra(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		out, err = os.MkdirTemp("", "andorra-release-")
		if err != nil {
			return
		}
		// Through the mapc binary (see releases.go): under -race an
		// in-process build costs a minute per test binary.
		dir = AndorraRelease(t, out, "test1")
	})
	if err != nil || dir == "" {
		t.Fatalf("compile Andorra: %v", err)
	}
	return dir
}

// Cleanup removes the release Andorra built and the mapc binary, if any.
func Cleanup() {
	if out != "" {
		os.RemoveAll(out)
	}
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

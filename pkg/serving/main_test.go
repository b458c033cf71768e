package serving_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// releasesRoot holds the releases the tests compile, removed by TestMain.
var releasesRoot string

func TestMain(m *testing.M) {
	var err error
	if releasesRoot, err = os.MkdirTemp("", "release-test-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(releasesRoot)
	compiletest.Cleanup()
	os.Exit(code)
}

var (
	builtMu sync.Mutex
	built   = map[string]string{}
)

// testRelease returns a release of Andorra with data version v, compiled once
// per test binary by the mapc binary: an in-process build under -race takes
// many times as long. Tests must not modify it.
func testRelease(t *testing.T, v string) string {
	t.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if dir, ok := built[v]; ok {
		return dir
	}
	dir := compiletest.AndorraRelease(t, filepath.Join(releasesRoot, "releases"), v)
	built[v] = dir
	return dir
}

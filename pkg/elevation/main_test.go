package elevation

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/internal/hgt"
	"github.com/mapsco/maps/pkg/internal/shareddata"
)

// tilePath returns the real SRTM tile name (N42E001, ...) from
// ../shared/data/dem, or skips the test when it is absent.
func tilePath(t testing.TB, name string) string {
	t.Helper()
	return shareddata.Path(t, "dem/"+name+".hgt.zip")
}

// openTiles reads the named SRTM tiles in pure Go (pkg/internal/hgt):
// pkg/dem's tests check that GDAL reads them the same.
func openTiles(t testing.TB, tiles ...string) []Raster {
	t.Helper()
	rasters := make([]Raster, len(tiles))
	for i, n := range tiles {
		r, err := hgt.Open(tilePath(t, n))
		if err != nil {
			t.Fatal(err)
		}
		rasters[i] = r
	}
	return rasters
}

var tmpRoot string

func TestMain(m *testing.M) {
	var err error
	if tmpRoot, err = os.MkdirTemp("", "elevation-test-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(tmpRoot)
	os.Exit(code)
}

// buildArtifact runs Build on the given tiles and writes the artifact file.
func buildArtifact(t testing.TB, path string, tiles ...string) *Stats {
	t.Helper()
	w, err := artifact.NewWriter("elevation", "test")
	if err != nil {
		t.Fatal(err)
	}
	st, err := Build(context.Background(), openTiles(t, tiles...), w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return st
}

var (
	andorraOnce sync.Once
	andorraPath string
	andorraSt   *Stats
)

// andorraFile builds N42E001 + N41E001 once per test binary.
func andorraFile(t testing.TB) string {
	tilePath(t, "N42E001") // a skip inside the Once would leave it done and nothing built
	tilePath(t, "N41E001")
	andorraOnce.Do(func() {
		p := filepath.Join(tmpRoot, "andorra.elev")
		andorraSt = buildArtifact(t, p, "N42E001", "N41E001")
		andorraPath = p
	})
	if andorraPath == "" {
		t.Fatal("building the Andorra artifact failed in an earlier test")
	}
	return andorraPath
}

// openDEM opens the Andorra artifact with its own cache.
func openDEM(t testing.TB, cacheBlocks int) *DEM {
	t.Helper()
	f, err := artifact.Open(andorraFile(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	d, err := Open(f, cacheBlocks)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

package compare

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/osm"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureDir != "" {
		os.RemoveAll(fixtureDir)
	}
	compiletest.Cleanup()
	os.Exit(code)
}

// The edit the tests make to Andorra: the CG-3 bridge into La Massana
// removed, the one-way Túnel dels dos Valires (CG-3a, Escaldes) reversed.
// Both carry many of the country's car routes, in different places, so
// the routes each changes can be told apart.
const (
	removedWay = 23841423  // Pont de Santa Caterina, CG-3, highway=primary, bridge
	flippedWay = 124673943 // Túnel dels dos Valires, CG-3a, highway=trunk, oneway=yes
)

var (
	fixtureOnce sync.Once
	fixtureDir  string // holds releases "old" and "edited", removed by TestMain
	fixtureOK   bool
)

// fixture compiles Andorra and its edited copy side by side in one
// directory of releases, once per test binary: the two builds are most of
// this package's test time, so every test shares them.
func fixture(t testing.TB) (dir, old, edited string) {
	t.Helper()
	compiletest.RequireAndorra(t)
	fixtureOnce.Do(func() {
		d, err := os.MkdirTemp("", "compare-releases-")
		if err != nil {
			t.Fatal(err)
		}
		fixtureDir = d
		compiletest.AndorraRelease(t, d, "old")
		compiletest.EditedAndorraRelease(t, d, "edited", compiletest.Edit{Remove: []int64{removedWay}, Flip: []int64{flippedWay}})
		fixtureOK = true
	})
	if !fixtureOK {
		t.Fatal("the fixture releases failed to build in an earlier test")
	}
	return fixtureDir, filepath.Join(fixtureDir, "old"), filepath.Join(fixtureDir, "edited")
}

// wayNodes returns the positions (1e-7 degrees) of the nodes of the given
// ways of andorra.osm.pbf, per way.
func wayNodes(t *testing.T, ids ...int64) map[int64]map[[2]int32]bool {
	t.Helper()
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	refs := map[int64][]int64{}
	ctx := context.Background()
	err := osm.Scan(ctx, compiletest.SharedData(t, "andorra.osm.pbf"), osm.Handlers{Way: func(w *osm.Way) error {
		if want[w.ID] {
			refs[w.ID] = w.NodeIDs
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	at := map[int64][2]int32{}
	err = osm.Scan(ctx, compiletest.SharedData(t, "andorra.osm.pbf"), osm.Handlers{Node: func(n *osm.Node) error {
		at[n.ID] = [2]int32{geo.Fixed(n.Lon), geo.Fixed(n.Lat)}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]map[[2]int32]bool{}
	for _, id := range ids {
		if len(refs[id]) == 0 {
			t.Fatalf("way %d is not in andorra.osm.pbf", id)
		}
		out[id] = map[[2]int32]bool{}
		for _, n := range refs[id] {
			out[id][at[n]] = true
		}
	}
	return out
}

// smallOptions keep the in-process comparisons quick, smaller still under
// -short (the race pass).
func smallOptions() Options {
	o := Options{Pairs: 400, Isochrones: 24, Seed: 7}
	if testing.Short() {
		o.Pairs, o.Isochrones, o.MatrixPoints, o.ElevationPoints = 100, 6, 8, 50
	}
	return o
}

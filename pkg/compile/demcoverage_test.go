package compile_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

// TestDEMCoverage compiles Monaco with its own tile, with Andorra's tile
// (a wrong tile list: it covers none of Monaco's roads), and with both. A
// DEM that reaches no road fails the build and leaves nothing behind; the
// right tile is recorded as covering every road node, and mapd verify's
// reading of it (Manifest.DEMCoverage) says all have a height.
func TestDEMCoverage(t *testing.T) {
	monacoDEM := compiletest.SharedData(t, "dem/N43E007.hgt.zip")
	andorraDEM := compiletest.SharedData(t, "dem/N42E001.hgt.zip")
	build := func(version string, dems ...string) (*release.Manifest, string, error) {
		out := t.TempDir()
		m, _, err := compile.Build(context.Background(), compile.Options{
			OSM: compiletest.SharedData(t, "monaco.osm.pbf"), DEM: dems, DataVersion: version, Out: out,
			ProfilesDir: filepath.Join(compiletest.Root(), "profiles"),
		})
		return m, out, err
	}
	for _, dems := range [][]string{{andorraDEM}, {monacoDEM, andorraDEM}} {
		_, out, err := build("wrong", dems...)
		if err == nil || !strings.Contains(err.Error(), "DEM N42E001.hgt.zip covers none of the") {
			t.Errorf("Monaco with %v: %v, want the build refused naming N42E001.hgt.zip", dems, err)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("a refused build left %v behind", entries)
		}
	}
	m, _, err := build("right", monacoDEM)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.DEM) != 1 || m.DEM[0].RoadCoverage == nil || *m.DEM[0].RoadCoverage != 1 {
		t.Errorf("manifest DEM %+v, want N43E007 covering every road node", m.DEM)
	}
	share, ok := m.DEMCoverage()
	if !ok || share != 1 || m.Stats["dem_road_nodes"] < 1000 {
		t.Errorf("DEMCoverage() = %v, %v over %d road nodes; want all of Monaco's (over 1,000)", share, ok, m.Stats["dem_road_nodes"])
	}
	if m.Source.RoadCoverage != nil {
		t.Errorf("the OSM source has a road coverage: %v", *m.Source.RoadCoverage)
	}
}

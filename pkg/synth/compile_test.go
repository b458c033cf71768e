package synth

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/compile"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// TestCompiledCountryRoutesAcrossTiles compiles a 3-tile country (Monaco,
// Stockholm, Monaco on a 2-column grid) and drives by car from Monaco's
// casino in tile 0 to the same spot in tile 2, one row north: the only way
// there is the synthetic trunk road between the two tiles.
func TestCompiledCountryRoutesAcrossTiles(t *testing.T) {
	dir := t.TempDir()
	pbf := filepath.Join(dir, "three.osm.pbf")
	s := generate(t, 3, pbf)
	ctx := context.Background()
	_, relDir, err := compile.Build(ctx, compile.Options{
		OSM:         pbf,
		ProfilesDir: filepath.Join(repoRoot(), "profiles"),
		DataVersion: "synth3",
		Out:         filepath.Join(dir, "releases"),
	})
	if err != nil {
		t.Fatalf("compile the synthetic country: %v", err)
	}
	rel, err := serving.Open(relDir)
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()

	casino := func(tile int) route.Point {
		tl := s.Plan.Tiles[tile]
		return route.Point{geo.Degrees(geo.Fixed(7.4283) + tl.DLon), geo.Degrees(geo.Fixed(43.7393) + tl.DLat)}
	}
	a, b := casino(0), casino(2)
	r, err := rel.Routers["car"].Route(ctx, []route.Point{a, b}, nil)
	if err != nil {
		t.Fatalf("car route from tile 0 %v to tile 2 %v: %v", a, b, err)
	}
	straight := geo.Distance(a[0], a[1], b[0], b[1])
	if r.DistanceM < straight || r.DistanceM > 2*straight || r.DurationS <= 0 {
		t.Fatalf("route %.0f m in %.0f s; straight line %.0f m", r.DistanceM, r.DurationS, straight)
	}
	// The shape must cross the empty band between the two rows of tiles:
	// north of tile 0's roads, south of tile 2's (Monaco's highway bbox spans
	// latitudes 43.7233 to 43.7519).
	above0, below2 := geo.Fixed(43.7519)+s.Plan.Tiles[0].DLat, geo.Fixed(43.7233)+s.Plan.Tiles[2].DLat
	gap := 0
	for _, p := range r.Shape() {
		if lat := geo.Fixed(p[1]); lat > above0 && lat < below2 {
			gap++
		}
	}
	if gap < 10 {
		t.Fatalf("only %d shape points between the tiles: not on the trunk road", gap)
	}
}

package compile

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/shareddata"
	"github.com/mapsco/maps/pkg/profile"
)

// The DEM step's cost, measured on Andorra with the SRTM3 tile N42E001:
//
//	go test ./pkg/compile -run '^$' -bench 'DEM|Terrain' -benchtime 5x
//
// BenchmarkDEMStep is dem.Build plus writing and mapping
// elevation.map; BenchmarkTerrainProfile is the climb of every segment of
// the network (bridges and tunnels by portal). B/op is the Go heap
// allocated per run; peak-MiB is the whole test process's peak RSS.

func benchOptions(b *testing.B) Options {
	o := Options{OSM: shareddata.Path(b, "andorra.osm.pbf"), ProfilesDir: filepath.Join("..", "..", "profiles"),
		DataVersion: "bench", DEM: []string{shareddata.Path(b, "dem/N42E001.hgt.zip")}}
	o.ensureDefaults()
	if err := o.validate(); err != nil {
		b.Fatal(err)
	}
	return o
}

func BenchmarkDEMStep(b *testing.B) {
	o := benchOptions(b)
	b.ReportAllocs()
	for b.Loop() {
		d, err := buildDEM(context.Background(), o, b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		d.close()
	}
	b.ReportMetric(float64(PeakRSS())/(1<<20), "peak-MiB")
}

func BenchmarkTerrainProfile(b *testing.B) {
	o := benchOptions(b)
	profiles, err := profile.LoadDir(o.ProfilesDir)
	if err != nil {
		b.Fatal(err)
	}
	in, _, _, err := extract(context.Background(), o, profiles, newConditions())
	if err != nil {
		b.Fatal(err)
	}
	net, _, _, err := graph.Build(context.Background(), in)
	if err != nil {
		b.Fatal(err)
	}
	d, err := buildDEM(context.Background(), o, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer d.close()
	b.ReportAllocs()
	for b.Loop() {
		newTerrain(d.dem, profiles, func(string, ...any) {}).profileNetwork(net)
	}
	b.ReportMetric(float64(net.NumSegments()), "segments")
	b.ReportMetric(float64(PeakRSS())/(1<<20), "peak-MiB")
}

package compiletest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/compile"
)

// AndorraRelease compiles ../shared/data/andorra.osm.pbf into out/version
// and returns that directory. Unlike Andorra it builds every time and into
// a directory the caller owns, for tests that keep several releases side by
// side, point "current" at them, or corrupt them.
func AndorraRelease(t testing.TB, out, version string) string {
	t.Helper()
	_, dir, err := compile.Build(context.Background(), compile.Options{
		OSM:         SharedData("andorra.osm.pbf"),
		ProfilesDir: filepath.Join(Root(), "profiles"),
		DataVersion: version,
		Out:         out,
	})
	if err != nil {
		t.Fatalf("compile Andorra as %s: %v", version, err)
	}
	return dir
}

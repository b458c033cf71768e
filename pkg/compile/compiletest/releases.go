package compiletest

import (
	"context"
	"path/filepath"
	"sync"
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

package compile_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

func options(t *testing.T, out, version string) compile.Options {
	t.Helper()
	compiletest.RequireAndorra(t)
	return compile.Options{
		OSM:         compiletest.SharedData(t, "andorra.osm.pbf"),
		DEM:         compiletest.AndorraDEM(),
		ProfilesDir: filepath.Join(compiletest.Root(), "profiles"),
		DataVersion: version,
		Out:         out,
		TimeZone:    "Europe/Andorra", // as mapc's default, which compiletest.Andorra uses
	}
}

// TestDeterministic builds Andorra again beside the shared test release and
// compares the artifacts byte for byte: only the manifest's build time may
// differ.
func TestDeterministic(t *testing.T) {
	a := compiletest.Andorra(t)
	_, b, err := compile.Build(context.Background(), options(t, t.TempDir(), "test1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{release.GraphFile, release.ElevationFile} {
		ga, _ := os.ReadFile(filepath.Join(a, name))
		gb, _ := os.ReadFile(filepath.Join(b, name))
		if len(ga) == 0 || !bytes.Equal(ga, gb) {
			t.Fatalf("two builds of %s differ (%d and %d bytes)", name, len(ga), len(gb))
		}
	}
	if err := release.Verify(a); err != nil {
		t.Fatal(err)
	}
	m, err := release.ReadManifest(a)
	if err != nil {
		t.Fatal(err)
	}
	if m.Source.SHA256 != "0e35753ee0685e3918985ca5bd307c7e8156988f1bcc213b23379fcbdf1aa765" || len(m.Profiles) != 6 || len(m.Files) != 2 ||
		len(m.DEM) != 1 || m.DEM[0].Path != "N42E001.hgt.zip" || m.DEM[0].SHA256 == "" {
		t.Errorf("manifest: %+v", m)
	}
}

// TestRefusesToOverwrite builds into the shared release's place: releases
// are immutable, so mapc refuses before reading anything.
func TestRefusesToOverwrite(t *testing.T) {
	dir := compiletest.Andorra(t)
	_, _, err := compile.Build(context.Background(), options(t, filepath.Dir(dir), filepath.Base(dir)))
	if !errors.Is(err, release.ErrExists) {
		t.Fatalf("second build into the same release: %v", err)
	}
}

func TestRejectsBadInput(t *testing.T) {
	cases := []struct {
		name string
		edit func(*compile.Options)
		want string
	}{
		{"missing OSM flag", func(o *compile.Options) { o.OSM = "" }, "--osm is required"},
		{"OSM file absent", func(o *compile.Options) { o.OSM = "/nonexistent.pbf" }, "no such file"},
		{"data version too long", func(o *compile.Options) { o.DataVersion = strings.Repeat("v", 33) }, "1-32 characters"},
		{"data version with a slash", func(o *compile.Options) { o.DataVersion = "../escape" }, "1-32 characters"},
		{"profiles missing", func(o *compile.Options) { o.ProfilesDir = t.TempDir() }, "moto"},
		{"not a PBF", func(o *compile.Options) { o.OSM = filepath.Join(compiletest.Root(), "go.mod") }, "osm: start decoding"},
		{"DEM file absent", func(o *compile.Options) { o.DEM = []string{"/nonexistent.hgt.zip"} }, "DEM input"},
		{"DEM not a raster", func(o *compile.Options) { o.DEM = []string{filepath.Join(compiletest.Root(), "go.mod")} }, "elevation"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			o := options(t, out, "bad")
			c.edit(&o)
			_, _, err := compile.Build(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Fatalf("a failed build left %v behind", entries)
			}
		})
	}
}

// TestCancelLeavesNothing stops a build part way: no release and no
// temporary directory may remain.
func TestCancelLeavesNothing(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	o := options(t, out, "cancelled")
	o.Progress = &cancelAfter{n: 1000, cancel: cancel}
	if _, _, err := compile.Build(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build returned %v", err)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Fatalf("a cancelled build left %v behind", entries)
	}
}

type cancelAfter struct {
	n      int64
	cancel func()
}

func (c *cancelAfter) Start(string, int64) {}
func (c *cancelAfter) Done()               {}
func (c *cancelAfter) Add(n int64) {
	if c.n -= n; c.n == 0 {
		c.cancel()
	}
}

// TestIdenticalOnAnyCores builds Andorra at GOMAXPROCS 1, 2 and 8: the
// profiles contract on as many goroutines as there are procs, and share
// them out differently, but the graph artifact is the same byte for byte.
func TestIdenticalOnAnyCores(t *testing.T) {
	if testing.Short() {
		t.Skip("three builds of Andorra")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first []byte
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		o := options(t, t.TempDir(), "procs")
		o.DEM = nil // the elevation sections do not involve the cores
		_, dir, err := compile.Build(context.Background(), o)
		if err != nil {
			t.Fatalf("GOMAXPROCS %d: %v", procs, err)
		}
		g, err := os.ReadFile(filepath.Join(dir, release.GraphFile))
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = g
		} else if !bytes.Equal(first, g) {
			t.Errorf("GOMAXPROCS %d built another %s (%d bytes, %d at 1)", procs, release.GraphFile, len(g), len(first))
		}
	}
}

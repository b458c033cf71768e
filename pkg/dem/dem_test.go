package dem

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/internal/hgt"
	"github.com/mapsco/maps/pkg/internal/shareddata"
)

// build writes the sections Build adds for rasters into a file and returns
// its bytes.
func build(t *testing.T, name string, add func(w *artifact.Writer) error) []byte {
	t.Helper()
	w, err := artifact.NewWriter("elevation", "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := add(w); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// GDAL's reading of the SRTM tiles and pkg/internal/hgt's, on which
// pkg/elevation's own tests rely, must give the same artifact byte for byte:
// same geotransform, no-data value and posts.
func TestGDALMatchesPureGo(t *testing.T) {
	paths := []string{shareddata.Path(t, "dem/N42E001.hgt.zip"), shareddata.Path(t, "dem/N41E001.hgt.zip")}
	viaGDAL := build(t, "gdal.elev", func(w *artifact.Writer) error {
		st, err := Build(context.Background(), paths, w, nil)
		if err == nil && (st.Inputs != 2 || st.Tiles != 2) {
			t.Errorf("stats %+v, want 2 inputs and 2 tiles", st)
		}
		return err
	})
	viaGo := build(t, "go.elev", func(w *artifact.Writer) error {
		var rasters []elevation.Raster
		for _, p := range paths {
			r, err := hgt.Open(p)
			if err != nil {
				return err
			}
			rasters = append(rasters, r)
		}
		_, err := elevation.Build(context.Background(), rasters, w, nil)
		return err
	})
	if !bytes.Equal(viaGDAL, viaGo) {
		t.Fatalf("GDAL's artifact (%d bytes) differs from pure Go's (%d bytes)", len(viaGDAL), len(viaGo))
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.tif")
	if err := os.WriteFile(junk, []byte("not a raster"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing.tif"), junk, filepath.Join(dir, "missing.hgt.zip")} {
		if r, err := Open(p); err == nil {
			r.Close()
			t.Errorf("Open(%s) succeeded", p)
		}
	}
	w, err := artifact.NewWriter("elevation", "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Build(context.Background(), []string{junk}, w, nil); err == nil {
		t.Error("Build of a file that is not a raster succeeded")
	}
}

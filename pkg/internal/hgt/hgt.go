// Package hgt reads SRTM .hgt tiles (and .hgt.zip archives of one) in pure
// Go, as an elevation.Raster. pkg/elevation's tests build their artifacts
// with it, so that the serving side's tests need no cgo, and pkg/dem's tests
// check that GDAL's reading of the same tiles gives identical sections.
// mapc reads DEMs through GDAL (pkg/dem), not through this package.
//
// A Raster holds its whole tile in memory (2.9 MB for SRTM3, 26 MB for
// SRTM1) and is safe for concurrent reads.
package hgt

import (
	"archive/zip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Raster is one SRTM tile: n×n big-endian int16 posts, row 0 on the north
// edge, -32768 for voids.
type Raster struct {
	path     string
	lat, lon int
	n        int
	v        []int16
}

// Open reads the tile at path, named like N42E001.hgt or N42E001.hgt.zip.
func Open(path string) (*Raster, error) {
	base := filepath.Base(path)
	name := strings.TrimSuffix(strings.TrimSuffix(base, ".zip"), ".hgt")
	lat, lon, err := corner(name)
	if err != nil {
		return nil, fmt.Errorf("hgt: %s: %w", path, err)
	}
	b, err := readAll(path, strings.HasSuffix(base, ".zip"))
	if err != nil {
		return nil, fmt.Errorf("hgt: read %s: %w", path, err)
	}
	n := int(math.Round(math.Sqrt(float64(len(b) / 2))))
	if n < 2 || 2*n*n != len(b) {
		return nil, fmt.Errorf("hgt: %s: %d bytes is not a square grid of int16", path, len(b))
	}
	r := &Raster{path: path, lat: lat, lon: lon, n: n, v: make([]int16, n*n)}
	for i := range r.v {
		r.v[i] = int16(binary.BigEndian.Uint16(b[2*i:]))
	}
	return r, nil
}

// corner parses N42E001 into 42, 1 (S and W negative).
func corner(name string) (lat, lon int, err error) {
	if len(name) != 7 || !strings.ContainsRune("NS", rune(name[0])) || !strings.ContainsRune("EW", rune(name[3])) {
		return 0, 0, fmt.Errorf("name %q is not like N42E001", name)
	}
	if lat, err = strconv.Atoi(name[1:3]); err != nil {
		return 0, 0, fmt.Errorf("name %q: %w", name, err)
	}
	if lon, err = strconv.Atoi(name[4:7]); err != nil {
		return 0, 0, fmt.Errorf("name %q: %w", name, err)
	}
	if name[0] == 'S' {
		lat = -lat
	}
	if name[3] == 'W' {
		lon = -lon
	}
	return lat, lon, nil
}

// readAll reads the file, or the first file of the zip.
func readAll(path string, isZip bool) ([]byte, error) {
	if !isZip {
		return os.ReadFile(path)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	if len(zr.File) == 0 {
		return nil, fmt.Errorf("empty zip")
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// Name returns the path the tile was read from.
func (r *Raster) Name() string { return r.path }

// GeoTransform places post centres on whole fractions of a degree, as GDAL's
// SRTMHGT driver does: pixel corners lie half a post outside the tile.
func (r *Raster) GeoTransform() [6]float64 {
	step := 1.0 / float64(r.n-1)
	return [6]float64{float64(r.lon) - 0.5*step, step, 0, float64(r.lat+1) + 0.5*step, 0, -step}
}

// Size returns n, n.
func (r *Raster) Size() (w, h int) { return r.n, r.n }

// NoData returns SRTM's void value.
func (r *Raster) NoData() (float64, bool) { return -32768, true }

// ScaleOffset returns 1, 0: posts are whole metres.
func (r *Raster) ScaleOffset() (scale, offset float64) { return 1, 0 }

// Read copies a window of posts.
func (r *Raster) Read(x0, y0 int, v []float32, w, h int) error {
	if x0 < 0 || y0 < 0 || w < 0 || h < 0 || x0+w > r.n || y0+h > r.n || len(v) < w*h {
		return fmt.Errorf("hgt: window %d,%d %d×%d outside %d×%d or buffer of %d", x0, y0, w, h, r.n, r.n, len(v))
	}
	for y := range h {
		row := r.v[(y0+y)*r.n+x0:]
		for x := range w {
			v[y*w+x] = float32(row[x])
		}
	}
	return nil
}

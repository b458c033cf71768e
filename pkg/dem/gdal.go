package dem

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airbusgeo/godal"
)

// Raster is one file open through GDAL, north up in EPSG:4326 (warped if
// it was not). It implements elevation.Raster.
type Raster struct {
	path   string
	ds     *godal.Dataset // what we read: the raster or its warped view
	orig   *godal.Dataset // the raster itself when ds is a warped view
	band   godal.Band
	gt     [6]float64
	w, h   int
	nodata float64
	hasND  bool
	scale  float64
	offset float64
}

// Open opens path with GDAL. A .zip GDAL cannot open directly (the SRTMHGT
// driver can) is read through /vsizip/ as the file named like the zip
// without its extension, as SRTM and Copernicus archives are laid out.
func Open(path string) (*Raster, error) {
	godal.RegisterAll()
	r := &Raster{path: path}
	ds, err := godal.Open(path)
	if err != nil && strings.EqualFold(filepath.Ext(path), ".zip") {
		inner := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		ds, err = godal.Open("/vsizip/" + path + "/" + inner)
	}
	if err != nil {
		return nil, fmt.Errorf("dem: open %s: %w", path, err)
	}
	r.ds = ds
	if err := r.toGeographic(); err != nil {
		r.Close()
		return nil, fmt.Errorf("dem: %s: %w", path, err)
	}
	if err := r.describe(); err != nil {
		r.Close()
		return nil, fmt.Errorf("dem: %s: %w", path, err)
	}
	return r, nil
}

// toGeographic replaces r.ds by a warped VRT in EPSG:4326 unless it already
// is a north-up raster in EPSG:4326. The VRT warps lazily, window by window,
// with bilinear resampling, so no warped copy is ever held whole.
func (r *Raster) toGeographic() error {
	gt, err := r.ds.GeoTransform()
	if err != nil {
		return fmt.Errorf("no geotransform: %w", err)
	}
	sr := r.ds.SpatialRef()
	if sr == nil {
		return fmt.Errorf("no coordinate reference system")
	}
	defer sr.Close()
	wgs84, err := godal.NewSpatialRefFromEPSG(4326)
	if err != nil {
		return fmt.Errorf("EPSG:4326: %w", err)
	}
	defer wgs84.Close()
	if sr.IsSame(wgs84) && gt[2] == 0 && gt[4] == 0 && gt[1] > 0 && gt[5] < 0 {
		return nil
	}
	vrt := fmt.Sprintf("/vsimem/elevation-%p.vrt", r)
	warped, err := r.ds.Warp(vrt, []string{"-of", "VRT", "-t_srs", "EPSG:4326", "-r", "bilinear"})
	if err != nil {
		return fmt.Errorf("warp to EPSG:4326: %w", err)
	}
	r.orig, r.ds = r.ds, warped
	return nil
}

// describe reads the geotransform, size, no-data value and scale.
func (r *Raster) describe() error {
	var err error
	if r.gt, err = r.ds.GeoTransform(); err != nil {
		return fmt.Errorf("no geotransform: %w", err)
	}
	st := r.ds.Structure()
	r.w, r.h = st.SizeX, st.SizeY
	bands := r.ds.Bands()
	if len(bands) == 0 || r.w < 1 || r.h < 1 {
		return fmt.Errorf("empty raster (%d×%d, %d bands)", r.w, r.h, len(bands))
	}
	r.band = bands[0]
	r.nodata, r.hasND = r.band.NoData()
	bs := r.band.Structure()
	r.scale, r.offset = bs.Scale, bs.Offset
	return nil
}

// Warped reports whether the raster is read through a warped view.
func (r *Raster) Warped() bool { return r.orig != nil }

// Name returns the path the raster was opened from.
func (r *Raster) Name() string { return r.path }

// GeoTransform returns the (possibly warped) raster's geotransform.
func (r *Raster) GeoTransform() [6]float64 { return r.gt }

// Size returns the width and height in pixels.
func (r *Raster) Size() (w, h int) { return r.w, r.h }

// NoData returns the first band's no-data value, if it has one.
func (r *Raster) NoData() (float64, bool) { return r.nodata, r.hasND }

// ScaleOffset returns the first band's scale and offset (scale 0: unset).
func (r *Raster) ScaleOffset() (scale, offset float64) { return r.scale, r.offset }

// Read reads a window of the first band as float32.
func (r *Raster) Read(x0, y0 int, v []float32, w, h int) error {
	return r.band.Read(x0, y0, v, w, h)
}

// Close releases the GDAL datasets.
func (r *Raster) Close() {
	if r.ds != nil {
		r.ds.Close()
		r.ds = nil
	}
	if r.orig != nil {
		r.orig.Close()
		r.orig = nil
	}
}

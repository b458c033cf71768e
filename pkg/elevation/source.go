package elevation

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/airbusgeo/godal"
)

// source is one input raster, open through GDAL and, when its CRS is not
// EPSG:4326 or its geotransform is rotated, seen through a warped VRT in
// EPSG:4326. GDAL datasets are not safe for concurrent use: a source is used
// by one goroutine.
type source struct {
	path   string
	ds     *godal.Dataset // what we read: the raster or its warped view
	orig   *godal.Dataset // the raster itself when ds is a warped view
	band   godal.Band
	gt     [6]float64 // lon = gt[0] + x*gt[1], lat = gt[3] + y*gt[5] at pixel corners
	w, h   int
	nodata float64
	hasND  bool
	scale  float64
	offset float64
	// cells per degree along each axis, as the grid of a tile fed by this source
	cellsLat, cellsLon int32
}

// openSource opens path with GDAL. A .zip GDAL cannot open directly (the
// SRTMHGT driver can) is read through /vsizip/ as the file named like the zip
// without its extension, as SRTM and Copernicus archives are laid out.
func openSource(path string) (*source, error) {
	s := &source{path: path}
	ds, err := godal.Open(path)
	if err != nil && strings.EqualFold(filepath.Ext(path), ".zip") {
		inner := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		ds, err = godal.Open("/vsizip/" + path + "/" + inner)
	}
	if err != nil {
		return nil, fmt.Errorf("elevation: open %s: %w", path, err)
	}
	s.ds = ds
	if err := s.toGeographic(); err != nil {
		s.close()
		return nil, fmt.Errorf("elevation: %s: %w", path, err)
	}
	if err := s.describe(); err != nil {
		s.close()
		return nil, fmt.Errorf("elevation: %s: %w", path, err)
	}
	return s, nil
}

// toGeographic replaces s.ds by a warped VRT in EPSG:4326 unless it already
// is a north-up raster in EPSG:4326. The VRT warps lazily, window by window,
// with bilinear resampling, so no warped copy is ever held whole.
func (s *source) toGeographic() error {
	gt, err := s.ds.GeoTransform()
	if err != nil {
		return fmt.Errorf("no geotransform: %w", err)
	}
	sr := s.ds.SpatialRef()
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
	vrt := fmt.Sprintf("/vsimem/elevation-%p.vrt", s)
	warped, err := s.ds.Warp(vrt, []string{"-of", "VRT", "-t_srs", "EPSG:4326", "-r", "bilinear"})
	if err != nil {
		return fmt.Errorf("warp to EPSG:4326: %w", err)
	}
	s.orig, s.ds = s.ds, warped
	return nil
}

// describe reads the geotransform, size, no-data value and resolution.
func (s *source) describe() error {
	var err error
	if s.gt, err = s.ds.GeoTransform(); err != nil {
		return fmt.Errorf("no geotransform: %w", err)
	}
	st := s.ds.Structure()
	s.w, s.h = st.SizeX, st.SizeY
	bands := s.ds.Bands()
	if len(bands) == 0 || s.w < 1 || s.h < 1 {
		return fmt.Errorf("empty raster (%d×%d, %d bands)", s.w, s.h, len(bands))
	}
	s.band = bands[0]
	s.nodata, s.hasND = s.band.NoData()
	bs := s.band.Structure()
	s.scale, s.offset = bs.Scale, bs.Offset
	if s.scale == 0 {
		s.scale = 1
	}
	s.cellsLon = cellsPerDegree(s.gt[1])
	s.cellsLat = cellsPerDegree(-s.gt[5])
	if s.cellsLon == 0 || s.cellsLat == 0 {
		return fmt.Errorf("pixel size %g×%g degrees is outside 1°..0.1\"", s.gt[1], -s.gt[5])
	}
	return nil
}

// cellsPerDegree rounds 1/step to the nearest whole number of cells, or 0 if
// out of range. A source whose step does not divide a degree is resampled.
func cellsPerDegree(step float64) int32 {
	n := math.Round(1 / step)
	if !(n >= 1 && n <= maxCellsPerDegree) {
		return 0
	}
	return int32(n)
}

func (s *source) close() {
	if s.ds != nil {
		s.ds.Close()
	}
	if s.orig != nil {
		s.orig.Close()
	}
}

// col and row convert a longitude and latitude to fractional pixel
// coordinates whose integers are pixel centres (GDAL's bilinear convention).
func (s *source) col(lon float64) float64 { return (lon-s.gt[0])/s.gt[1] - 0.5 }
func (s *source) row(lat float64) float64 { return (lat-s.gt[3])/s.gt[5] - 0.5 }

// extent returns the span of pixel centres: the region the source can
// interpolate in, before the half pixel of slack covers() allows.
func (s *source) extent() (west, south, east, north float64) {
	west = s.gt[0] + 0.5*s.gt[1]
	east = s.gt[0] + (float64(s.w)-0.5)*s.gt[1]
	north = s.gt[3] + 0.5*s.gt[5]
	south = s.gt[3] + (float64(s.h)-0.5)*s.gt[5]
	return
}

// valid converts a raw source value to metres, reporting false for no-data,
// NaN and heights outside [MinHeightM, MaxHeightM].
func (s *source) valid(raw float32) (float64, bool) {
	if s.hasND && float64(raw) == s.nodata {
		return 0, false
	}
	v := float64(raw)*s.scale + s.offset
	return v, v >= MinHeightM && v <= MaxHeightM // false for NaN too
}

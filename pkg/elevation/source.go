package elevation

import (
	"fmt"
	"math"
)

// Raster is one input of Build: a single-band grid of heights, north up, in
// EPSG:4326. mapc reads GeoTIFF, .hgt and whatever else GDAL reads through
// pkg/dem, which keeps cgo out of this package and so out of mapd. A Raster
// is used by one goroutine at a time.
type Raster interface {
	// Name identifies the raster in errors and logs (its path).
	Name() string
	// GeoTransform maps pixel corners to degrees, as GDAL's does:
	// lon = gt[0] + x*gt[1], lat = gt[3] + y*gt[5], with gt[2] = gt[4] = 0.
	GeoTransform() [6]float64
	// Size is the raster's width and height in pixels.
	Size() (w, h int)
	// NoData is the raw value that marks a void, if the raster has one.
	NoData() (value float64, ok bool)
	// ScaleOffset turns a raw value into metres: raw*scale + offset.
	ScaleOffset() (scale, offset float64)
	// Read fills v (w×h values, row-major) with the raw values of the
	// window whose top-left pixel is (x0, y0).
	Read(x0, y0 int, v []float32, w, h int) error
}

// source is a Raster with what Build needs of it worked out once.
type source struct {
	r      Raster
	gt     [6]float64 // lon = gt[0] + x*gt[1], lat = gt[3] + y*gt[5] at pixel corners
	w, h   int
	nodata float64
	hasND  bool
	scale  float64
	offset float64
	// cells per degree along each axis, as the grid of a tile fed by this source
	cellsLat, cellsLon int32
}

// newSource checks r's shape and reads its geotransform, size, no-data value
// and resolution.
func newSource(r Raster) (*source, error) {
	s := &source{r: r, gt: r.GeoTransform()}
	s.w, s.h = r.Size()
	if s.w < 1 || s.h < 1 {
		return nil, fmt.Errorf("elevation: %s: empty raster (%d×%d)", r.Name(), s.w, s.h)
	}
	if s.gt[2] != 0 || s.gt[4] != 0 || !(s.gt[1] > 0) || !(s.gt[5] < 0) {
		return nil, fmt.Errorf("elevation: %s: geotransform %v is not north up", r.Name(), s.gt)
	}
	s.nodata, s.hasND = r.NoData()
	s.scale, s.offset = r.ScaleOffset()
	if s.scale == 0 {
		s.scale = 1
	}
	s.cellsLon = cellsPerDegree(s.gt[1])
	s.cellsLat = cellsPerDegree(-s.gt[5])
	if s.cellsLon == 0 || s.cellsLat == 0 {
		return nil, fmt.Errorf("elevation: %s: pixel size %g×%g degrees is outside 1°..0.1\"", r.Name(), s.gt[1], -s.gt[5])
	}
	return s, nil
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

package elevation

import (
	"fmt"
	"math"
)

// tileGrid is one 1°×1° tile while it is assembled from sources: heights in
// metres (NaN where no source had a valid value) and whether any source's
// footprint covers the post. A covered NaN post is a void, to be filled; an
// uncovered one stays outside coverage.
type tileGrid struct {
	lat, lon   int32
	nLat, nLon int32
	h          []float32
	covered    []bool
}

func newTileGrid(lat, lon, nLat, nLon int32) *tileGrid {
	n := int(nLat+1) * int(nLon+1)
	t := &tileGrid{lat: lat, lon: lon, nLat: nLat, nLon: nLon, h: make([]float32, n), covered: make([]bool, n)}
	for i := range t.h {
		t.h[i] = float32(math.NaN())
	}
	return t
}

func (t *tileGrid) stride() int         { return int(t.nLon + 1) }
func (t *tileGrid) latOf(r int) float64 { return float64(t.lat+1) - float64(r)/float64(t.nLat) }
func (t *tileGrid) lonOf(c int) float64 { return float64(t.lon) + float64(c)/float64(t.nLon) }
func inside(f float64, n int) bool      { return f >= -0.5-1e-9 && f <= float64(n)-0.5+1e-9 }
func clampInt(v, lo, hi int) int        { return max(lo, min(hi, v)) }
func srcSpan(a, b float64, n int) (int, int) {
	return clampInt(int(math.Floor(a)), 0, n-1), clampInt(int(math.Floor(b))+1, 0, n-1)
}

// stripRows is how many tile rows are resampled per Raster.Read, bounding the
// read buffer to a strip rather than a whole tile.
const stripRows = 256

// fill resamples s into the posts of t that no earlier source filled. Posts
// that coincide with source pixel centres (SRTM, Copernicus) are copied;
// others are bilinear. buf is reused scratch space and is returned grown.
func (s *source) fill(t *tileGrid, buf []float32) ([]float32, error) {
	fxA, fxB := s.col(t.lonOf(0)), s.col(t.lonOf(int(t.nLon)))
	if fxB < -0.5 || fxA > float64(s.w)-0.5 {
		return buf, nil
	}
	x0, x1 := srcSpan(fxA, fxB, s.w)
	for r0 := 0; r0 <= int(t.nLat); r0 += stripRows {
		r1 := min(r0+stripRows, int(t.nLat)+1)
		fyA, fyB := s.row(t.latOf(r0)), s.row(t.latOf(r1-1))
		if fyB < -0.5-1e-9 || fyA > float64(s.h)-0.5+1e-9 {
			continue
		}
		y0, y1 := srcSpan(fyA, fyB, s.h)
		win := window{x0: x0, y0: y0, w: x1 - x0 + 1, h: y1 - y0 + 1}
		if cap(buf) < win.w*win.h {
			buf = make([]float32, win.w*win.h)
		}
		win.v = buf[:win.w*win.h]
		if err := s.r.Read(x0, y0, win.v, win.w, win.h); err != nil {
			return buf, fmt.Errorf("elevation: read %s window %d,%d %d×%d: %w", s.r.Name(), x0, y0, win.w, win.h, err)
		}
		s.fillRows(t, &win, r0, r1)
	}
	return buf, nil
}

// window is a block of source pixels read into memory.
type window struct {
	v      []float32
	x0, y0 int
	w, h   int
}

func (s *source) fillRows(t *tileGrid, win *window, r0, r1 int) {
	for r := r0; r < r1; r++ {
		fy := s.row(t.latOf(r))
		if !inside(fy, s.h) {
			continue
		}
		for c := 0; c <= int(t.nLon); c++ {
			i := r*t.stride() + c
			if !math.IsNaN(float64(t.h[i])) {
				continue // an earlier source won
			}
			fx := s.col(t.lonOf(c))
			if !inside(fx, s.w) {
				continue
			}
			t.covered[i] = true
			if v, ok := s.interp(win, fx, fy); ok {
				t.h[i] = float32(v)
			}
		}
	}
}

// interp interpolates bilinearly at fractional pixel (fx, fy), clamped to
// the raster. Posts with (near) zero weight are not read, so a post aligned
// with a pixel centre is copied even next to a void. Invalid posts drop out
// and the rest are reweighted, unless the nearest post is invalid.
func (s *source) interp(win *window, fx, fy float64) (float64, bool) {
	fx = math.Max(0, math.Min(fx, float64(s.w-1)))
	fy = math.Max(0, math.Min(fy, float64(s.h-1)))
	x, y := int(fx), int(fy)
	wx, wy := fx-float64(x), fy-float64(y)
	var sum, wsum, best float64
	bestOK := false
	for k := 0; k < 4; k++ {
		dx, dy := k&1, k>>1
		w := math.Abs(float64(1-dx)-wx) * math.Abs(float64(1-dy)-wy)
		if w < 1e-6 {
			continue
		}
		px, py := x+dx-win.x0, y+dy-win.y0
		v, ok := s.valid(win.v[py*win.w+px])
		if w > best {
			best, bestOK = w, ok
		}
		if ok {
			sum += w * v
			wsum += w
		}
	}
	if !bestOK || wsum == 0 {
		return 0, false
	}
	return sum / wsum, true
}

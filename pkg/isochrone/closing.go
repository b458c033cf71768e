package isochrone

import (
	"math"

	"github.com/mapsco/maps/pkg/search"
)

// close turns the least-cost raster into the field whose threshold at a
// budget is the budget's area: a min filter over a disc of radius
// BufferCells+ClosingCells (widen reached roads by the buffer, then dilate
// for the closing) followed by a max filter over a disc of radius
// ClosingCells (the closing's erosion). Because min and max filters
// commute with thresholds, {E ≤ b} is exactly the closing of the buffered
// roads reached within b, for every b at once.
func (sc *scratch) close(gr grid, opt Options) {
	n := gr.w * gr.h
	sc.tmp = grow(sc.tmp, n)
	sc.filterDisc(gr, sc.tmp, sc.field, opt.BufferCells+opt.ClosingCells, false)
	sc.filterDisc(gr, sc.field, sc.tmp, opt.ClosingCells, true)
}

// filterDisc sets dst to the minimum (or maximum) of src over a disc of
// radius r cells around each cell; cells within r of the grid's border,
// which the layout keeps empty, become Unreached. It works in two passes:
// rows of width 2h+1 for each half-width h ≤ r (each from the previous
// with a 3-wide window), then the disc as the union of one such row per
// line, so a cell costs about 3r + 2r + 1 comparisons instead of the
// disc's area.
func (sc *scratch) filterDisc(gr grid, dst, src []uint32, r int, isMax bool) {
	w, h := gr.w, gr.h
	if len(sc.planes) < r+1 {
		sc.planes = append(sc.planes, make([][]uint32, r+1-len(sc.planes))...)
	}
	sc.planes[0] = src
	for k := 1; k <= r; k++ {
		p, prev := grow(sc.planes[k], w*h), sc.planes[k-1]
		for y := range h {
			row, pr := p[y*w:(y+1)*w], prev[y*w:(y+1)*w]
			row[0], row[w-1] = pr[0], pr[w-1]
			if isMax {
				for x := 1; x < w-1; x++ {
					row[x] = max(pr[x-1], pr[x], pr[x+1])
				}
			} else {
				for x := 1; x < w-1; x++ {
					row[x] = min(pr[x-1], pr[x], pr[x+1])
				}
			}
		}
		sc.planes[k] = p
	}
	half := discHalfWidths(r)
	for i := range dst {
		dst[i] = search.Unreached
	}
	for y := r; y < h-r; y++ {
		out := dst[y*w+r : (y+1)*w-r]
		copy(out, sc.planes[half[0]][(y-r)*w+r:])
		for dy := 1; dy <= 2*r; dy++ {
			in := sc.planes[half[dy]][(y-r+dy)*w+r:]
			in = in[:len(out)]
			if isMax {
				for x, v := range in {
					out[x] = max(out[x], v)
				}
			} else {
				for x, v := range in {
					out[x] = min(out[x], v)
				}
			}
		}
	}
	sc.planes[0] = nil // src belongs to the caller
}

// discHalfWidths returns, for each line dy = -r..r of a disc of radius r
// (index dy+r), the half-width of the disc on that line. The disc is
// those cells whose centres lie within r+0.5 of its centre, the rounder
// of the usual discrete discs.
func discHalfWidths(r int) []int {
	out := make([]int, 2*r+1)
	for dy := -r; dy <= r; dy++ {
		rr := (float64(r)+0.5)*(float64(r)+0.5) - float64(dy*dy)
		out[dy+r] = int(math.Sqrt(rr))
	}
	return out
}

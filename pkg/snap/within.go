package snap

import "math"

// Bounds returns the box the grid covers, in degrees: every shape point of
// the network lies inside it.
func (ix *Index) Bounds() (minLon, minLat, maxLon, maxLat float64) {
	return ix.minLon, ix.minLat, ix.minLon + float64(ix.cols)*ix.cell, ix.minLat + float64(ix.rows)*ix.cell
}

// Within calls fn for each piece (a segment and the index of the piece's
// first shape point) listed in a grid cell that the box [minLon, maxLon] ×
// [minLat, maxLat] touches. Every piece whose bounding box meets the box is
// among them; a piece listed in several such cells comes once per cell, and
// pieces near the box but outside it may come too. It reads the grid in
// place and allocates nothing.
func (ix *Index) Within(minLon, minLat, maxLon, maxLat float64, fn func(seg, piece uint32)) {
	if ix.cols == 0 || !(minLon <= maxLon && minLat <= maxLat) {
		return
	}
	x0, y0 := ix.cellOf(minLon, minLat)
	x1, y1 := ix.cellOf(maxLon, maxLat)
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, ix.cols-1), min(y1, ix.rows-1)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := y*ix.cols + x
			for i := ix.first[c]; i < ix.first[c+1]; i++ {
				fn(ix.items[2*i], ix.items[2*i+1])
			}
		}
	}
}

// CoversAll reports whether the box holds the whole grid, when scanning
// every segment is cheaper than reading every cell.
func (ix *Index) CoversAll(minLon, minLat, maxLon, maxLat float64) bool {
	a, b, c, d := ix.Bounds()
	return minLon <= a && minLat <= b && maxLon >= c && maxLat >= d && !math.IsNaN(minLon+minLat+maxLon+maxLat)
}

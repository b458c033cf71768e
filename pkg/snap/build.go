package snap

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
)

// DefaultCell is the grid's cell size in degrees (about 280 m × 200 m in
// Andorra): small enough that a cell holds a few dozen pieces in a town,
// large enough that a 1 km search touches under a hundred cells.
const DefaultCell = 0.0025

// maxCells bounds the grid of a very large extract; the cell grows instead.
const maxCells = 1 << 25

// Build indexes every piece of every segment's shape.
func Build(net *graph.Network) *Index {
	if len(net.GeomCoord) == 0 {
		return &Index{first: []uint32{0}}
	}
	minLon, minLat, maxLon, maxLat := bounds(net.GeomCoord)
	cell := DefaultCell
	for (maxLon-minLon)/cell*(maxLat-minLat)/cell > maxCells {
		cell *= 2
	}
	ix := &Index{minLon: minLon, minLat: minLat, cell: cell,
		cols: int((maxLon-minLon)/cell) + 1, rows: int((maxLat-minLat)/cell) + 1}
	counts := make([]uint32, ix.cols*ix.rows+1)
	ix.eachPieceCell(net, func(c int, _, _ uint32) { counts[c+1]++ })
	for c := 1; c < len(counts); c++ {
		counts[c] += counts[c-1]
	}
	ix.first = counts
	next := append([]uint32(nil), counts[:len(counts)-1]...)
	ix.items = make([]uint32, 2*counts[len(counts)-1])
	ix.eachPieceCell(net, func(c int, seg, pt uint32) {
		j := next[c]
		next[c]++
		ix.items[2*j], ix.items[2*j+1] = seg, pt
	})
	return ix
}

// eachPieceCell calls fn for every (cell, piece) pair, in a fixed order.
func (ix *Index) eachPieceCell(net *graph.Network, fn func(cell int, seg, pt uint32)) {
	for s := range uint32(net.NumSegments()) {
		begin, end := net.Points(s)
		for pt := begin; pt+1 < end; pt++ {
			aLon, aLat := net.Point(pt)
			bLon, bLat := net.Point(pt + 1)
			x0, y0 := ix.cellOf(math.Min(aLon, bLon), math.Min(aLat, bLat))
			x1, y1 := ix.cellOf(math.Max(aLon, bLon), math.Max(aLat, bLat))
			for y := max(y0, 0); y <= min(y1, ix.rows-1); y++ {
				for x := max(x0, 0); x <= min(x1, ix.cols-1); x++ {
					fn(y*ix.cols+x, s, pt)
				}
			}
		}
	}
}

func bounds(coords []int32) (minLon, minLat, maxLon, maxLat float64) {
	lo := [2]int32{math.MaxInt32, math.MaxInt32}
	hi := [2]int32{math.MinInt32, math.MinInt32}
	for i, v := range coords {
		lo[i%2], hi[i%2] = min(lo[i%2], v), max(hi[i%2], v)
	}
	// A small margin keeps points on the boundary inside the grid.
	const margin = 1e-4
	return float64(lo[0])/1e7 - margin, float64(lo[1])/1e7 - margin, float64(hi[0])/1e7 + margin, float64(hi[1])/1e7 + margin
}

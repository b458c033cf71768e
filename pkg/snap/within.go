package snap

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

// Bounds returns the box of every road, in degrees: every shape point of
// the network lies inside it (the root's box; zero for an empty network).
func (ix *Index) Bounds() (minLon, minLat, maxLon, maxLat float64) { return ix.Extent() }

// Within calls fn for each piece (a segment and the index of the piece's
// first shape point) of the lowest-level nodes whose boxes meet the box
// [minLon, maxLon] × [minLat, maxLat]. Every piece whose bounding box meets
// the box is among them, each once; pieces near the box but outside it may
// come too. It reads the tree in place and allocates nothing.
func (ix *Index) Within(minLon, minLat, maxLon, maxLat float64, fn func(seg, piece uint32)) {
	if len(ix.boxes) < 4 || !(minLon <= maxLon && minLat <= maxLat) {
		return
	}
	// In fixed point, rounded outward so that no piece on the edge is missed.
	q := box{int32(max(math.Floor(minLon*geo.Scale), math.MinInt32)), int32(max(math.Floor(minLat*geo.Scale), math.MinInt32)),
		int32(min(math.Ceil(maxLon*geo.Scale), math.MaxInt32)), int32(min(math.Ceil(maxLat*geo.Scale), math.MaxInt32))}
	ix.within(len(ix.levels)-2, 0, q, fn)
}

// within visits node j of level l if its box meets q.
func (ix *Index) within(l int, j uint32, q box, fn func(seg, piece uint32)) {
	id := ix.levels[l] + j
	b := ix.boxes[4*id : 4*id+4 : 4*id+4]
	if b[2] < q[0] || b[0] > q[2] || b[3] < q[1] || b[1] > q[3] {
		return
	}
	if l == 0 {
		for i := Fanout * j; i < min(uint32(len(ix.items)/2), Fanout*(j+1)); i++ {
			fn(ix.items[2*i], ix.items[2*i+1])
		}
		return
	}
	below := ix.levels[l-1]
	for c := Fanout * j; c < min(ix.levels[l]-below, Fanout*(j+1)); c++ {
		ix.within(l-1, c, q, fn)
	}
}

// CoversAll reports whether the box holds every road, when scanning every
// segment is cheaper than walking the tree.
func (ix *Index) CoversAll(minLon, minLat, maxLon, maxLat float64) bool {
	a, b, c, d := ix.Bounds()
	return minLon <= a && minLat <= b && maxLon >= c && maxLat >= d && !math.IsNaN(minLon+minLat+maxLon+maxLat)
}

// Package snap finds, for a coordinate, the nearest point of a road that a
// profile may use, through a uniform grid over every segment's shape.
//
// The grid is built at compile time and stored in the graph artifact:
//
//	snap.meta   float64 ×5: min lon, min lat, cell size (degrees), columns, rows
//	snap.first  uint32, cells+1: cell c's items are items[2*first[c] : 2*first[c+1]]
//	snap.items  uint32 pairs: segment, index of the piece's first shape point
//
// A piece (two consecutive shape points) is listed in every cell its
// bounding box touches. Queries scan rings of cells outward from the point
// and stop once no unseen cell can hold anything nearer.
//
// An Index views the artifact's mapping and is safe for concurrent use.
package snap

import (
	"errors"
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// MaxDistance is the default snapping radius in metres: a point farther than
// this from every road the profile may use is unroutable. 1 km keeps a
// point in a field or on a mountainside routable from the nearest track,
// while a point at sea or in another country is refused rather than routed
// from an absurd place.
const MaxDistance = 1000

// ErrTooFar means no usable road lies within the radius.
var ErrTooFar = errors.New("snap: no road within reach")

// Index is the grid.
type Index struct {
	minLon, minLat, cell float64
	cols, rows           int
	first                []uint32
	items                []uint32
}

// Result is a point snapped onto a segment.
type Result struct {
	Seg      uint32
	Frac     float64 // position along the segment, 0 at its first node, 1 at its last
	Lon, Lat float64 // the snapped point
	Dist     float64 // metres from the query point
}

// Nearest snaps (lon, lat) onto the nearest segment g may use within
// maxDist metres. It prefers segments in g's largest strongly connected
// component, so that a point next to an isolated car park still gets a road
// it can leave; it falls back to any usable segment.
func (ix *Index) Nearest(g *graph.Graph, lon, lat, maxDist float64) (Result, error) {
	if ix.cols == 0 || math.IsNaN(lon) || math.IsNaN(lat) {
		return Result{}, ErrTooFar
	}
	best, bestBig := candidate{dist: math.Inf(1)}, candidate{dist: math.Inf(1)}
	cx, cy := ix.cellOf(lon, lat)
	k := geo.LonScale(lat)
	cellM := ix.cell * geo.MetresPerDegreeLat * math.Max(0.05, math.Cos(lat*math.Pi/180))
	maxRing := int(maxDist/cellM) + 1
	for ring := 0; ring <= maxRing; ring++ {
		// Every cell of this ring is at least (ring-1) cells from the point.
		if reach := float64(ring-1) * cellM; reach > bestBig.dist || reach > maxDist {
			break
		}
		ix.scanRing(g, lon, lat, k, maxDist, cx, cy, ring, &best, &bestBig)
	}
	switch {
	case bestBig.dist <= maxDist:
		return ix.result(g, bestBig), nil
	case best.dist <= maxDist:
		return ix.result(g, best), nil
	}
	return Result{}, ErrTooFar
}

type candidate struct {
	seg, piece uint32
	proj       geo.Projection
	dist       float64
}

// scanRing scans the cells of a ring that may still hold something nearer
// than the best candidate in the big component (or than maxDist while there
// is none): a cell farther than that cannot change the answer, and points
// on a road in a town skip the eight neighbours of their cell this way.
func (ix *Index) scanRing(g *graph.Graph, lon, lat, k, maxDist float64, cx, cy, ring int, best, bestBig *candidate) {
	for y := cy - ring; y <= cy+ring; y++ {
		if y < 0 || y >= ix.rows {
			continue
		}
		step := 1
		if y != cy-ring && y != cy+ring {
			step = 2 * ring // only the ring's left and right cells
		}
		for x := cx - ring; x <= cx+ring; x += max(step, 1) {
			if x >= 0 && x < ix.cols && ix.cellDist(lon, lat, k, x, y) <= min(bestBig.dist, maxDist) {
				ix.scanCell(g, lon, lat, k, y*ix.cols+x, best, bestBig)
			}
		}
	}
}

func (ix *Index) scanCell(g *graph.Graph, lon, lat, k float64, c int, best, bestBig *candidate) {
	net := g.Net
	for i := ix.first[c]; i < ix.first[c+1]; i++ {
		seg, pt := ix.items[2*i], ix.items[2*i+1]
		if !g.Usable(seg) {
			continue
		}
		aLon, aLat := net.Point(pt)
		bLon, bLat := net.Point(pt + 1)
		p := geo.Project(lon, lat, k, aLon, aLat, bLon, bLat)
		c := candidate{seg: seg, piece: pt, proj: p, dist: p.Dist}
		if c.better(best) {
			*best = c
		}
		if g.Big[seg] == 1 && c.better(bestBig) {
			*bestBig = c
		}
	}
}

// better orders candidates by distance, then by segment and piece, so that
// a tie between two roads meeting at a node resolves the same way on every
// run and every machine.
func (c *candidate) better(o *candidate) bool {
	if c.dist != o.dist {
		return c.dist < o.dist
	}
	if c.seg != o.seg {
		return c.seg < o.seg
	}
	return c.piece < o.piece
}

// result turns a candidate into its position along the segment, measuring
// with the same distances the compiler used for the segment's length.
func (ix *Index) result(g *graph.Graph, c candidate) Result {
	net := g.Net
	begin, end := net.Points(c.seg)
	var before, total float64
	for i := begin; i+1 < end; i++ {
		aLon, aLat := net.Point(i)
		bLon, bLat := net.Point(i + 1)
		d := geo.Distance(aLon, aLat, bLon, bLat)
		if i < c.piece {
			before += d
		} else if i == c.piece {
			before += d * c.proj.T
		}
		total += d
	}
	frac := 0.0
	if total > 0 {
		frac = math.Min(1, before/total)
	}
	return Result{Seg: c.seg, Frac: frac, Lon: c.proj.Lon, Lat: c.proj.Lat, Dist: c.dist}
}

// cellDist is a lower bound on the distance, in geo.Project's metres, from
// (lon, lat) to anything in cell (x, y): the distance to the cell's
// rectangle, less a millimetre so that rounding at its edges never skips a
// cell that holds the answer. Pieces are listed in every cell their bounding
// box touches, so a piece's nearest point to (lon, lat) lies in a cell that
// lists it.
func (ix *Index) cellDist(lon, lat, k float64, x, y int) float64 {
	x0, y0 := ix.minLon+float64(x)*ix.cell, ix.minLat+float64(y)*ix.cell
	dx := max(0, x0-lon, lon-(x0+ix.cell)) * k
	dy := max(0, y0-lat, lat-(y0+ix.cell))
	return math.Sqrt(dx*dx+dy*dy)*geo.MetresPerDegreeLat - 1e-3
}

// cellOf returns the (possibly out of range) cell holding a point.
func (ix *Index) cellOf(lon, lat float64) (int, int) {
	return int(math.Floor((lon - ix.minLon) / ix.cell)), int(math.Floor((lat - ix.minLat) / ix.cell))
}

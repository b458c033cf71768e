package isochrone

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// scratch is the working memory of one Compute call, kept in the Engine's
// pool between calls so that a request allocates little beyond its
// answer. Slices grow to the largest request seen and are reused; the
// invariants each step relies on are noted by the field.
type scratch struct {
	// search.go: the cost of each arc labelled (see cost), in space
	// proportional to the area reached, not to the country.
	costs  search.Labels[uint32]
	heap   search.Heap
	seeds  []seed
	metric metric
	st     *graph.State // conditions in force for this search
	// operated is the least cost at which the search met a road an
	// operation in force changes, Unreached for none.
	operated uint32

	// sample.go
	plane plane
	verts []vertex
	lines []int32

	// raster.go, closing.go
	field, tmp []uint32
	planes     [][]uint32

	// regions.go: masks are zero outside the windows in use.
	mask, prev   []uint8
	win, prevWin rect
	cells        []int32

	// marching.go: next is noEdge everywhere between calls.
	next            []uint32
	froms           []uint32
	fromIn, fromOut []int32
	pts             []pt
	ringAt          []int32
	ringIn, ringOut []int32
	keep            []bool
	straight        []pt
	spans           [][2]int
	rings           [2]ringSet // this budget's rings, the previous budget's
	segs            []seg
	fallbacks       int // simplifications the check refused, for tests
}

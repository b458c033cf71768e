package isochrone

import (
	"math"

	"github.com/mapsco/maps/pkg/search"
)

// grid places square cells over the local plane. Cell (i, j) covers
// [x0+i·cell, x0+(i+1)·cell) × [y0+j·cell, y0+(j+1)·cell) metres; row j
// runs west to east and rows go south to north, so grid coordinates keep
// the plane's orientation (counter-clockwise stays counter-clockwise).
type grid struct {
	w, h   int
	cell   float64 // metres
	x0, y0 float64
	origin int // index of the origin's cell
}

// layout sizes the grid to the sampled polylines, with a margin wide
// enough that the filters and the growth between nested contours never
// reach its border: every outline then closes inside the grid.
func (sc *scratch) layout(opt Options) grid {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, v := range sc.verts {
		x, y := float64(v.x), float64(v.y)
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	extent := max(maxX-minX, maxY-minY)
	cell := min(opt.MaxCellM, max(opt.MinCellM, extent/float64(opt.GridCells)))
	pad := opt.BufferCells + opt.ClosingCells + 6
	gr := grid{cell: cell,
		w:  int(math.Ceil((maxX-minX)/cell)) + 1 + 2*pad,
		h:  int(math.Ceil((maxY-minY)/cell)) + 1 + 2*pad,
		x0: minX - float64(pad)*cell, y0: minY - float64(pad)*cell}
	gr.origin = gr.index(0, 0)
	return gr
}

// index returns the cell holding plane point (x, y).
func (gr *grid) index(x, y float64) int {
	i := int((x - gr.x0) / gr.cell)
	j := int((y - gr.y0) / gr.cell)
	return j*gr.w + i
}

// plane returns the plane position of grid point (gx, gy), where integer
// grid points are cell centres (marching squares works between them).
func (gr *grid) plane(gx, gy float64) (x, y float64) {
	return gr.x0 + (gx+0.5)*gr.cell, gr.y0 + (gy+0.5)*gr.cell
}

// rasterise sets every cell of sc.field to the least cost of the sampled
// road points in it, search.Unreached where there are none. Pieces are
// sampled every half cell, so no cell a piece crosses by more than a
// corner is missed, and the cost kept is within half a cell's travel of
// the least cost inside the cell.
func (sc *scratch) rasterise(gr grid) {
	sc.field = grow(sc.field, gr.w*gr.h)
	for i := range sc.field {
		sc.field[i] = search.Unreached
	}
	step := gr.cell / 2
	for k := 0; k+1 < len(sc.lines); k++ {
		line := sc.verts[sc.lines[k]:sc.lines[k+1]]
		if len(line) == 1 {
			sc.mark(&gr, float64(line[0].x), float64(line[0].y), float64(line[0].c))
		}
		for i := 1; i < len(line); i++ {
			a, b := line[i-1], line[i]
			ax, ay, bx, by := float64(a.x), float64(a.y), float64(b.x), float64(b.y)
			ac, bc := float64(a.c), float64(b.c)
			dx, dy := bx-ax, by-ay
			n := int(math.Ceil(math.Sqrt(dx*dx+dy*dy) / step))
			for s := 0; s <= n; s++ {
				t := 1.0
				if n > 0 {
					t = float64(s) / float64(n)
				}
				sc.mark(&gr, ax+(bx-ax)*t, ay+(by-ay)*t, ac+(bc-ac)*t)
			}
		}
	}
}

func (sc *scratch) mark(gr *grid, x, y, c float64) {
	i := gr.index(x, y)
	if v := uint32(c); v < sc.field[i] {
		sc.field[i] = v
	}
}

// grow returns s resized to n, reusing its memory when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

package isochrone

import "math"

// rect is a window of cells [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int }

func (r rect) empty() bool { return r.x0 >= r.x1 || r.y0 >= r.y1 }

// union returns the smallest window holding r and s.
func (r rect) union(s rect) rect {
	if r.empty() {
		return s
	}
	if s.empty() {
		return r
	}
	return rect{min(r.x0, s.x0), min(r.y0, s.y0), max(r.x1, s.x1), max(r.y1, s.y1)}
}

// grown returns r widened by d cells on every side, within the grid.
func (r rect) grown(d int, gr *grid) rect {
	return rect{max(0, r.x0-d), max(0, r.y0-d), min(gr.w, r.x1+d), min(gr.h, r.y1+d)}
}

// resetMasks clears the masks before the first budget.
func (sc *scratch) resetMasks(gr grid) {
	n := gr.w * gr.h
	sc.mask, sc.prev = grow(sc.mask, n), grow(sc.prev, n)
	clear(sc.mask)
	clear(sc.prev)
	sc.win, sc.prevWin = rect{}, rect{}
	sc.rings[1].reset()
}

// region sets sc.mask to the area of one budget (package doc, step 5)
// and leaves its outlines traced (see trace). The previous budget's mask,
// if any, is in sc.prev.
func (sc *scratch) region(gr grid, limit uint32, first bool, opt Options) {
	if !first {
		sc.mask, sc.prev = sc.prev, sc.mask
		sc.prevWin = sc.win
		// The mask before last lies within a smaller window.
		for y := sc.prevWin.y0; y < sc.prevWin.y1; y++ {
			clear(sc.mask[y*gr.w+sc.prevWin.x0 : y*gr.w+sc.prevWin.x1])
		}
	}
	sc.win = sc.threshold(gr, limit).union(sc.prevWin).grown(1, &gr)
	if !first {
		sc.growInto(gr.w)
	}
	sc.trace(gr.w)
	if sc.tidy(gr, opt) {
		sc.trace(gr.w)
	}
}

// threshold sets the cells of sc.mask whose field is within limit and
// returns the window holding them (empty if none). It keeps the window per
// row rather than per cell: it runs over the whole grid for every budget.
func (sc *scratch) threshold(gr grid, limit uint32) rect {
	box := rect{x0: gr.w, y0: gr.h}
	for y := range gr.h {
		row, mask := sc.field[y*gr.w:(y+1)*gr.w], sc.mask[y*gr.w:(y+1)*gr.w]
		first, last := gr.w, -1
		for x, v := range row {
			if v <= limit {
				mask[x] = 1
				first, last = min(first, x), x
			}
		}
		if last >= 0 {
			box = rect{min(box.x0, first), min(box.y0, y), max(box.x1, last+1), y + 1}
		}
	}
	if box.empty() {
		return rect{}
	}
	return box
}

// growInto adds the previous mask, grown by one cell in all eight
// directions, to the current one.
func (sc *scratch) growInto(w int) {
	r := sc.prevWin
	for y := r.y0; y < r.y1; y++ {
		for x := r.x0; x < r.x1; x++ {
			if sc.prev[y*w+x] == 0 {
				continue
			}
			for dy := -1; dy <= 1; dy++ {
				i := (y+dy)*w + x
				sc.mask[i-1], sc.mask[i], sc.mask[i+1] = 1, 1, 1
			}
		}
	}
}

// tidy fills holes smaller than MinHoleCells and drops islands smaller
// than MinSpeckCells other than the origin's, finding both from the
// traced outlines: a clockwise ring bounds a hole, a counter-clockwise one
// an island, and the area inside a ring (holes and islands within it
// included) is known exactly from its vertices. Only the small components
// are then flooded, never the whole outside. It reports whether the mask
// changed.
func (sc *scratch) tidy(gr grid, opt Options) bool {
	changed := false
	// Holes first: filling only adds land, so every other hole stays
	// enclosed. An island may then have merged with the land around a
	// filled hole, which the cap on its flood detects.
	for pass := range 2 {
		for k := 0; k+1 < len(sc.ringAt); k++ {
			cells := float64(area2(sc.pts[sc.ringAt[k]:sc.ringAt[k+1]])) / 8 // doubled units: 2·area·4
			switch {
			case pass == 0 && cells < 0 && -cells < float64(opt.MinHoleCells):
				sc.flood(gr.w, int(sc.ringOut[k]), 0, math.MaxInt)
				changed = true
			case pass == 1 && cells > 0 && cells < float64(opt.MinSpeckCells):
				// An island of n cells encloses at least about n/2 of area.
				cs, whole := sc.flood(gr.w, int(sc.ringIn[k]), 1, 2*opt.MinSpeckCells+4)
				if !whole || containsCell(cs, gr.origin) {
					for _, c := range cs {
						sc.mask[c] = 1 // merged, or the origin's island: it stays
					}
					continue
				}
				changed = true
			}
		}
	}
	return changed
}

func containsCell(cells []int32, c int) bool {
	for _, x := range cells {
		if int(x) == c {
			return true
		}
	}
	return false
}

// Neighbour offsets in doubled-free cell steps: the first four are the
// 4-neighbourhood.
var steps = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// flood flips the component of cell start whose mask value is v: outside
// cells (v = 0) 4-connected, inside cells (v = 1) 8-connected, matching
// how marching squares resolves saddles. It stops after limit cells and
// then reports whole = false. The component must not reach the grid's
// border: true of the holes rings enclose and of inside cells, which the
// layout keeps away from it, so no bounds are checked. It returns the
// cells flipped, scratch valid until the next call.
func (sc *scratch) flood(w, start int, v uint8, limit int) (cells []int32, whole bool) {
	sc.cells = sc.cells[:0]
	if sc.mask[start] != v {
		return sc.cells, true
	}
	n := 4
	if v == 1 {
		n = 8
	}
	var offs [8]int
	for i, s := range steps[:n] {
		offs[i] = s[1]*w + s[0]
	}
	sc.mask[start] = 1 - v
	sc.cells = append(sc.cells, int32(start))
	for k := 0; k < len(sc.cells); k++ {
		if len(sc.cells) > limit {
			return sc.cells, false
		}
		c := int(sc.cells[k])
		for _, o := range offs[:n] {
			if nb := c + o; sc.mask[nb] == v {
				sc.mask[nb] = 1 - v
				sc.cells = append(sc.cells, int32(nb))
			}
		}
	}
	return sc.cells, true
}

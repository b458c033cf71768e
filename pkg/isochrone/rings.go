package isochrone

import "math"

// ringSet is rings in doubled grid units: ring k is pts[at[k]:at[k+1]].
type ringSet struct {
	pts []pt
	at  []int32
}

func (rs *ringSet) reset() {
	rs.pts, rs.at = rs.pts[:0], append(rs.at[:0], 0)
}

func (rs *ringSet) len() int        { return len(rs.at) - 1 }
func (rs *ringSet) ring(k int) []pt { return rs.pts[rs.at[k]:rs.at[k+1]] }

// polygons simplifies the rings region traced and returns them as
// polygons in degrees. A simplification the check refuses (rings that
// cross or touch each other or the previous budget's) is retried at
// safeTolerance, which cannot fail that way, and at worst the traced
// rings themselves are used.
func (sc *scratch) polygons(gr grid, opt Options) []Polygon {
	cur := &sc.rings[0]
	for _, tol := range [...]float64{opt.SimplifyCells, min(opt.SimplifyCells, safeTolerance), 0} {
		cur.reset()
		for k := 0; k+1 < len(sc.ringAt); k++ {
			cur.pts = sc.simplifyRing(sc.pts[sc.ringAt[k]:sc.ringAt[k+1]], 2*tol, cur.pts) // doubled units
			cur.at = append(cur.at, int32(len(cur.pts)))
		}
		if tol <= 0 || sc.valid(cur, &sc.rings[1]) {
			break
		}
		sc.fallbacks++
	}
	out := sc.assemble(gr, cur)
	sc.rings[0], sc.rings[1] = sc.rings[1], sc.rings[0] // keep this budget's for the next check
	return out
}

// safeTolerance (cells) keeps simplified outlines from meeting: distinct
// parts of traced outlines, and outlines of nested budgets, are at least
// √2/2 cell apart, and each moves by at most the tolerance.
const safeTolerance = 0.3

// assemble makes a polygon of each counter-clockwise ring and gives it
// the clockwise rings (holes) it is the innermost exterior around, then
// converts them to rounded degrees. Rings neither cross nor touch, so one
// vertex of a hole tells which exteriors enclose it.
func (sc *scratch) assemble(gr grid, rs *ringSet) []Polygon {
	var ext []int // ring index of each polygon's exterior
	for k := range rs.len() {
		if area2(rs.ring(k)) > 0 {
			ext = append(ext, k)
		}
	}
	polys := make([]Polygon, len(ext))
	for i, k := range ext {
		polys[i] = Polygon{sc.degrees(gr, rs.ring(k))}
	}
	for k := range rs.len() {
		r := rs.ring(k)
		a := area2(r)
		if a > 0 {
			continue
		}
		best, bestArea := -1, int64(0)
		for i, e := range ext {
			er := rs.ring(e)
			if ea := area2(er); (best < 0 || ea < bestArea) && inside(r[0], er) {
				best, bestArea = i, ea
			}
		}
		if best >= 0 {
			polys[best] = append(polys[best], sc.degrees(gr, r))
		}
	}
	return polys
}

// inside reports whether p lies inside ring r (even-odd rule); p must not
// lie on r.
func inside(p pt, r []pt) bool {
	in := false
	for i := range r {
		a, b := r[i], r[(i+1)%len(r)]
		if (a.y > p.y) != (b.y > p.y) {
			// x of the side at p.y, compared without division.
			lhs := int64(p.x-a.x) * int64(b.y-a.y)
			rhs := int64(b.x-a.x) * int64(p.y-a.y)
			if (b.y > a.y) == (lhs < rhs) {
				in = !in
			}
		}
	}
	return in
}

// area2 is twice the signed area (positive when counter-clockwise).
func area2(r []pt) int64 {
	var s int64
	for i := range r {
		a, b := r[i], r[(i+1)%len(r)]
		s += int64(a.x)*int64(b.y) - int64(b.x)*int64(a.y)
	}
	return s
}

// degrees converts a ring to a closed ring of [lon, lat] rounded to 6
// decimals (about 0.1 m, far below a cell), dropping points the rounding
// makes repeat.
func (sc *scratch) degrees(gr grid, r []pt) Ring {
	out := make(Ring, 0, len(r)+1)
	for _, p := range r {
		x, y := gr.plane(float64(p.x)/2, float64(p.y)/2)
		lon, lat := sc.plane.degrees(x, y)
		q := Point{round6(lon), round6(lat)}
		if n := len(out); n == 0 || out[n-1] != q {
			out = append(out, q)
		}
	}
	if len(out) > 1 && out[len(out)-1] == out[0] {
		out = out[:len(out)-1]
	}
	return append(out, out[0])
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

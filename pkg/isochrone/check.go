package isochrone

import (
	"slices"
)

// seg is a ring side for the crossing check.
type seg struct {
	a, b     pt
	minX     int32
	ring     int32 // ring index; negative for the previous budget's rings
	idx, len int32 // position in its ring and the ring's length
}

// valid reports whether the rings of cur neither cross nor touch each
// other or the rings of prev, except consecutive sides at their shared
// vertex. Simplification should never break this (package doc); the
// check is the guard that makes the output valid even if it did. It
// sweeps sides by x, so its cost grows with the sides whose x-ranges
// overlap, a small multiple of their number for outlines.
func (sc *scratch) valid(cur, prev *ringSet) bool {
	segs := sc.segs[:0]
	segs = appendSegs(segs, cur, 1)
	segs = appendSegs(segs, prev, -1)
	slices.SortFunc(segs, func(p, q seg) int { return int(p.minX - q.minX) })
	sc.segs = segs
	for i := range segs {
		s := &segs[i]
		maxX := max(s.a.x, s.b.x)
		for j := i + 1; j < len(segs) && segs[j].minX <= maxX; j++ {
			if s.ring < 0 && segs[j].ring < 0 {
				continue // the previous budget's rings were checked already
			}
			if conflict(s, &segs[j]) {
				return false
			}
		}
	}
	return true
}

func appendSegs(segs []seg, rs *ringSet, sign int32) []seg {
	for k := range rs.len() {
		r := rs.ring(k)
		for i := range r {
			a, b := r[i], r[(i+1)%len(r)]
			segs = append(segs, seg{a: a, b: b, minX: min(a.x, b.x), ring: sign * int32(k+1), idx: int32(i), len: int32(len(r))})
		}
	}
	return segs
}

// conflict reports whether two sides meet where they should not.
func conflict(s, t *seg) bool {
	if min(s.a.y, s.b.y) > max(t.a.y, t.b.y) || min(t.a.y, t.b.y) > max(s.a.y, s.b.y) {
		return false
	}
	if s.ring == t.ring && (t.idx == (s.idx+1)%s.len || s.idx == (t.idx+1)%s.len) {
		// Consecutive: they share a vertex and must not fold back on
		// each other.
		first, second := s, t
		if s.idx == (t.idx+1)%s.len {
			first, second = t, s
		}
		return orient(first.a, first.b, second.b) == 0 && dot(first.a, first.b, second.b) < 0
	}
	return intersect(s.a, s.b, t.a, t.b)
}

func orient(a, b, c pt) int64 {
	return int64(b.x-a.x)*int64(c.y-a.y) - int64(b.y-a.y)*int64(c.x-a.x)
}

// dot is (b−a)·(c−b): negative when a→b→c turns back.
func dot(a, b, c pt) int64 {
	return int64(b.x-a.x)*int64(c.x-b.x) + int64(b.y-a.y)*int64(c.y-b.y)
}

// intersect reports whether closed segments p1–p2 and q1–q2 share a point.
func intersect(p1, p2, q1, q2 pt) bool {
	d1, d2 := orient(q1, q2, p1), orient(q1, q2, p2)
	d3, d4 := orient(p1, p2, q1), orient(p1, p2, q2)
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	return (d1 == 0 && onSeg(q1, q2, p1)) || (d2 == 0 && onSeg(q1, q2, p2)) ||
		(d3 == 0 && onSeg(p1, p2, q1)) || (d4 == 0 && onSeg(p1, p2, q2))
}

// onSeg reports whether c, collinear with a–b, lies within its box.
func onSeg(a, b, c pt) bool {
	return min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
}

package isochrone

import "encoding/binary"

// Marching squares over the mask: a square joins four cell centres, a
// (i, j), b (i+1, j), c (i+1, j+1), d (i, j+1), and its case is the set of
// corners inside (bits 1, 2, 4, 8). Outlines cross the square's sides at
// their midpoints: B (a–b), R (b–c), T (d–c), L (a–d). Each case's
// segments run with the inside on their left, so exteriors come out
// counter-clockwise and holes clockwise; the saddles (5 and 10) join their
// two inside corners, which matches 8-connected inside components.
//
// A side's midpoint is named by an edge id: 2·cell for the horizontal side
// from the cell to its east neighbour, 2·cell+1 for the vertical side to
// its north neighbour. Points are kept in doubled grid units (x2, y2) so
// that midpoints are integers and areas exact.

const (
	sideB = iota
	sideR
	sideT
	sideL
)

// segments lists each case's segments as (from, to) sides.
var segments = [16][]uint8{
	1: {sideB, sideL}, 2: {sideR, sideB}, 3: {sideR, sideL}, 4: {sideT, sideR},
	5: {sideB, sideR, sideT, sideL}, 6: {sideT, sideB}, 7: {sideT, sideL},
	8: {sideL, sideT}, 9: {sideB, sideT}, 10: {sideL, sideB, sideR, sideT},
	11: {sideR, sideT}, 12: {sideL, sideR}, 13: {sideB, sideR}, 14: {sideL, sideB},
}

// saddleFirstOut is the bit of the outside corner the first segment of a
// saddle case goes round: b for case 5, a for case 10.
var saddleFirstOut = [16]uint8{5: 1, 10: 0}

// noEdge marks an unused entry of sc.next.
const noEdge = ^uint32(0)

// pt is a ring vertex in doubled grid units.
type pt struct{ x, y int32 }

// trace finds every outline of sc.mask within sc.win and stores the rings
// in sc.pts (split at sc.ringAt), with a cell on either side of each in
// sc.ringIn and sc.ringOut. Rings are not closed (no repeated point).
func (sc *scratch) trace(w int) {
	if n := 2 * len(sc.mask); len(sc.next) < n {
		sc.next = make([]uint32, n)
		for i := range sc.next {
			sc.next[i] = noEdge
		}
	}
	sc.froms, sc.fromIn, sc.fromOut = sc.froms[:0], sc.fromIn[:0], sc.fromOut[:0]
	r := sc.win
	for j := r.y0; j < r.y1-1; j++ {
		for i := r.x0; i < r.x1-1; i++ {
			a := j*w + i
			if i+8 < r.x1 && sc.uniform8(a, w) {
				i += 7
				continue
			}
			k := sc.mask[a] | sc.mask[a+1]<<1 | sc.mask[a+w+1]<<2 | sc.mask[a+w]<<3
			segs := segments[k]
			if len(segs) == 0 {
				continue
			}
			sides := [4]uint32{sideB: uint32(2 * a), sideR: uint32(2*(a+1) + 1), sideT: uint32(2 * (a + w)), sideL: uint32(2*a + 1)}
			in, out := corner(k, a, w), corner(15^k, a, w)
			for s := 0; s < len(segs); s += 2 {
				if s == 2 { // a saddle's second segment goes round the other outside corner
					out = corner((15^k)&^(1<<saddleFirstOut[k]), a, w)
				}
				from := sides[segs[s]]
				sc.next[from] = sides[segs[s+1]]
				sc.froms = append(sc.froms, from)
				sc.fromIn = append(sc.fromIn, int32(in))
				sc.fromOut = append(sc.fromOut, int32(out))
			}
		}
	}
	sc.link(w)
}

// uniform8 reports whether the eight squares from a eastward (cells a to
// a+8 on two rows) are all inside or all outside, so have no outline.
// Most squares of a large contour are, and comparing eight cells at a
// time makes the scan several times faster than the case lookup.
func (sc *scratch) uniform8(a, w int) bool {
	lo := binary.LittleEndian.Uint64(sc.mask[a : a+8])
	if lo != 0 && lo != 0x0101010101010101 {
		return false
	}
	v := sc.mask[a]
	return binary.LittleEndian.Uint64(sc.mask[a+w:a+w+8]) == lo && sc.mask[a+8] == v && sc.mask[a+w+8] == v
}

// corner returns the cell of one corner of square a in the set k.
func corner(k uint8, a, w int) int {
	switch {
	case k&1 != 0:
		return a
	case k&2 != 0:
		return a + 1
	case k&4 != 0:
		return a + w + 1
	}
	return a + w
}

// link follows the segments into rings, clearing sc.next as it goes.
func (sc *scratch) link(w int) {
	sc.pts, sc.ringAt = sc.pts[:0], sc.ringAt[:0]
	sc.ringIn, sc.ringOut = sc.ringIn[:0], sc.ringOut[:0]
	for k, e := range sc.froms {
		if sc.next[e] == noEdge {
			continue // part of a ring already traced
		}
		sc.ringAt = append(sc.ringAt, int32(len(sc.pts)))
		sc.ringIn = append(sc.ringIn, sc.fromIn[k])
		sc.ringOut = append(sc.ringOut, sc.fromOut[k])
		for cur := e; ; {
			sc.pts = append(sc.pts, edgePoint(cur, w))
			nx := sc.next[cur]
			sc.next[cur] = noEdge
			if cur = nx; cur == e || cur == noEdge {
				break
			}
		}
	}
	sc.ringAt = append(sc.ringAt, int32(len(sc.pts)))
}

// edgePoint returns the midpoint an edge id names, in doubled units.
func edgePoint(e uint32, w int) pt {
	c := int(e >> 1)
	x, y := int32(c%w), int32(c/w)
	if e&1 == 0 {
		return pt{2*x + 1, 2 * y}
	}
	return pt{2 * x, 2*y + 1}
}

package ch

// EdgeArcs returns the arcs whose times the weight of entry i of Up (up)
// or Dn holds, unpacked to original edges: each original edge's head (for
// Up, other; for Dn, the node it is stored at).
func EdgeArcs(q *Query, up bool, owner, i uint32) []uint32 {
	h := q.h
	var e edge
	var first hop
	if up {
		e = at(h.Up, i)
		first = hop{from: owner, to: e.other, middle: e.middle, weight: e.weight}
	} else {
		e = at(h.Dn, i)
		first = hop{from: e.other, to: owner, middle: e.middle, weight: e.weight}
	}
	return q.expand(nil, first)
}

// Tainted reports whether t marks entry i of Up (up) or Dn.
func Tainted(t *Taint, up bool, i uint32) bool { return t.at(up, i) }

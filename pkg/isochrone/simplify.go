package isochrone

// simplifyRing appends to out the vertices of closed ring in that
// Douglas–Peucker (1973) keeps at tolerance tol (same units as the
// points): the ring is split at its first vertex and the vertex farthest
// from it, and each half keeps its farthest vertex from the chord while
// that lies beyond tol. Every dropped vertex lies within tol of the
// chord replacing it, and so the simplified ring stays within tol of the
// original, which is what keeps distinct outlines apart (package doc).
// Rings that would fall below three vertices are kept whole.
func (sc *scratch) simplifyRing(ring []pt, tol float64, out []pt) []pt {
	ring = sc.dropCollinear(ring)
	n := len(ring)
	if tol <= 0 || n <= 4 {
		return append(out, ring...)
	}
	far, best := 0, int64(-1)
	for i, p := range ring {
		dx, dy := int64(p.x-ring[0].x), int64(p.y-ring[0].y)
		if d := dx*dx + dy*dy; d > best {
			far, best = i, d
		}
	}
	keep := grow(sc.keep, n)
	clear(keep)
	keep[0], keep[far] = true, true
	at := func(i int) pt { return ring[i%n] }
	stack := append(sc.spans[:0], [2]int{0, far}, [2]int{far, n})
	tol2 := tol * tol
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi := s[0], s[1]
		split, worst := -1, tol2
		for i := lo + 1; i < hi; i++ {
			if d := segDist2(at(i), at(lo), at(hi)); d > worst {
				split, worst = i, d
			}
		}
		if split >= 0 {
			keep[split%n] = true
			stack = append(stack, [2]int{lo, split}, [2]int{split, hi})
		}
	}
	sc.keep, sc.spans = keep, stack
	start := len(out)
	for i, k := range keep {
		if k {
			out = append(out, ring[i])
		}
	}
	if len(out)-start < 3 {
		return append(out[:start], ring...)
	}
	return out
}

// segDist2 is the squared distance from p to segment a–b.
func segDist2(p, a, b pt) float64 {
	px, py := float64(p.x-a.x), float64(p.y-a.y)
	dx, dy := float64(b.x-a.x), float64(b.y-a.y)
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t := max(0, min(1, (px*dx+py*dy)/l2))
		px, py = px-t*dx, py-t*dy
	}
	return px*px + py*py
}

// dropCollinear returns ring without the vertices that lie on the straight
// line through their neighbours, which Douglas–Peucker would drop anyway:
// marching squares puts a vertex at every cell side, so most are. The
// result is scratch, valid until the next call.
func (sc *scratch) dropCollinear(ring []pt) []pt {
	out := sc.straight[:0]
	n := len(ring)
	for i, p := range ring {
		if orient(ring[(i+n-1)%n], p, ring[(i+1)%n]) != 0 {
			out = append(out, p)
		}
	}
	sc.straight = out
	return out
}

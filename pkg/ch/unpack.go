package ch

// unpackPath turns the meeting of both directions into the list of original
// nodes (arcs) from the source seed to the target seed.
func (q *Query) unpackPath(cost, meet uint32, buf []uint32) Result {
	r := Result{Cost: cost}
	start := len(buf)
	// Forward chain, collected backwards from the meeting node.
	var chain []hop
	v := meet
	for l := q.fwd.labels.Get(v); l.middle != seedMark; l = q.fwd.labels.Get(v) {
		chain = append(chain, hop{from: l.parent, to: v, middle: l.middle, weight: l.weight})
		v = l.parent
	}
	r.Source = int(q.fwd.labels.Get(v).parent)
	buf = append(buf, v)
	for i := len(chain) - 1; i >= 0; i-- {
		buf = q.h.expand(buf, chain[i])
	}
	v = meet
	for l := q.bwd.labels.Get(v); l.middle != seedMark; l = q.bwd.labels.Get(v) {
		buf = q.h.expand(buf, hop{from: v, to: l.parent, middle: l.middle, weight: l.weight})
		v = l.parent
	}
	r.Target = int(q.bwd.labels.Get(v).parent)
	r.Arcs = buf[start:]
	return r
}

// hop is one hierarchy edge of a path.
type hop struct {
	from, to, middle, weight uint32
}

// expand appends the original nodes of h after its first one (which the
// caller has already appended), replacing shortcuts by their two halves
// until only original edges remain. It keeps an explicit stack: shortcut
// nesting can be deep on a long route.
func (h *Hierarchy) expand(buf []uint32, first hop) []uint32 {
	stack := []hop{first}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.middle == NoMiddle {
			buf = append(buf, e.to)
			continue
		}
		down, up := h.halves(e)
		stack = append(stack, up, down) // down is expanded first
	}
	return buf
}

// halves finds the two edges a shortcut from→to over middle replaced:
// from→middle is stored with middle's incoming edges, middle→to with its
// outgoing ones, and their weights add up to the shortcut's.
func (h *Hierarchy) halves(e hop) (down, up hop) {
	m := e.middle
	for i := h.DnFirst[m]; i < h.DnFirst[m+1]; i++ {
		d := at(h.Dn, i)
		if d.other != e.from {
			continue
		}
		for j := h.UpFirst[m]; j < h.UpFirst[m+1]; j++ {
			u := at(h.Up, j)
			if u.other == e.to && d.weight+u.weight == e.weight {
				return hop{e.from, m, d.middle, d.weight}, hop{m, e.to, u.middle, u.weight}
			}
		}
	}
	panic("ch: shortcut without halves: corrupt hierarchy")
}

package ch

// unpackPath turns the meeting of both directions into the list of original
// nodes (arcs) from the source seed to the target seed.
func (q *Query) unpackPath(cost, meet uint32, buf []uint32) Result {
	r := Result{Cost: cost, Meet: meet}
	start := len(buf)
	buf, r.Source = q.appendIn(buf, q.hops[:0], meet)
	buf, r.Target = q.appendOut(buf, meet)
	r.Arcs = buf[start:]
	return r
}

// appendIn appends the path from the source seed to node u: the forward
// search tree's edges down to u, then chain, the edges from u onwards
// already collected backwards (a caller's own), all expanded. It returns
// the source seed's index.
func (q *Query) appendIn(buf []uint32, chain []hop, u uint32) ([]uint32, int) {
	for l := q.fwd.labels.Get(u); l.middle != seedMark; l = q.fwd.labels.Get(u) {
		chain = append(chain, hop{from: l.parent, to: u, middle: l.middle, weight: l.weight})
		u = l.parent
	}
	buf = append(buf, u)
	for i := len(chain) - 1; i >= 0; i-- {
		buf = q.expand(buf, chain[i])
	}
	q.hops = chain
	return buf, int(q.fwd.labels.Get(u).parent)
}

// appendOut appends the path from node u (already appended) to the target
// seed along the backward search tree, expanded, and returns the target
// seed's index.
func (q *Query) appendOut(buf []uint32, u uint32) ([]uint32, int) {
	for l := q.bwd.labels.Get(u); l.middle != seedMark; l = q.bwd.labels.Get(u) {
		buf = q.expand(buf, hop{from: u, to: l.parent, middle: l.middle, weight: l.weight})
		u = l.parent
	}
	return buf, int(q.bwd.labels.Get(u).parent)
}

// hop is one hierarchy edge of a path.
type hop struct {
	from, to, middle, weight uint32
}

// expand appends the original nodes of h after its first one (which the
// caller has already appended), replacing shortcuts by their two halves
// until only original edges remain. It keeps an explicit stack, the
// query's, reused: shortcut nesting can be deep on a long route.
func (q *Query) expand(buf []uint32, first hop) []uint32 {
	stack := append(q.stack[:0], first)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.middle == NoMiddle {
			buf = append(buf, e.to)
			continue
		}
		down, up := q.halves(e)
		stack = append(stack, up, down) // down is expanded first
	}
	q.stack = stack
	return buf
}

// halves returns the two edges a shortcut replaced under the query's
// state (see halfIndexes).
func (q *Query) halves(e hop) (down, up hop) {
	h := q.h
	m, i, j := h.halfIndexes(e.from, e.to, e.middle, e.weight, q.metric)
	d, u := at(h.Dn, i), at(h.Up, j)
	return hop{e.from, m, d.middle, d.weight}, hop{m, e.to, u.middle, u.weight}
}

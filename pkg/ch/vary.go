package ch

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/graph"
)

// Marked nodes (Input.Marked: arcs whose time, or whose turns between each
// other, change with the time of day) are contracted like any other. The
// hierarchy's weights are their fastest, and a state only raises them, so
// every path's cost under a state is at least its stored weight. What
// keeps the hierarchy exact under every state:
//
//   - A shortcut is left out only for a witness that passes through no
//     marked node and takes no variable edge, and costs no more than the
//     path through the node contracted at its fastest: the witness costs
//     the same at every time, so no more at any time. (Letting witnesses
//     pass marked nodes at their slowest would leave out a fifth of the
//     variable shortcuts, but a version that did found routes 1-4 ms dearer
//     than Dijkstra's under some states, a defect never found; it was
//     removed.)
//   - The time a state adds to an edge's head is added at query time to
//     every edge into it (graph.State.Edge), as before.
//   - A shortcut whose path passes through a marked node, or over a turn
//     a time may forbid, is variable: its middle is varyBit | its number in
//     the vary table, which lists its candidates, each a middle and two
//     halves (every path between its ends through a node contracted before
//     them that no witness covers). Under a state, the table is weighed
//     once (a metric: each shortcut the best of its candidates, halves
//     before the shortcuts made of them) and searches read a variable
//     shortcut's weight, distance and path from it.
//
// The cost of a state is one pass over the variable shortcuts' candidates,
// which grow with the number of marked nodes, not with its square: the 3M
// synthetic country's car hierarchy used to keep its 1,080 marked nodes
// uncontracted in a core and cross it by a table of every pair of them per
// state, which a 10M country's outgrew (issue 41).
//
// # Layout
//
//	<profile>.ch_vary_first  uint32, variable shortcuts + 1 (or none):
//	                         where each one's candidates begin
//	<profile>.ch_vary        uint32 ×3 per candidate: middle, index of its
//	                         first half in Dn, index of its second in Up
//
// The shortcuts come in the order their lower end was contracted, which
// puts every half before the shortcuts made of it; a shortcut's first
// candidate is its least at the graph's own times, the stored weight and
// distance its.
const varyBit = 1 << 31

// varyCandidate is a path a variable shortcut may take: through middle,
// from the in-th edge of its incoming list to the out-th of its outgoing
// one, at the given least weight and distance.
type varyCandidate struct {
	middle, in, out, weight, dist uint32
}

// varyRecord is a variable shortcut while contracting: its candidates and
// its place in the table once its lower end is contracted (-1 before).
type varyRecord struct {
	candidates []varyCandidate
	order      int32
}

// isVary reports whether an edge's middle names a variable shortcut.
func isVary(middle uint32) bool { return middle != NoMiddle && middle&varyBit != 0 }

// packVaries lays the variable shortcuts out in their order, rewrites
// their middles to varyBit | place, and returns the table.
func packVaries(h *Hierarchy, records []varyRecord) (first, table []uint32) {
	if len(records) == 0 {
		return nil, nil
	}
	byOrder := make([]int32, len(records))
	for r, rec := range records {
		if rec.order < 0 {
			panic("ch: a variable shortcut whose ends were never contracted")
		}
		byOrder[rec.order] = int32(r)
	}
	first = make([]uint32, 1, len(records)+1)
	for _, r := range byOrder {
		cands := records[r].candidates
		slices.SortStableFunc(cands, func(a, b varyCandidate) int { return cmp.Compare(a.weight, b.weight) })
		for _, c := range cands {
			table = append(table, c.middle, h.DnFirst[c.middle]+c.in, h.UpFirst[c.middle]+c.out)
		}
		first = append(first, uint32(len(table)/3))
	}
	for _, list := range [][]uint32{h.Up, h.Dn} {
		for i := 2; i < len(list); i += 4 {
			if isVary(list[i]) {
				list[i] = varyBit | uint32(records[list[i]&^varyBit].order)
			}
		}
	}
	return first, table
}

// NumVariable returns the number of variable shortcuts and of their
// candidates: what a state's metric weighs.
func (h *Hierarchy) NumVariable() (shortcuts, candidates int) {
	if len(h.VaryFirst) == 0 {
		return 0, 0
	}
	return len(h.VaryFirst) - 1, len(h.Vary) / 3
}

// candidate returns variable shortcut k's candidate under the metric m
// (its first, the least at the graph's own times, when m is nil): its
// middle and its halves' indexes in Dn and Up.
func (h *Hierarchy) candidate(k uint32, m *metric) (middle, down, up uint32) {
	c := h.VaryFirst[k]
	if m != nil {
		c = m.choice[k]
	}
	return h.Vary[3*c], h.Vary[3*c+1], h.Vary[3*c+2]
}

// halfIndexes returns the node m a shortcut from→to bypasses and the
// indexes of its halves, from→m in Dn and m→to in Up, under metric mt. A
// variable shortcut names them; a fixed one's are the fixed pair whose
// weights add up to its own (a variable pair may weigh as much and hold
// another path).
func (h *Hierarchy) halfIndexes(from, to, middle, weight uint32, mt *metric) (m, down, up uint32) {
	if isVary(middle) {
		return h.candidate(middle&^varyBit, mt)
	}
	m = middle
	for i := h.DnFirst[m]; i < h.DnFirst[m+1]; i++ {
		d := at(h.Dn, i)
		if d.other != from || d.weight > weight || isVary(d.middle) {
			continue
		}
		for j := h.UpFirst[m]; j < h.UpFirst[m+1]; j++ {
			u := at(h.Up, j)
			if u.other == to && d.weight+u.weight == weight && !isVary(u.middle) {
				return m, i, j
			}
		}
	}
	panic("ch: shortcut without halves: corrupt hierarchy")
}

// metric is the vary table weighed under one state: per variable shortcut,
// its weight without what its head's own time adds (which graph.State.Edge
// adds to every edge into it), NoWay where every candidate is closed; the
// distance of its best candidate; and that candidate's index in Vary.
type metric struct {
	st     *graph.State
	weight []uint32
	dist   []uint32
	choice []uint32
}

// metrics keeps the metrics of the latest states a hierarchy was asked for:
// requests at a few departure times (now, a commute) alternate without
// weighing the table each time.
type metrics struct {
	last atomic.Pointer[metric]
	mu   sync.Mutex
	kept []*metric // newest last
}

const keptMetrics = 4

// metricOf returns h's vary table weighed under st, nil when there is
// nothing to weigh (no state, or no variable shortcut).
func (h *Hierarchy) metricOf(st *graph.State) *metric {
	if st == nil || len(h.VaryFirst) == 0 {
		return nil
	}
	k := h.metrics
	if m := k.last.Load(); m != nil && m.st.Same(st) {
		return m
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, m := range k.kept {
		if m.st.Same(st) {
			k.last.Store(m)
			return m
		}
	}
	m := h.weigh(st)
	if len(k.kept) >= keptMetrics {
		k.kept = append(k.kept[:0], k.kept[1:]...)
	}
	k.kept = append(k.kept, m)
	k.last.Store(m)
	return m
}

// weigh computes the vary table's metric under st. A candidate through m
// weighs its first half's turn, m's time now, and its second half's turn;
// the halves come before it in the table, or are fixed.
func (h *Hierarchy) weigh(st *graph.State) *metric {
	n := len(h.VaryFirst) - 1
	m := &metric{st: st, weight: make([]uint32, n), dist: make([]uint32, n), choice: make([]uint32, n)}
	half := func(tail, head uint32, e edge) (w, d uint32) {
		w, d = e.weight, e.dist
		if isVary(e.middle) {
			k := e.middle &^ varyBit
			w, d = m.weight[k], m.dist[k]
		}
		if w == graph.NoWay {
			return w, d
		}
		return st.Turn(tail, head, w, e.middle == NoMiddle), d
	}
	for k := range n {
		best, bestDist, choice := uint32(graph.NoWay), uint32(0), h.VaryFirst[k]
		for c := h.VaryFirst[k]; c < h.VaryFirst[k+1]; c++ {
			mid, d, u := h.Vary[3*c], at(h.Dn, h.Vary[3*c+1]), at(h.Up, h.Vary[3*c+2])
			w1, d1 := half(d.other, mid, d)
			w2, d2 := half(mid, u.other, u)
			x := st.Extra(mid)
			if c == h.VaryFirst[k] {
				bestDist = d1 + d2
			}
			if w1 == graph.NoWay || x == graph.NoWay || w2 == graph.NoWay {
				continue
			}
			if w := add32(add32(w1, x), w2); w < best {
				best, bestDist, choice = w, d1+d2, c
			}
		}
		m.weight[k], m.dist[k], m.choice[k] = best, bestDist, choice
	}
	return m
}

// add32 adds without passing NoWay.
func add32(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < uint64(graph.NoWay) {
		return uint32(s)
	}
	return graph.NoWay - 1
}

// checkVary validates the vary table against the edge lists, so that
// weighing it reads only what is there: each candidate's halves are entries
// stored at its middle, and a variable half comes before the shortcut made
// of it. It reads the table alone, not the edges.
func (h *Hierarchy) checkVary() error {
	if len(h.VaryFirst) == 0 {
		if len(h.Vary) != 0 {
			return fmt.Errorf("vary table of %d words without an index", len(h.Vary))
		}
		return nil
	}
	if h.VaryFirst[0] != 0 || 3*int(h.VaryFirst[len(h.VaryFirst)-1]) != len(h.Vary) {
		return fmt.Errorf("vary index does not span its table of %d words", len(h.Vary))
	}
	n := uint32(h.NumNodes())
	for k := range uint32(len(h.VaryFirst) - 1) {
		if h.VaryFirst[k] >= h.VaryFirst[k+1] {
			return fmt.Errorf("variable shortcut %d has no candidate", k)
		}
		for c := h.VaryFirst[k]; c < h.VaryFirst[k+1]; c++ {
			m, d, u := h.Vary[3*c], h.Vary[3*c+1], h.Vary[3*c+2]
			if m >= n || d < h.DnFirst[m] || d >= h.DnFirst[m+1] || u < h.UpFirst[m] || u >= h.UpFirst[m+1] {
				return fmt.Errorf("variable shortcut %d: halves %d, %d not stored at its middle %d", k, d, u, m)
			}
			for _, half := range []uint32{h.Dn[4*d+2], h.Up[4*u+2]} {
				if isVary(half) && half&^varyBit >= k {
					return fmt.Errorf("variable shortcut %d: half %d comes after it", k, half&^varyBit)
				}
			}
		}
	}
	return nil
}

package route

import (
	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/search"
)

// potentials gives, for any arc, the exact fastest time from its end to the
// targets of one search, read from the contraction hierarchy
// (CH-potentials: Strasser and Zeitz, "A fast and tight heuristic for A* in
// road networks", 2021). A backward upward search from the targets labels
// the few hundred arcs above them; the potential of any other arc is the
// best of its own label and of each upward edge plus the potential of that
// edge's head, computed on demand and remembered. Every shortest path in a
// hierarchy goes up, then down, so this is the exact distance, and it is
// computed only for the arcs a goal-directed search touches.
//
// With the graph's own (fastest of any state) times it is a lower bound of
// the time under any departure-time state and of any penalised time, and a
// consistent one, which is what A* needs.
//
// The target seeds' costs are folded in as a shift: pot(v) = min over
// targets t of dist(v, t) + shift(t), with shift(t) = maxCost - t.Cost ≥ 0,
// so that pot is the distance to one virtual target behind them all.
type potentials struct {
	h     *ch.Hierarchy
	bwd   search.Labels[uint32] // backward upward labels: upper bounds, exact at apexes
	memo  search.Labels[memo]   // potentials computed so far
	heap  search.Heap
	stack []frame
}

// memo is a potential; open marks one still being computed.
type memo struct {
	v    uint32
	open bool
}

// reset prepares potentials towards targets on h.
func (p *potentials) reset(h *ch.Hierarchy, targets []search.Seed) {
	p.h = h
	p.bwd.Fit(h.NumNodes())
	p.memo.Fit(h.NumNodes())
	p.backward(targets)
}

// backward runs the upward search from the targets over Dn (edges from more
// important tails into each arc), to exhaustion: the search space is the
// targets' upward cone, a few hundred arcs.
func (p *potentials) backward(targets []search.Seed) {
	maxCost := uint32(0)
	for _, t := range targets {
		maxCost = max(maxCost, t.Cost)
	}
	p.heap.Reset()
	for _, t := range targets {
		p.improve(t.Node, maxCost-t.Cost)
	}
	h := p.h
	for p.heap.Len() > 0 {
		c, u := p.heap.Pop()
		if c != *p.bwd.Get(u) {
			continue
		}
		for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
			p.improve(h.Dn[4*i], search.Add(c, h.Dn[4*i+1]))
		}
	}
}

func (p *potentials) improve(v, c uint32) {
	b := p.bwd.Get(v) // inlines: most nodes reached are labelled already
	if b == nil {
		b, _ = p.bwd.Add(v)
	} else if *b <= c {
		return
	}
	*b = c
	p.heap.Push(c, v)
}

// at returns the potential of arc v: search.Unreached when no target can be
// reached from it.
func (p *potentials) at(v uint32) uint32 {
	if m := p.memo.Get(v); m != nil && !m.open {
		return m.v
	}
	// Depth-first over upward edges: an arc is finished once the heads of
	// all its upward edges are. The depth is the hierarchy's height.
	h := p.h
	*p.add(v) = memo{open: true}
	p.stack = append(p.stack[:0], frame{v, h.UpFirst[v]})
	for len(p.stack) > 0 {
		f := &p.stack[len(p.stack)-1]
		if f.next < h.UpFirst[f.node+1] {
			w := h.Up[4*f.next]
			f.next++
			if m, added := p.memo.Add(w); added {
				*m = memo{open: true}
				p.stack = append(p.stack, frame{w, h.UpFirst[w]})
			}
			continue
		}
		u := f.node
		p.stack = p.stack[:len(p.stack)-1]
		best := uint32(search.Unreached)
		if b := p.bwd.Get(u); b != nil {
			best = *b
		}
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			// A head still open closes a cycle, which only nodes left
			// uncontracted have (ch.Build leaves none); the backward
			// search explored them whole, so its labels there are exact.
			if m := p.memo.Get(h.Up[4*i]); !m.open {
				best = min(best, search.Add(h.Up[4*i+1], m.v))
			}
		}
		*p.memo.Get(u) = memo{v: best}
	}
	return p.memo.Get(v).v
}

// add returns v's memo, added if new.
func (p *potentials) add(v uint32) *memo {
	m, _ := p.memo.Add(v)
	return m
}

// frame is an arc of the depth-first search and its next upward edge.
type frame struct{ node, next uint32 }

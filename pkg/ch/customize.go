package ch

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/graph"
)

// A road-operations overlay (graph.Overlay) raises some arcs' times after
// the hierarchy was compiled. Customize contracts the graph again under
// those times, in the order the nightly build found: no node is ranked
// anew, so the work is one bounded witness search per in-edge of each node
// (the ranking, which simulates every contraction several times over, was
// most of the build). The result is an ordinary Hierarchy in the heap,
// exact under the overlay, that queries switch to (Query.SetState) once it
// is made; until then they use the compiled one with its taint and their
// callers repair what crosses a changed arc, so an operation applies at
// once and hierarchy speed returns when the customization is done.
//
// Why contract again rather than a customizable hierarchy (CCH, CRP): both
// need an order or a partition made for every metric (nested dissection),
// and their queries relax several times the edges of ours; contracting in
// the known order keeps the query exactly as fast as the nightly one, and
// on the 3M-node country takes about a second, off the request path
// (BENCHMARKS.md, "Road operations").

// Order returns h's nodes from least to most important: an order in which
// contracting the graph gives h again (every edge of h goes from a node to
// one after it). It is a breadth-first layering of h's edges, so nodes of
// one layer share no edge.
func (h *Hierarchy) Order() []uint32 {
	n := h.NumNodes()
	below := make([]uint32, n) // a node's less important neighbours not yet ordered
	each := func(u uint32, f func(v uint32)) {
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			f(h.Up[4*i])
		}
		for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
			f(h.Dn[4*i])
		}
	}
	for u := range uint32(n) {
		each(u, func(v uint32) { below[v]++ })
	}
	order := make([]uint32, 0, n)
	for u := range uint32(n) {
		if below[u] == 0 {
			order = append(order, u)
		}
	}
	for i := 0; i < len(order); i++ {
		each(order[i], func(v uint32) {
			if below[v]--; below[v] == 0 {
				order = append(order, v)
			}
		})
	}
	return order
}

// Contract contracts g with its nodes taken in order (least important
// first), without ranking them: the hierarchy is exact for g whatever the
// order, and as small as the nightly one when the order is its
// (Hierarchy.Order) and the weights are close to its.
func Contract(ctx context.Context, g Input, order []uint32) (*Hierarchy, error) {
	n := len(g.First) - 1
	c := newContractor(g)
	up := make([][]dynEdge, n)
	dn := make([][]dynEdge, n)
	for i, v := range order {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// As the build does: the small budget first, the large one only
		// where a search ran out of it (most find their witnesses within
		// it, and the large search would find the same).
		if c.findShortcuts(c.sim, v); c.sim.cut {
			c.sim.budget = contractionBudget
			c.findShortcuts(c.sim, v)
			c.sim.budget = simulationBudget
		}
		up[v], dn[v] = c.contract(v)
	}
	return pack(up, dn, c.records), nil
}

// OverlayInput is FromGraph under overlay ov: every edge into an arc ov
// slows weighs its extra time more, and edges into an arc it closes are
// left out.
func OverlayInput(g *graph.Graph, ov *graph.Overlay) Input {
	in := FromGraph(g)
	for i := range in.Edges {
		e := &in.Edges[i]
		if x := ov.Extra(e.Head); x == graph.NoWay {
			e.Weight = graph.NoWay
		} else {
			e.Weight = addOrNone(e.Weight, x)
		}
	}
	return in
}

// customized is a hierarchy contracted under an overlay.
type customized struct {
	ov   *graph.Overlay
	h    *Hierarchy
	used atomic.Uint64 // customs.tick when last asked for
}

// customs keeps the hierarchies customized for a compiled one, the least
// recently asked for going first when there are too many.
type customs struct {
	last  atomic.Pointer[customized] // the one found last, read without a lock
	tick  atomic.Uint64
	mu    sync.Mutex
	kept  []*customized
	order []uint32 // the compiled hierarchy's Order, made on first use
}

// keptCustomized bounds the customized hierarchies a compiled one keeps
// (the operations in force, and a few sets of exclusions with them asked
// for often): each is the size of the compiled hierarchy, in the heap.
const keptCustomized = 4

// Customize contracts g again under ov in h's order (see above) and keeps
// the result, which queries under ov then use. It is meant to run off the
// request path when an overlay is made; a second call for ov returns the
// first's. g must be the graph h was compiled from.
func (h *Hierarchy) Customize(ctx context.Context, g *graph.Graph, ov *graph.Overlay) (*Hierarchy, error) {
	if c := h.customized(ov); c != nil {
		return c, nil
	}
	k := h.customs
	k.mu.Lock()
	if k.order == nil {
		k.order = h.Order()
	}
	order := k.order
	k.mu.Unlock()
	if err := ctx.Err(); err != nil { // a newer overlay replaced ov while its order was made
		return nil, err
	}
	c, err := Contract(ctx, OverlayInput(g, ov), order)
	if err != nil {
		return nil, err
	}
	c.Taint(ov) // made before any query can ask for it, the only one it is asked for
	c.dropMiddles()
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.kept) >= keptCustomized {
		lru := 0
		for i, old := range k.kept {
			if old.used.Load() < k.kept[lru].used.Load() {
				lru = i
			}
		}
		k.kept = slices.Delete(k.kept, lru, lru+1)
	}
	got := &customized{ov: ov, h: c}
	got.used.Store(k.tick.Add(1))
	k.kept = append(k.kept, got)
	k.last.Store(got)
	return c, nil
}

// customized returns h customized under ov, nil when it is not (yet).
func (h *Hierarchy) customized(ov *graph.Overlay) *Hierarchy {
	k := h.customs
	if ov == nil || k == nil {
		return nil
	}
	if c := k.last.Load(); c != nil && c.ov == ov {
		c.used.Store(k.tick.Add(1))
		return c.h
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range k.kept {
		if c.ov == ov {
			c.used.Store(k.tick.Add(1))
			k.last.Store(c)
			return c.h
		}
	}
	return nil
}

// CustomizedBytes returns the heap the hierarchies customized from h hold:
// a server's memory budget grows by it (see cmd/mapd's gc.go).
func (h *Hierarchy) CustomizedBytes() int64 {
	k := h.customs
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	var total int64
	for _, c := range k.kept {
		total += c.h.heapBytes()
	}
	return total
}

// heapBytes is the size of h's arrays.
func (h *Hierarchy) heapBytes() int64 {
	return 4 * int64(len(h.UpFirst)+len(h.Up)+len(h.DnFirst)+len(h.Dn)+len(h.VaryFirst)+len(h.Vary))
}

// Customized reports whether h has been customized under ov.
func (h *Hierarchy) Customized(ov *graph.Overlay) bool { return h.customized(ov) != nil }

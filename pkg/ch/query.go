package ch

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// label is what one direction of a query knows about a node.
type label struct {
	cost   uint32
	parent uint32 // previous node, or the seed index when middle is seedMark
	middle uint32 // middle of the edge used to arrive, NoMiddle, or seedMark
	weight uint32 // weight of that edge, to find its halves when unpacking
	dist   int64  // for tables: centimetres from the endpoint
}

const seedMark = NoMiddle - 1

// side is one direction of a query.
type side struct {
	labels search.Labels[label] // the nodes this direction's search touched
	heap   search.Heap
	list   []uint32 // Up for the forward side, Dn for the backward side
	first  []uint32
	up     bool // list is Up: an entry of node u is an edge u→other
}

func (s *side) cost(v uint32) uint32 {
	if l := s.labels.Get(v); l != nil {
		return l.cost
	}
	return search.Unreached
}

// reset empties the side for a new search.
func (s *side) reset() {
	s.labels.Reset()
	s.heap.Reset()
}

// Query runs point-to-point searches on one hierarchy; it is reusable but
// not safe for concurrent use. Its memory grows with what its searches
// touch, a few thousand nodes on a country, not with the hierarchy's size
// (see search.Labels), so a fixed set of them (search.Pool) serves any
// number of clients.
type Query struct {
	h        *Hierarchy // base, or base customized under the state's overlay
	base     *Hierarchy // the hierarchy the query was made on
	fwd, bwd side
	buckets  bucketIndex  // a table's buckets, while ParallelTable runs
	filled   []bucket     // the buckets its backward searches left, reused
	st       *graph.State // conditions in force, nil for none: the base of full
	metric   *metric      // h's variable shortcuts weighed under st, nil for none
	full     *graph.State // the state set, road operations' overlay included
	taint    *Taint       // the edges whose path full's overlay changes, nil for none
	via      *viaScratch  // for Vias, allocated on first use
	hops     []hop        // a path's hierarchy edges, while unpacking it
	stack    []hop        // expand's
}

// NewQuery returns a query on h. It allocates nothing in proportion to h
// but on a small hierarchy (see search.Labels.Fit).
func NewQuery(h *Hierarchy) *Query {
	q := &Query{base: h, fwd: side{up: true}}
	q.use(h)
	q.fwd.labels.Fit(h.NumNodes())
	q.bwd.labels.Fit(h.NumNodes())
	q.buckets.spans.Fit(h.NumNodes())
	return q
}

// SetState makes the query's searches use the conditions in force in st
// (nil: the graph's own weights) until it is set again. A caller taking a
// Query from a pool sets it before searching.
//
// The hierarchy's searches run under st's base (graph.State.Base): its
// shortcuts hold the graph's own times, which a road-operations overlay
// only raises, so they stay lower bounds there; tables mark the cells
// whose path crosses a changed arc (see Taint) and callers repair those
// exactly, as package route does for a path.
//
// When the hierarchy has been customized under st's overlay
// (Hierarchy.Customize), the searches run on that one instead, whose
// weights are the overlay's: every answer is exact as found (Customized),
// and the taint a table carries marks only the paths that road operations
// slow, which is what its operations_applied asks.
func (q *Query) SetState(st *graph.State) { q.setState(st, true) }

// SetStateCompiled is SetState on the compiled hierarchy alone, never a
// customized one: under an overlay its costs are lower bounds, its paths'
// taint says where they are not exact (what a leg's Operated asks).
func (q *Query) SetStateCompiled(st *graph.State) { q.setState(st, false) }

func (q *Query) setState(st *graph.State, customized bool) {
	q.full, q.st = st, st.Base()
	q.use(q.base)
	q.taint = nil
	if ov := st.Overlay(); ov != nil && !ov.ShortLived() {
		if c := q.base.customized(ov); customized && c != nil {
			q.use(c)
		}
		q.taint = q.h.taintOf(ov)
	}
	q.metric = q.h.metricOf(q.st)
}

// SetStateAs gives q o's state on the hierarchy o searches (customized
// or compiled): queries that share one table must search the same one.
func (q *Query) SetStateAs(o *Query) {
	if o.Customized() {
		q.SetState(o.State())
		if q.h == o.h {
			return
		}
	}
	q.SetStateCompiled(o.State())
}

// Customized reports whether the query searches a hierarchy customized
// under its state's overlay: its costs and paths are then exact under the
// overlay, and callers repair nothing.
func (q *Query) Customized() bool { return q.h != q.base }

// use points the query's searches at h, the base or one customized from it
// (same nodes, other edges).
func (q *Query) use(h *Hierarchy) {
	if q.h == h {
		return
	}
	q.h = h
	q.fwd.list, q.fwd.first = h.Up, h.UpFirst
	q.bwd.list, q.bwd.first = h.Dn, h.DnFirst
	if q.via != nil {
		q.via.cones[0].first, q.via.cones[0].list = h.DnFirst, h.Dn
		q.via.cones[1].first, q.via.cones[1].list = h.UpFirst, h.Up
	}
}

// tableTaint makes sure q holds its overlay's taint, which only tables
// read: one request's short-lived overlay (its avoid areas) gets its taint
// here, when a table asks for it, and keeps it to itself rather than
// pushing the shared overlays' taints out of the hierarchy's cache.
func (q *Query) tableTaint() {
	if ov := q.full.Overlay(); q.taint == nil && ov != nil && !q.Customized() {
		q.taint = NewTaint(q.h, ov)
	}
}

// State returns the state set by SetState, overlay included.
func (q *Query) State() *graph.State { return q.full }

// now returns the weight, under the query's state, of edge e in the list of
// node u: Up (up) or Dn. NoWay means the edge may not be used now.
// It is split so that the common case, no state, inlines into the loops.
func (q *Query) now(u uint32, e edge, up bool) uint32 {
	if q.st == nil {
		return e.weight
	}
	return q.nowIn(u, e, up)
}

// nowIn is now under a state: a variable shortcut weighs what the state's
// metric says (see vary.go), and every edge gets its head's time now.
func (q *Query) nowIn(u uint32, e edge, up bool) uint32 {
	tail, head := u, e.other
	if !up {
		tail, head = e.other, u
	}
	w := e.weight
	if isVary(e.middle) && q.metric != nil {
		if w = q.metric.weight[e.middle&^varyBit]; w == graph.NoWay {
			return w
		}
	}
	return q.st.Edge(tail, head, w, e.middle == NoMiddle)
}

// Result is a shortest path found by a query.
type Result struct {
	Cost   uint32 // milliseconds from the source point to the target point
	Source int    // index of the source seed the path starts from
	Target int    // index of the target seed it ends at
	Arcs   []uint32
	// Meet is the node where Shortest's two searches met: the path is the
	// forward search tree's path to it and the backward tree's from it
	// (SpaceVias reuses them).
	Meet uint32
}

// Shortest finds the cheapest path from any source seed to any target seed
// (see package search for their meaning); ok is false when none exists. The
// path's arcs, from the source seed's arc to the target's, are appended to
// buf.
//
// Both directions search upward only. Target seeds enter the backward
// queue at bias − cost, where bias is the largest target cost, so that all
// keys stay non-negative; meeting costs are therefore bias too high, and a
// direction stops once its smallest key reaches the best meeting found
// (the other direction cannot go below 0).
//
// It does not stall on demand. Checking every settled node's edges from
// above for a cheaper way in doubles the memory each node touches, and on
// our turn-expanded hierarchies it prunes too little to pay for that:
// without it, car legs on the 3M synthetic country took two thirds of the
// time (550 → 364 µs), and on Andorra the same within the noise
// (docs/benchmarks-history.md, "Stall-on-demand").
func (q *Query) Shortest(sources, targets []search.Seed, buf []uint32) (Result, bool) {
	m := q.meet(sources, targets)
	if m.best == search.Unreached || m.best < m.shift {
		return Result{}, false
	}
	return q.unpackPath(m.best-m.shift, m.at, buf), true
}

// Cost is Shortest's cost alone, without unpacking the path.
func (q *Query) Cost(sources, targets []search.Seed) (uint32, bool) {
	m := q.meet(sources, targets)
	if m.best == search.Unreached || m.best < m.shift {
		return 0, false
	}
	return m.best - m.shift, true
}

// meeting is where Shortest's two searches meet: at node at, at cost
// best, shifted by the targets' bias.
type meeting struct {
	best, shift uint32
	at          uint32
}

// meet runs Shortest's search and returns the best meeting.
func (q *Query) meet(sources, targets []search.Seed) meeting {
	m := meeting{best: search.Unreached, at: search.Unreached}
	m.shift = q.seed(sources, targets)
	for _, s := range sources {
		if c := search.Add(q.fwd.cost(s.Node), q.bwd.cost(s.Node)); c < m.best {
			m.best, m.at = c, s.Node
		}
	}
	for {
		kf, kb := q.fwd.heap.MinCost(), q.bwd.heap.MinCost()
		doneF, doneB := kf >= m.best, kb >= m.best
		if doneF && doneB {
			break
		}
		if !doneF && (doneB || kf <= kb) {
			q.step(&q.fwd, &q.bwd, &m)
		} else {
			q.step(&q.bwd, &q.fwd, &m)
		}
	}
	return m
}

// seed starts a search: both sides emptied, both queues holding their
// seeds, targets at shift − cost, where shift, returned, is the largest
// target cost.
func (q *Query) seed(sources, targets []search.Seed) (shift uint32) {
	shift = bias(targets)
	q.fwd.reset()
	q.bwd.reset()
	for i, s := range sources {
		q.improve(&q.fwd, s.Node, s.Cost, uint32(i), seedMark, 0)
	}
	for i, t := range targets {
		q.improve(&q.bwd, t.Node, shift-t.Cost, uint32(i), seedMark, 0)
	}
	return shift
}

// improve labels v on side s with cost c, arriving from parent over an edge
// with the given middle and weight, if that is v's first or a cheaper
// label, and queues it; it returns the label then, else nil.
func (q *Query) improve(s *side, v, c, parent, middle, weight uint32) *label {
	// Most relaxations reach a node already labelled at least as cheaply
	// (the top of a hierarchy is dense): Get, which inlines, answers them.
	l := s.labels.Get(v)
	if l == nil {
		l, _ = s.labels.Add(v)
	} else if l.cost <= c {
		return nil
	}
	*l = label{cost: c, parent: parent, middle: middle, weight: weight}
	s.heap.Push(c, v)
	return l
}

// step settles the head of side a, records a meeting with side b, and
// relaxes the head's upward edges.
func (q *Query) step(a, b *side, m *meeting) {
	c, u := a.heap.Pop()
	if c != a.labels.Get(u).cost {
		return
	}
	if x := search.Add(c, b.cost(u)); x < m.best {
		m.best, m.at = x, u
	}
	q.relax(a, u, c)
}

// relax offers u's edges on side a, reached at cost c, to their ends. The
// label keeps the stored weight: unpacking matches shortcut halves by it.
func (q *Query) relax(a *side, u, c uint32) {
	for i := a.first[u]; i < a.first[u+1]; i++ {
		e := at(a.list, i)
		if w := q.now(u, e, a.up); w != graph.NoWay {
			q.improve(a, e.other, search.Add(c, w), u, e.middle, e.weight)
		}
	}
}

// distOf returns edge e's distance under the query's state: a variable
// shortcut's is its best candidate's (see vary.go).
func (q *Query) distOf(e edge) uint32 {
	if isVary(e.middle) && q.metric != nil {
		return q.metric.dist[e.middle&^varyBit]
	}
	return e.dist
}

// middleOf returns the node a shortcut with the given middle bypasses under
// the query's state (NoMiddle for an original edge).
func (q *Query) middleOf(middle uint32) uint32 {
	if isVary(middle) {
		m, _, _ := q.h.candidate(middle&^varyBit, q.metric)
		return m
	}
	return middle
}

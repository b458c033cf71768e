package ch

import (
	"slices"

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
	up     bool     // list is Up: an entry of node u is an edge u→other
	core   []uint32 // the core nodes it reached, when it stops at the core
	keys   []uint64 // coreHits'
	hits   []coreHit
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
	s.core = s.core[:0]
}

// Query runs point-to-point searches on one hierarchy; it is reusable but
// not safe for concurrent use. Its memory grows with what its searches
// touch, a few thousand nodes on a country, not with the hierarchy's size
// (see search.Labels), so a fixed set of them (search.Pool) serves any
// number of clients.
type Query struct {
	h        *Hierarchy
	fwd, bwd side
	buckets  bucketIndex  // a table's buckets, while ParallelTable runs
	filled   []bucket     // the buckets its backward searches left, reused
	hits     []coreHit    // where a table's search reached the core
	reach    coreReach    // the same while it runs
	cols     coreColumns  // a table's targets' columns across the core
	st       *graph.State // conditions in force, nil for none: the base of full
	full     *graph.State // the state set, road operations' overlay included
	taint    *Taint       // the edges whose path full's overlay changes, nil for none
	via      *viaScratch  // for Vias, allocated on first use
	hops     []hop        // a path's hierarchy edges, while unpacking it
	stack    []hop        // expand's
}

// NewQuery returns a query on h. It allocates nothing in proportion to h
// but on a small hierarchy (see search.Labels.Fit).
func NewQuery(h *Hierarchy) *Query {
	q := &Query{h: h,
		fwd: side{list: h.Up, first: h.UpFirst, up: true},
		bwd: side{list: h.Dn, first: h.DnFirst},
	}
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
func (q *Query) SetState(st *graph.State) {
	q.full, q.st = st, st.Base()
	q.taint = nil
	if ov := st.Overlay(); ov != nil && !ov.ShortLived() {
		q.taint = q.h.taintOf(ov)
	}
}

// tableTaint makes sure q holds its overlay's taint, which only tables
// read: one request's short-lived overlay (its avoid areas) gets its taint
// here, when a table asks for it, and keeps it to itself rather than
// pushing the shared overlays' taints out of the hierarchy's cache.
func (q *Query) tableTaint() {
	if ov := q.full.Overlay(); q.taint == nil && ov != nil {
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

// nowIn is now under a state.
func (q *Query) nowIn(u uint32, e edge, up bool) uint32 {
	tail, head := u, e.other
	if !up {
		tail, head = e.other, u
	}
	return q.st.Edge(tail, head, e.weight, e.middle == NoMiddle)
}

// Result is a shortest path found by a query.
type Result struct {
	Cost   uint32 // milliseconds from the source point to the target point
	Source int    // index of the source seed the path starts from
	Target int    // index of the target seed it ends at
	Arcs   []uint32
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
	if m.from != m.to {
		return q.unpackAcross(m, buf), true
	}
	return q.unpackPath(m.best-m.shift, m.from, buf), true
}

// Cost is Shortest's cost alone, without unpacking the path.
func (q *Query) Cost(sources, targets []search.Seed) (uint32, bool) {
	m := q.meet(sources, targets)
	if m.best == search.Unreached || m.best < m.shift {
		return 0, false
	}
	return m.best - m.shift, true
}

// meeting is where Shortest's two searches meet: at node from (= to), or
// across the core from core node from to core node to, by table ct.
type meeting struct {
	best, shift uint32 // the meeting's cost, shifted by the targets' bias
	from, to    uint32
	ct          *coreTable
}

// meet runs Shortest's search and returns the best meeting.
//
// With a core table (see coretable.go), both searches stop at the core, as
// a table's do: a path that enters the core goes up to a core node a, across
// to a core node b, and up from the target's side to b, so the best
// meeting is the best of those below the core and of f(a) + D(a, b) + g(b)
// over the core nodes a and b the two searches reach. Every search used to
// explore the whole core (on the 3M synthetic country's car hierarchy 312
// nodes and about 23,000 edges); now each settles what lies below it.
// The searches below the core stop as before at the best meeting found
// there; a core node a reached at f(a) no lower than it cannot improve it
// (g ≥ 0), and one reached below it was reached from settled nodes only,
// so at its exact cost.
func (q *Query) meet(sources, targets []search.Seed) meeting {
	ct := q.h.coreTable(q.st)
	m := meeting{best: search.Unreached, from: search.Unreached, to: search.Unreached, ct: ct}
	m.shift = q.seedAt(sources, targets, ct)
	for _, s := range sources {
		if c := search.Add(q.fwd.cost(s.Node), q.bwd.cost(s.Node)); c < m.best {
			m.best, m.from, m.to = c, s.Node, s.Node
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
	if ct != nil {
		q.cross(&m)
	}
	return m
}

// seed starts a search: both sides emptied, both queues holding their
// seeds, targets at shift − cost, where shift, returned, is the largest
// target cost.
func (q *Query) seed(sources, targets []search.Seed) (shift uint32) {
	return q.seedAt(sources, targets, nil)
}

// seedAt is seed for a search that stops at the core when ct is not nil:
// seeds on core nodes are labelled but not queued.
func (q *Query) seedAt(sources, targets []search.Seed, ct *coreTable) (shift uint32) {
	shift = bias(targets)
	q.fwd.reset()
	q.bwd.reset()
	for i, s := range sources {
		q.seedOne(&q.fwd, s.Node, s.Cost, uint32(i), ct)
	}
	for i, t := range targets {
		q.seedOne(&q.bwd, t.Node, shift-t.Cost, uint32(i), ct)
	}
	return shift
}

func (q *Query) seedOne(s *side, v, c, i uint32, ct *coreTable) {
	if ct != nil && q.h.core.in(v) {
		q.reachCore(s, v, c, i, seedMark, 0)
	} else {
		q.improve(s, v, c, i, seedMark, 0)
	}
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
		m.best, m.from, m.to = x, u, u
	}
	if m.ct != nil {
		q.relaxBelow(a, u, c, m.ct)
	} else {
		q.relax(a, u, c)
	}
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

// relaxBelow is relax for a search that stops at the core of table ct:
// the core nodes it reaches are labelled, not queued. As in a table's
// search (see upward), the state changes no edge below the core but those
// into it, by ct.extra.
func (q *Query) relaxBelow(a *side, u, c uint32, ct *coreTable) {
	core := q.h.core
	for i := a.first[u]; i < a.first[u+1]; i++ {
		e := at(a.list, i)
		w := e.weight
		if !core.in(e.other) {
			q.improve(a, e.other, search.Add(c, w), u, e.middle, e.weight)
			continue
		}
		if a.up { // the edge enters the core node
			x := ct.extra[core.index(e.other)]
			if x == graph.NoWay {
				continue
			}
			w += x
		}
		q.reachCore(a, e.other, search.Add(c, w), u, e.middle, e.weight)
	}
}

// reachCore is improve for core node v, which is labelled but not queued,
// and listed in s.core when first reached.
func (q *Query) reachCore(s *side, v, c, parent, middle, weight uint32) {
	l := s.labels.Get(v)
	if l == nil {
		l, _ = s.labels.Add(v)
		s.core = append(s.core, v)
	} else if l.cost <= c {
		return
	}
	*l = label{cost: c, parent: parent, middle: middle, weight: weight}
}

// cross improves m with the paths across the core of m.ct: the best of
// f(a) + D(a, b) + g(b) over the core nodes a and b both sides reached.
// Hits another hit covers through the core are dropped first (see
// coreTable.prune), and the pairs are tried by ascending f and g so that
// they stop at the best meeting.
func (q *Query) cross(m *meeting) {
	if len(q.fwd.core) == 0 || len(q.bwd.core) == 0 {
		return
	}
	ct := m.ct
	fh := ct.prune(q.fwd.coreHits(q.h.core, m.best), true)
	bh := ct.prune(q.bwd.coreHits(q.h.core, m.best), false)
	for _, b := range bh {
		row := ct.cost[int(b.index)*ct.k : int(b.index+1)*ct.k]
		for _, a := range fh {
			if uint64(a.cost)+uint64(b.cost) >= uint64(m.best) {
				break
			}
			if x := search.Add(search.Add(a.cost, row[a.index]), b.cost); x < m.best {
				m.best, m.from, m.to = x, q.h.core.nodes[a.index], q.h.core.nodes[b.index]
			}
		}
	}
}

// coreHits lists the core nodes s reached below cost below, by ascending
// cost (then core index, so that the order does not depend on the order
// they were reached in).
func (s *side) coreHits(c *core, below uint32) []coreHit {
	keys := s.keys[:0]
	for _, v := range s.core {
		if l := s.labels.Get(v); l.cost < below {
			keys = append(keys, uint64(l.cost)<<32|uint64(c.index(v)))
		}
	}
	slices.Sort(keys)
	hits := s.hits[:0]
	for _, k := range keys {
		hits = append(hits, coreHit{index: uint32(k), cost: uint32(k >> 32)})
	}
	s.keys, s.hits = keys, hits
	return hits
}

// unpackAcross unpacks a meeting across the core: the forward search's
// tree up to core node m.from, the core table's path to m.to, and the
// backward search's tree down from it.
func (q *Query) unpackAcross(m meeting, buf []uint32) Result {
	r := Result{Cost: m.best - m.shift}
	start := len(buf)
	chain := m.ct.path(q.h, m.from, m.to, q.hops[:0])
	buf, r.Source = q.appendIn(buf, chain, m.from)
	buf, r.Target = q.appendOut(buf, m.to)
	r.Arcs = buf[start:]
	return r
}

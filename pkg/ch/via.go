package ch

import "github.com/mapsco/maps/pkg/search"

// Via is a candidate via node of an alternative route (Abraham, Delling,
// Goldberg and Werneck, "Alternative routes in road networks", 2010): a
// node whose fastest path from the sources and fastest path to the targets
// Vias knows. Its path is those two together.
type Via struct {
	Node uint32
	Cost uint32 // from the source seed's cost to the target seed's, as Shortest counts
	// Leaves is the index in Vias's route of the last route arc the path
	// is known to travel before Node (-1 if none), and Joins that of the
	// first after it (len(route) if none). Both are read from the nodes and
	// shortcut middles the path passes, not its unpacked arcs, so the path
	// may share more of the route.
	Leaves, Joins int
	at            int32 // Node's position in the down cone, or inSpaces
}

// inSpaces is the position of a candidate of SpaceVias, which has none.
const inSpaces = -1

// viaScratch is Vias's memory, allocated on first use and kept small, as
// a sweep's speed is its memory's: the route's arcs by node (marks cleared
// by the next call), the nodes each upward search settled in order, and
// the two cones.
type viaScratch struct {
	route   []uint32
	marks   *nodeMarks // the cones' positions and the route's indexes
	settled [2][]uint32
	cones   [2]cone
	// SpaceVias's: the search trees' paths that make up the route, from
	// its meeting to each seed, and those seeds' indexes, when along.
	bestIn, bestOut        []uint32
	bestSource, bestTarget int
	along                  bool
	simple                 bool // no arc twice on the route (zero-weight cycles aside, none is)
}

const fromSearch = ^uint32(0)

// Vias finds candidate via nodes for alternatives to route, a path from a
// source seed to a target seed (its arcs, as Shortest returns them), by
// the via-node method with exact distances, as X-BDV does on the whole
// graph (Abraham et al. 2010), restricted to the hierarchy above the nodes
// around (typically the arcs one turn off the route): both upward
// searches run to limit, then PHAST's downward sweep over the cone above
// around in each direction (see cone) gives each of its nodes its exact
// cost from the sources and to the targets, and each node of both cones
// with a path below limit is a candidate, appended to out. Each sweep also
// carries, from every route arc its paths pass (as a node or a shortcut's
// middle), that arc's index, so a candidate knows about where its path
// leaves and rejoins the route without unpacking it (as OSRM approximates
// sharing on its search trees). Nodes on a cycle (left uncontracted) keep
// their upward labels, which the upward search makes exact as PHAST does. The
// work is the cones', a few hundred nodes for a route across Andorra,
// whatever the size of the country.
//
// The labels stay valid for ViaPath until the next search on q.
func (q *Query) Vias(sources, targets []search.Seed, route, around []uint32, limit uint32, out []Via) []Via {
	shift := q.settleBoth(sources, targets, route, limit)
	v := q.via
	v.along = false
	for d := range v.cones {
		q.sweep(&v.cones[d], around)
	}
	down, up := &v.cones[0], &v.cones[1]
	for i, x := range down.nodes {
		u := x &^ onCycle
		j := up.at.get(u, markUp)
		if j < 0 || down.cost[i] == search.Unreached || up.cost[j] == search.Unreached {
			continue
		}
		total := uint64(down.cost[i]) + uint64(up.cost[j])
		if total < uint64(shift) || total-uint64(shift) >= uint64(limit) {
			continue
		}
		out = append(out, Via{Node: u, Cost: uint32(total - uint64(shift)),
			Leaves: int(down.route[i]), Joins: int(up.route[j]), at: int32(i)})
	}
	return out
}

// settleBoth starts a via search: both upward searches run from their
// seeds until a path through the node they settle would cost limit or
// more, and each cone notes the labels its search settled with the route
// index each carries (markSettled). It returns the targets' shift.
func (q *Query) settleBoth(sources, targets []search.Seed, route []uint32, limit uint32) (shift uint32) {
	shift = q.seed(sources, targets)
	v := q.viaScratch()
	v.marks.forget(v.route, v.cones[0].nodes, v.settled[0], v.cones[1].nodes, v.settled[1])
	v.route = append(v.route[:0], route...)
	v.simple = true
	for i, a := range route {
		v.simple = v.marks.setFirst(a, markRoute, int32(i)) && v.simple
	}
	// A path through u costs f(u) + b(u) − shift with both at least 0.
	stop := search.Add(limit, shift)
	v.cones[1].none = int32(len(route))
	for d, s := range [2]*side{&q.fwd, &q.bwd} {
		c := &v.cones[d]
		c.nodes = c.nodes[:0]
		v.settled[d] = q.settleBelow(s, stop, v.settled[d][:0])
		q.markSettled(c, s, v.settled[d])
	}
	return shift
}

// viaScratch returns the query's Vias memory, allocated on first use.
func (q *Query) viaScratch() *viaScratch {
	if q.via == nil {
		q.via = newViaScratch(q.h, q.h.NumNodes() <= denseMarks)
	}
	return q.via
}

// newViaScratch returns Vias memory for h, its marks an array by node when
// dense (see nodeMarks).
func newViaScratch(h *Hierarchy, dense bool) *viaScratch {
	m := newNodeMarks(h.NumNodes(), dense)
	v := &viaScratch{marks: m}
	v.cones[0] = cone{first: h.DnFirst, list: h.Dn, none: -1, at: m, mark: markDown}
	v.cones[1] = cone{first: h.UpFirst, list: h.Up, backward: true, at: m, mark: markUp}
	return v
}

// settleBelow runs side s's upward search until its smallest key reaches
// stop, appending the nodes it settles, in order, to order.
func (q *Query) settleBelow(s *side, stop uint32, order []uint32) []uint32 {
	for s.heap.Len() > 0 && s.heap.MinCost() < stop {
		c, u := s.heap.Pop()
		if c != s.labels.Get(u).cost {
			continue
		}
		order = append(order, u)
		q.relax(s, u, c)
	}
	return order
}

// markSettled notes, in cone c, the label of each node side s's upward
// search settled and the route index its tree path carries: its own when
// it is on the route, else its parent's (settled before it) carried past
// the edge between, and for a seed none.
func (q *Query) markSettled(c *cone, s *side, settled []uint32) {
	c.pre = c.pre[:0]
	for k, u := range settled {
		i := c.none
		if r := q.via.marks.get(u, markRoute); r >= 0 {
			i = r
		} else if l := s.labels.Get(u); l.middle != seedMark {
			i = q.through(c.pre[settledAt-c.at.get(l.parent, c.mark)].route, l.middle, c.backward)
		}
		c.at.set(u, c.mark, settledAt-int32(k))
		c.pre = append(c.pre, preLabel{cost: s.labels.Get(u).cost, route: i})
	}
}

// ViaPath unpacks the path of candidate v from the last Vias or SpaceVias
// on q, appending its arcs, from its source seed's to its target seed's,
// to buf.
func (q *Query) ViaPath(v Via, buf []uint32) Result {
	if v.at == inSpaces {
		return q.spacePath(v, buf)
	}
	r := Result{Cost: v.Cost}
	start := len(buf)
	down, up := &q.via.cones[0], &q.via.cones[1]
	// The way in, collected backwards: cone edges, then the upward tree.
	chain := q.hops[:0]
	u, i := v.Node, v.at
	for ; down.edge[i] != fromSearch; i = down.from[i] {
		e := at(down.list, down.edge[i])
		chain = append(chain, hop{from: e.other, to: u, middle: e.middle, weight: e.weight})
		u = e.other
	}
	buf, r.Source = q.appendIn(buf, chain, u)
	// The way out: cone edges, then the upward tree.
	u, i = v.Node, up.at.get(v.Node, markUp)
	for ; up.edge[i] != fromSearch; i = up.from[i] {
		e := at(up.list, up.edge[i])
		buf = q.expand(buf, hop{from: u, to: e.other, middle: e.middle, weight: e.weight})
		u = e.other
	}
	buf, r.Target = q.appendOut(buf, u)
	r.Arcs = buf[start:]
	return r
}

package ch

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// cone is one direction's labels over the part of a hierarchy above a set
// of nodes: going down (from the sources, over Dn), every node a Dn edge
// leads from into the set or into the cone itself; going up (towards the
// targets, over Up), every node an Up edge leads to from them. A node's
// shortest path from the sources comes down to it through nodes of its
// down cone only (it goes up, then down into it), so PHAST's downward
// sweep over the down cone alone, each node after the nodes its edges come
// from, gives each of its nodes its exact cost from the sources; likewise
// for the up cone and the targets. This is RPHAST (Delling, Goldberg and
// Werneck 2011) with the set as its targets, selected and swept in one
// depth-first pass: post-order places a node once all its edges' other
// ends are placed, and it takes its label there.
type cone struct {
	first, list []uint32 // the hierarchy's DnFirst and Dn, or UpFirst and Up
	backward    bool     // the up cone, towards the targets
	none        int32    // the route index of a path that never met the route
	at          []stampedIndex
	stack       []coneFrame
	// By position, in sweep order:
	nodes []uint32 // flagged onCycle
	cost  []uint32
	edge  []uint32 // index in list of the edge the label came by, or fromSearch
	from  []int32  // position of that edge's other end
	route []int32  // the route index the label carries (see Via)
}

// onStack marks, in cone.at, a node whose depth-first search is open.
const onStack = -2

// sweep labels the cone above seeds: each node takes the best of its label
// from side s's upward search (when the search settled it) and of its
// edges from nodes placed before it. An edge back to a node still open
// closes a cycle (only a core has them): its node keeps its upward label,
// which the upward search makes exact, as PHAST does. Each edge is read
// once: from a node already placed it is relaxed at once, from one just
// opened when that one is placed.
func (q *Query) sweep(c *cone, s *side, carry []stampedIndex, seeds []uint32) {
	c.nodes, c.cost, c.edge, c.from, c.route = c.nodes[:0], c.cost[:0], c.edge[:0], c.from[:0], c.route[:0]
	for _, x := range seeds {
		if c.at[x].gen == q.gen {
			continue
		}
		c.stack = append(c.stack[:0], q.open(c, s, carry, x))
		for len(c.stack) > 0 {
			f := &c.stack[len(c.stack)-1]
			if f.next == c.first[f.node+1] {
				q.place(c, f)
				c.stack = c.stack[:len(c.stack)-1]
				if len(c.stack) > 0 { // the parent's edge to it
					p := &c.stack[len(c.stack)-1]
					q.relaxCone(c, p, p.next-1)
				}
				continue
			}
			j := f.next
			f.next++
			switch t := c.list[4*j]; {
			case c.at[t].gen != q.gen:
				c.stack = append(c.stack, q.open(c, s, carry, t))
			case c.at[t].i == onStack:
				f.cycle = true
			default:
				q.relaxCone(c, f, j)
			}
		}
	}
}

// coneFrame is a node of the cone's depth-first search: its next edge,
// and its best label so far.
type coneFrame struct {
	node, next uint32
	cost, edge uint32
	from       int32
	route      int32
	up         uint32 // its upward search label, kept on a cycle
	upRoute    int32
	cycle      bool
}

// open starts node u's frame with its upward search label, if any.
func (q *Query) open(c *cone, s *side, carry []stampedIndex, u uint32) coneFrame {
	c.at[u] = stampedIndex{q.gen, onStack}
	f := coneFrame{node: u, next: c.first[u], cost: search.Unreached, edge: fromSearch, from: -1, route: c.none}
	if r := carry[u]; r.gen == q.gen {
		f.cost, f.route = s.labels[u].cost, r.i
	}
	f.up, f.upRoute = f.cost, f.route
	return f
}

// relaxCone offers f's node the label of edge j's other end, placed.
func (q *Query) relaxCone(c *cone, f *coneFrame, j uint32) {
	o := c.at[c.list[4*j]].i
	t := c.cost[o]
	if t == search.Unreached {
		return
	}
	w := c.list[4*j+1]
	if q.st != nil {
		if w = q.nowIn(f.node, at(c.list, j), c.backward); w == graph.NoWay {
			return
		}
	}
	if nc := search.Add(t, w); nc < f.cost {
		f.cost, f.edge, f.from = nc, j, o
		f.route = q.through(c.route[o], c.list[4*j+2], c.backward)
	}
}

// place gives finished frame f's node its position and label.
func (q *Query) place(c *cone, f *coneFrame) {
	x, cost, edge, from, route := f.node, f.cost, f.edge, f.from, f.route
	if f.cycle {
		x |= onCycle
		cost, edge, from, route = f.up, fromSearch, -1, f.upRoute
	}
	if r := q.via.onRoute[f.node]; r.gen == q.gen {
		route = r.i
	}
	c.at[f.node] = stampedIndex{q.gen, int32(len(c.nodes))}
	c.nodes, c.cost, c.edge = append(c.nodes, x), append(c.cost, cost), append(c.edge, edge)
	c.from, c.route = append(c.from, from), append(c.route, route)
}

// through is the route index carried past a hierarchy edge from a node
// carrying i: the index of the edge's middle when that is on the route and
// further along the way (later going forward, earlier going backward).
func (q *Query) through(i int32, middle uint32, backward bool) int32 {
	if middle >= seedMark {
		return i
	}
	if r := q.via.onRoute[middle]; r.gen == q.gen && r.i != i && (r.i > i) != backward {
		return r.i
	}
	return i
}

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
// Werneck 2011) with the set as its targets: a depth-first search selects
// the cone and orders it (post-order places a node after all its edges'
// other ends), then a sweep labels it.
//
// Its memory is kept small, as a sweep's speed is its memory's (a cone has
// about a thousand nodes for a route across Andorra): one int32 per node
// marked (nodeMarks), set back by reset, and a few per cone node.
type cone struct {
	first, list []uint32 // the hierarchy's DnFirst and Dn, or UpFirst and Up
	backward    bool     // the up cone, towards the targets
	none        int32    // the route index of a path that never met the route
	// at is, per node, its position once placed, onStack while open,
	// settledAt−k when the upward search settled it (its label is pre[k]),
	// notSeen otherwise; Vias puts notSeen back.
	at    *nodeMarks // field mark
	mark  int
	pre   []preLabel
	preAt []int32 // by position: the node's index in pre, or -1
	stack []coneFrame
	// By position, in sweep order:
	nodes []uint32 // flagged onCycle
	cost  []uint32
	edge  []uint32 // index in list of the edge the label came by, or fromSearch
	from  []int32  // position of that edge's other end
	route []int32  // the route index the label carries (see Via)
}

// Marks in cone.at besides positions.
const (
	notSeen   = -1
	onStack   = -2
	settledAt = -3
)

// preLabel is a node's upward search label and the route index it carries.
type preLabel struct {
	cost  uint32
	route int32
}

// sweep labels the cone above seeds in two passes: a depth-first search
// lays the cone out in post-order, every node after the nodes its edges
// come from, then a linear sweep gives each node the best of its upward
// search label (when the search settled it, see markSettled) and of its
// edges from nodes before it. An edge back to a node still open closes a
// cycle (only uncontracted nodes have them): its node keeps its upward label, which
// the upward search makes exact, as PHAST does. Both passes read the same
// few kilobytes of the hierarchy, so the second finds them in cache.
func (q *Query) sweep(c *cone, seeds []uint32) {
	c.order(seeds)
	k := len(c.nodes)
	c.cost, c.edge, c.from, c.route = grow(c.cost, k), grow(c.edge, k), grow(c.from, k), grow(c.route, k)
	for i, x := range c.nodes {
		u := x &^ onCycle
		cost, edge, from, route := uint32(search.Unreached), uint32(fromSearch), int32(-1), c.none
		if p := c.preAt[i]; p >= 0 {
			cost, route = c.pre[p].cost, c.pre[p].route
		}
		if x&onCycle == 0 {
			for j := c.first[u]; j < c.first[u+1]; j++ {
				o := c.at.get(c.list[4*j], c.mark)
				t := c.cost[o]
				if t == search.Unreached {
					continue
				}
				w := c.list[4*j+1]
				if q.st != nil {
					if w = q.nowIn(u, at(c.list, j), c.backward); w == graph.NoWay {
						continue
					}
				}
				if nc := search.Add(t, w); nc < cost {
					cost, edge, from = nc, j, o
				}
			}
			if edge != fromSearch {
				route = q.through(c.route[from], c.list[4*edge+2], c.backward)
			}
		}
		if r := q.via.marks.get(u, markRoute); r >= 0 {
			route = r
		}
		c.cost[i], c.edge[i], c.from[i], c.route[i] = cost, edge, from, route
	}
}

// order lays out the cone above seeds in depth-first post-order, flagging
// the nodes that close a cycle, and notes which nodes the upward search
// settled (preAt).
func (c *cone) order(seeds []uint32) {
	c.preAt = c.preAt[:0]
	for _, x := range seeds {
		if c.at.get(x, c.mark) >= 0 {
			continue // placed already, by an earlier seed's search
		}
		c.stack = append(c.stack[:0], c.open(x))
		for len(c.stack) > 0 {
			f := &c.stack[len(c.stack)-1]
			if f.next < c.first[f.node&^cycleFrame+1] { // the flag is no part of the node
				t := c.list[4*f.next]
				f.next++
				switch a := c.at.get(t, c.mark); {
				case a == onStack:
					f.node |= cycleFrame
				case a < 0:
					c.stack = append(c.stack, c.open(t))
				}
				continue
			}
			u, x := f.node&^cycleFrame, f.node&^cycleFrame
			if f.node&cycleFrame != 0 {
				x |= onCycle
			}
			c.at.set(u, c.mark, int32(len(c.nodes)))
			c.nodes, c.preAt = append(c.nodes, x), append(c.preAt, f.pre)
			c.stack = c.stack[:len(c.stack)-1]
		}
	}
}

// coneFrame is a node of the depth-first search (flagged cycleFrame once
// an edge closes a cycle), its next edge, and the index of its upward
// search label in pre, or -1.
type coneFrame struct {
	node, next uint32
	pre        int32
}

// cycleFrame flags a frame's node; node ids stay below it (see onCycle).
const cycleFrame = onCycle

// open starts node u's frame.
func (c *cone) open(u uint32) coneFrame {
	f := coneFrame{node: u, next: c.first[u], pre: -1}
	if a := c.at.get(u, c.mark); a <= settledAt {
		f.pre = settledAt - a
	}
	c.at.set(u, c.mark, onStack)
	return f
}

// grow returns s resized to n, reusing its memory when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}

// through is the route index carried past a hierarchy edge from a node
// carrying i: the index of the edge's middle when that is on the route and
// further along the way (later going forward, earlier going backward).
func (q *Query) through(i int32, middle uint32, backward bool) int32 {
	if middle >= seedMark {
		return i
	}
	if r := q.via.marks.get(q.middleOf(middle), markRoute); r >= 0 && r != i && (r > i) != backward {
		return r
	}
	return i
}

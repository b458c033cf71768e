package ch

import "github.com/mapsco/maps/pkg/search"

// PHAST (Delling, Goldberg, Nowatzyk and Werneck 2011) computes the cost
// of every node from a set of seeds in two phases: an upward Dijkstra from
// the seeds, as in a query, then one linear sweep over all nodes from the
// most important down, each node taking the best of its upward label and
// of every downward edge into it. Every shortest path in a hierarchy goes
// up then down, so when a node is swept all the more important nodes its
// path can come down from are final.
//
// The sweep needs an order in which every node follows the tails of its
// downward edges. Node ids here are arcs, not ranks, and the contraction
// order is not stored, so NewSweep derives one from the hierarchy itself.
// Nodes left uncontracted (a graph viewed as its own hierarchy, as tests
// do) are searched whole by the upward phase and skipped by the sweep's
// pulls where their edges form cycles; Build leaves none.
// Weights are the hierarchy's own: conditions a Query can be given
// (graph.State) are not applied.

// Sweep is an order of a hierarchy's nodes fit for PHAST's downward
// phase. It is read-only and safe for concurrent use.
type Sweep struct {
	// order lists the nodes, flagged with onCycle where a node has a Dn
	// tail that may come after it.
	order []uint32
}

// onCycle marks, in Sweep.order, a node on a cycle of Dn edges. Only nodes
// left uncontracted have such cycles (Build leaves none), and an
// upward search explores the core whole, so these nodes' upward labels are
// exact and the sweep must not read their tails, which may not be final.
// Node ids stay below it: a country has tens of millions of arcs at most.
const onCycle = 1 << 31

// NewSweep orders h's nodes by height: a node without Dn edges has height
// 0, any other node 1 + the greatest height of its Dn tails, which are all more important, so the recursion ends (a depth-first
// search; an edge back to a node still open closes a cycle, found only
// among uncontracted nodes, and is left out). Sorting by height puts every tail before its
// heads; within a height, ids stay ascending, which keeps neighbouring arcs
// close in memory. It costs a pass over Dn and about 12 bytes per node
// while it runs, 4 bytes per node after.
func NewSweep(h *Hierarchy) *Sweep {
	n := h.NumNodes()
	height := make([]uint32, n)
	for i := range height {
		height[i] = unseen
	}
	cycle := make([]bool, n)
	var stack []frame
	levels := uint32(0)
	for v := range uint32(n) {
		if height[v] != unseen {
			continue
		}
		height[v] = open
		stack = append(stack[:0], frame{v, h.DnFirst[v]})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < h.DnFirst[f.node+1] {
				t := h.Dn[4*f.next]
				f.next++
				switch height[t] {
				case unseen:
					height[t] = open
					stack = append(stack, frame{t, h.DnFirst[t]})
				case open:
					cycle[f.node] = true
				}
				continue
			}
			height[f.node] = h.heightOf(f.node, height)
			levels = max(levels, height[f.node]+1)
			stack = stack[:len(stack)-1]
		}
	}
	order := countingSort(height, levels)
	for i, v := range order {
		if cycle[v] {
			order[i] |= onCycle
		}
	}
	return &Sweep{order: order}
}

// Heights during NewSweep: not yet reached, and on the search's stack.
const (
	unseen = ^uint32(0)
	open   = unseen - 1
)

// frame is a node on NewSweep's stack and the next Dn edge to follow.
type frame struct{ node, next uint32 }

// heightOf returns 1 + the greatest height of u's finished Dn tails, 0 if
// none; open tails close cycles and do not count.
func (h *Hierarchy) heightOf(u uint32, height []uint32) uint32 {
	hu := uint32(0)
	for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
		if ht := height[h.Dn[4*i]]; ht < open {
			hu = max(hu, ht+1)
		}
	}
	return hu
}

// countingSort lists the nodes by ascending key, ids ascending within a
// key.
func countingSort(key []uint32, keys uint32) []uint32 {
	start := make([]uint32, keys+1)
	for _, k := range key {
		start[k+1]++
	}
	for k := range keys {
		start[k+1] += start[k]
	}
	order := make([]uint32, len(key))
	for v, k := range key {
		order[start[k]] = uint32(v)
		start[k]++
	}
	return order
}

// PHAST runs one-to-all searches over one hierarchy; it is reusable but
// not safe for concurrent use. It holds 8 bytes per node.
type PHAST struct {
	h       *Hierarchy
	sweep   *Sweep
	up      []uint32 // upward labels: Unreached except at touched
	touched []uint32
	cost    []uint32 // the last Run's answer
	heap    search.Heap
}

// NewPHAST allocates scratch space for h; sweep must be NewSweep(h).
func NewPHAST(h *Hierarchy, sweep *Sweep) *PHAST {
	n := h.NumNodes()
	p := &PHAST{h: h, sweep: sweep, up: make([]uint32, n), cost: make([]uint32, n)}
	for i := range p.up {
		p.up[i] = search.Unreached
	}
	return p
}

// Run returns every node's cost from the seeds (the cost of a path from a
// seed plus the seed's Cost), search.Unreached where no path leads. Costs
// below limit are exact; a node whose cost is limit or more gets an upper
// bound or Unreached, because the upward phase does not go beyond limit
// (which keeps it small for a bounded question such as an isochrone).
// Pass search.Unreached for exact costs everywhere. The slice is
// overwritten by the next Run.
func (p *PHAST) Run(seeds []search.Seed, limit uint32) []uint32 {
	p.upward(seeds, limit)
	p.down()
	for _, v := range p.touched {
		p.up[v] = search.Unreached
	}
	p.touched = p.touched[:0]
	return p.cost
}

// upward labels the nodes an upward search from the seeds reaches below
// limit. Without stall-on-demand some labels are too high; the sweep
// corrects them, as it does every node.
func (p *PHAST) upward(seeds []search.Seed, limit uint32) {
	p.heap.Reset()
	for _, s := range seeds {
		p.improve(s.Node, s.Cost, limit)
	}
	h := p.h
	for p.heap.Len() > 0 {
		c, u := p.heap.Pop()
		if c != p.up[u] {
			continue
		}
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			p.improve(h.Up[4*i], search.Add(c, h.Up[4*i+1]), limit)
		}
	}
}

func (p *PHAST) improve(v, c, limit uint32) {
	if c >= limit || c >= p.up[v] {
		return
	}
	if p.up[v] == search.Unreached {
		p.touched = append(p.touched, v)
	}
	p.up[v] = c
	p.heap.Push(c, v)
}

// down is the linear sweep: every node, most important first, takes the
// best of its upward label and its Dn edges from already final nodes.
func (p *PHAST) down() {
	h, cost, up := p.h, p.cost, p.up
	for _, x := range p.sweep.order {
		v := x &^ onCycle
		c := up[v]
		if x&onCycle != 0 {
			cost[v] = c
			continue
		}
		dn := h.Dn[4*h.DnFirst[v] : 4*h.DnFirst[v+1]]
		for i := 0; i+3 < len(dn); i += 4 {
			if t := cost[dn[i]]; t != search.Unreached {
				c = min(c, search.Add(t, dn[i+1]))
			}
		}
		cost[v] = c
	}
}

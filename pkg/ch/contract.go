package ch

import (
	"context"
	"runtime"

	"github.com/mapsco/maps/pkg/search"
)

// Input is the graph to contract: node n's edges are Edges[First[n]:First[n+1]].
//
// Core, when not nil, names nodes to leave uncontracted because the weights
// of their incoming edges, or their turns between each other, change at
// query time (graph.Conditions). They stay on top of the hierarchy with
// all their edges among themselves, no witness path passes through them,
// and an original edge between two of them is never merged with a shortcut,
// so any state of those weights gives exact answers (a core-based CH).
type Input struct {
	First []uint32
	Edges []InputEdge
	Core  func(v uint32) bool
}

// InputEdge is an edge of the graph to contract.
type InputEdge struct {
	Head, Weight, Dist uint32
}

// dynEdge is an edge of the graph while it is being contracted.
type dynEdge struct {
	other, weight, middle, dist uint32
}

// contractor holds the shrinking graph: for each node not yet contracted,
// its edges to and from other uncontracted nodes.
type contractor struct {
	out, in    [][]dynEdge
	done       []bool
	neighbours []uint32 // contracted neighbours, a priority term
	level      []uint32 // depth in the hierarchy, a priority term
	core       []bool   // Input.Core read once: witness searches ask per settled node
	sim        *simulation
}

// simulation is what examining a node needs besides the graph: a witness
// search and the shortcuts found. Each goroutine that examines nodes has
// its own.
type simulation struct {
	witness   *witnessSearch
	budget    int       // nodes a witness search may settle
	shortcuts []dynEdge // the shortcuts needed by the node examined
	sources   []uint32  // their tails
	cut       bool      // a search ran out of budget: shortcuts may be superfluous
}

// Build contracts g. Node order follows the usual lazy-update heuristic:
// priority = 4 × shortcuts added − 2 × edges removed + contracted
// neighbours + 4 × level; a node whose recomputed priority is no longer the
// smallest goes back to the queue. The level's weight (1 before) keeps the
// hierarchy shallow: on the 3M-node country's car graph the nodes an
// upward search can reach fell from 282 to 258 on average, with 0.7 %
// fewer edges (bicycle: 915 to 894, 1 % fewer) for about a tenth more
// contraction time.
//
// The first priorities are simulated on GOMAXPROCS goroutines; the
// hierarchy is the same for any number.
func Build(ctx context.Context, g Input) (*Hierarchy, error) {
	return build(ctx, g, runtime.GOMAXPROCS(0))
}

// BuildWorkers is Build with the first priorities simulated on at most
// workers goroutines, for callers that contract several graphs at once and
// share the cores among them: each worker beyond the first holds a witness
// search as large as the graph (12 bytes a node), so as many workers per
// graph as cores, times the graphs, multiplies the memory, not the speed.
// The hierarchy is the same for any number.
func BuildWorkers(ctx context.Context, g Input, workers int) (*Hierarchy, error) {
	return build(ctx, g, max(1, workers))
}

func build(ctx context.Context, g Input, workers int) (*Hierarchy, error) {
	n := len(g.First) - 1
	c := newContractor(g)
	var queue search.Heap
	for v, p := range c.initialPriorities(ctx, workers) {
		if !c.isCore(uint32(v)) {
			queue.Push(p, uint32(v))
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	up := make([][]dynEdge, n)
	dn := make([][]dynEdge, n)
	for count := 0; queue.Len() > 0; {
		_, v := queue.Pop()
		if c.done[v] {
			continue
		}
		if p := c.priority(c.sim, v); queue.Len() > 0 && p > queue.MinCost() {
			queue.Push(p, v)
			continue
		}
		if count++; count%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if c.sim.cut { // the simulation's shortcuts would do, but fewer may
			c.sim.budget = contractionBudget
			c.findShortcuts(c.sim, v)
			c.sim.budget = simulationBudget
		}
		up[v], dn[v] = c.contract(v) // with the shortcuts just found
	}
	for v := range uint32(n) {
		if c.isCore(v) {
			up[v], dn[v] = c.out[v], c.in[v] // every edge left joins two core nodes
		}
	}
	return pack(up, dn), nil
}

func (c *contractor) isCore(v uint32) bool { return c.core != nil && c.core[v] }

func newContractor(g Input) *contractor {
	n := len(g.First) - 1
	c := &contractor{out: make([][]dynEdge, n), in: make([][]dynEdge, n), done: make([]bool, n),
		neighbours: make([]uint32, n), level: make([]uint32, n), sim: newSimulation(n)}
	if g.Core != nil {
		c.core = make([]bool, n)
		for v := range uint32(n) {
			c.core[v] = g.Core(v)
		}
	}
	for u := range uint32(n) {
		for _, e := range g.Edges[g.First[u]:g.First[u+1]] {
			if e.Head == u {
				continue // a loop never shortens a path
			}
			c.addEdge(u, dynEdge{other: e.Head, weight: e.Weight, middle: NoMiddle, dist: e.Dist})
		}
	}
	return c
}

// addEdge inserts u→e.other, keeping only the cheapest of parallel edges,
// except that between core nodes an original edge (which a restriction may
// forbid at query time) and a shortcut are both kept.
func (c *contractor) addEdge(u uint32, e dynEdge) {
	v := e.other
	separate := c.isCore(u) && c.isCore(v)
	for i, old := range c.out[u] {
		if old.other != v || separate && !sameKind(old, e) {
			continue
		}
		if e.weight < old.weight {
			c.out[u][i] = e
			for j, in := range c.in[v] {
				if in.other == u && sameKind(in, old) {
					c.in[v][j] = dynEdge{other: u, weight: e.weight, middle: e.middle, dist: e.dist}
				}
			}
		}
		return
	}
	c.out[u] = append(c.out[u], e)
	c.in[v] = append(c.in[v], dynEdge{other: u, weight: e.weight, middle: e.middle, dist: e.dist})
}

// sameKind reports whether both edges are original or both shortcuts.
func sameKind(a, b dynEdge) bool { return (a.middle == NoMiddle) == (b.middle == NoMiddle) }

func newSimulation(n int) *simulation {
	return &simulation{witness: newWitnessSearch(n), budget: simulationBudget}
}

// priority simulates contracting v, leaving its shortcuts in sim.
func (c *contractor) priority(sim *simulation, v uint32) uint32 {
	added := c.findShortcuts(sim, v)
	removed := len(c.in[v]) + len(c.out[v])
	p := 4*int64(added) - 2*int64(removed) + int64(c.neighbours[v]) + 4*int64(c.level[v])
	return uint32(p + 1<<20) // keep it non-negative for the heap
}

// findShortcuts fills sim.shortcuts/sim.sources with the shortcuts
// contracting v needs and returns how many. It only reads the graph.
func (c *contractor) findShortcuts(sim *simulation, v uint32) int {
	sim.shortcuts, sim.sources = sim.shortcuts[:0], sim.sources[:0]
	sim.cut = false
	for _, in := range c.in[v] {
		u := in.other
		limit, through := uint32(0), false
		for _, out := range c.out[v] {
			if out.other != u {
				limit, through = max(limit, in.weight+out.weight), true
			}
		}
		if !through {
			continue // a limit of 0 says nothing: zero-weight edges exist
		}
		if sim.witness.run(c, u, v, limit, c.out[v], sim.budget) {
			sim.cut = true
		}
		for _, out := range c.out[v] {
			w := out.other
			if w == u {
				continue
			}
			via := in.weight + out.weight
			if sim.witness.cost(w) <= via {
				continue
			}
			sim.shortcuts = append(sim.shortcuts, dynEdge{other: w, weight: via, middle: v, dist: in.dist + out.dist})
			sim.sources = append(sim.sources, u)
		}
	}
	return len(sim.shortcuts)
}

// contract removes v, adds its shortcuts, and returns its edges to and
// from the nodes still in the graph (all more important than v). The
// shortcuts are those findShortcuts(c.sim, v) left in c.sim, which must be
// the last call: the graph has not changed since, so searching the
// witnesses again with the same budget would find the same ones (it was a
// third of a build).
func (c *contractor) contract(v uint32) (up, dn []dynEdge) {
	up, dn = c.out[v], c.in[v]
	c.done[v] = true
	for _, e := range up {
		c.in[e.other] = removeEdge(c.in[e.other], v)
		c.touch(v, e.other)
	}
	for _, e := range dn {
		c.out[e.other] = removeEdge(c.out[e.other], v)
		c.touch(v, e.other)
	}
	for i, s := range c.sim.shortcuts {
		c.addEdge(c.sim.sources[i], s)
	}
	c.out[v], c.in[v] = nil, nil
	return up, dn
}

func (c *contractor) touch(v, w uint32) {
	c.neighbours[w]++
	c.level[w] = max(c.level[w], c.level[v]+1)
}

func removeEdge(list []dynEdge, v uint32) []dynEdge {
	for i := range list {
		if list[i].other == v {
			list[i] = list[len(list)-1]
			return list[:len(list)-1]
		}
	}
	return list
}

// pack lays the per-node edge lists out as the Hierarchy's flat arrays.
func pack(up, dn [][]dynEdge) *Hierarchy {
	h := &Hierarchy{taints: new(taints)}
	h.UpFirst, h.Up = flatten(up)
	h.DnFirst, h.Dn = flatten(dn)
	return h
}

func flatten(lists [][]dynEdge) (first, flat []uint32) {
	first = make([]uint32, len(lists)+1)
	for v, l := range lists {
		first[v+1] = first[v] + uint32(len(l))
	}
	flat = make([]uint32, 0, 4*first[len(lists)])
	for _, l := range lists {
		for _, e := range l {
			flat = append(flat, e.other, e.weight, e.middle, e.dist)
		}
	}
	return first, flat
}

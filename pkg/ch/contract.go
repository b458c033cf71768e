package ch

import (
	"context"
	"runtime"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
)

// Input is the graph to contract: node n's edges are Edges[First[n]:First[n+1]].
//
// Marked, when not nil, names the nodes whose incoming edges weigh more at
// some times of day (graph.Conditions), and Turn, among edges between two
// of them, those a time may forbid or make dearer; the
// edge weights given are the least of any time. Marked nodes are contracted
// like any other, and the hierarchy stays exact under every state of those
// weights (see vary.go).
type Input struct {
	First  []uint32
	Edges  []InputEdge
	Marked func(v uint32) bool
	Turn   func(tail, head uint32) bool
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
	neighbours []uint32                     // contracted neighbours, a priority term
	level      []uint32                     // depth in the hierarchy, a priority term
	marked     []bool                       // Input.Marked read once: witness searches ask per settled node
	turn       func(tail, head uint32) bool // Input.Turn, nil for none
	records    []varyRecord                 // the variable shortcuts made so far
	finalized  int                          // of them, those whose lower end is contracted
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
	halves    []uint64  // their halves' indexes in the node's in<<32 | out lists
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
		queue.Push(p, uint32(v))
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
	return pack(up, dn, c.records), nil
}

func (c *contractor) isMarked(v uint32) bool { return c.marked != nil && c.marked[v] }

func newContractor(g Input) *contractor {
	n := len(g.First) - 1
	c := &contractor{out: make([][]dynEdge, n), in: make([][]dynEdge, n), done: make([]bool, n),
		neighbours: make([]uint32, n), level: make([]uint32, n), sim: newSimulation(n)}
	if n >= varyBit {
		panic("ch: too many nodes for a middle's vary bit")
	}
	c.turn = g.Turn
	if g.Marked != nil {
		c.marked = make([]bool, n)
		for v := range uint32(n) {
			c.marked[v] = g.Marked(v)
		}
	}
	for u := range uint32(n) {
		for _, e := range g.Edges[g.First[u]:g.First[u+1]] {
			if e.Head == u || e.Weight == graph.NoWay {
				continue // a loop never shortens a path; NoWay: closed (OverlayInput)
			}
			c.addEdge(u, dynEdge{other: e.Head, weight: e.Weight, middle: NoMiddle, dist: e.Dist})
		}
	}
	return c
}

// addEdge inserts u→e.other, a fixed edge or an original one. Of parallel
// fixed edges it keeps only the cheapest. A turn a time may forbid or make
// dearer (see varies) is kept beside the others.
func (c *contractor) addEdge(u uint32, e dynEdge) {
	v := e.other
	if !c.varies(u, e) {
		for i, old := range c.out[u] {
			if old.other != v || c.varies(u, old) {
				continue
			}
			if e.weight < old.weight {
				c.out[u][i] = e
				c.setIn(v, u, old.middle, e)
			}
			return
		}
	}
	c.out[u] = append(c.out[u], e)
	c.in[v] = append(c.in[v], dynEdge{other: u, weight: e.weight, middle: e.middle, dist: e.dist})
}

// addVary adds candidate cand to the variable shortcut u→e.other, making
// it unless one exists; the shortcut weighs its least candidate. A fixed
// parallel edge that costs no more than cand at its fastest is at least as
// good at every time, and cand is dropped.
func (c *contractor) addVary(u uint32, e dynEdge, cand varyCandidate) {
	v := e.other
	at := -1
	for i, old := range c.out[u] {
		switch {
		case old.other != v:
		case isVary(old.middle):
			at = i
		case !c.varies(u, old) && old.weight <= e.weight:
			return
		}
	}
	if at < 0 {
		e.middle = varyBit | uint32(len(c.records))
		c.records = append(c.records, varyRecord{candidates: []varyCandidate{cand}, order: -1})
		c.out[u] = append(c.out[u], e)
		c.in[v] = append(c.in[v], dynEdge{other: u, weight: e.weight, middle: e.middle, dist: e.dist})
		return
	}
	old := c.out[u][at]
	rec := &c.records[old.middle&^varyBit]
	rec.candidates = append(rec.candidates, cand)
	if e.weight < old.weight {
		e.middle = old.middle
		c.out[u][at] = e
		c.setIn(v, u, old.middle, e)
	}
}

// setIn rewrites v's incoming copy of the edge u→v with the given middle
// to e's weight, middle and distance.
func (c *contractor) setIn(v, u, middle uint32, e dynEdge) {
	for j, in := range c.in[v] {
		if in.other == u && in.middle == middle {
			c.in[v][j] = dynEdge{other: u, weight: e.weight, middle: e.middle, dist: e.dist}
			return
		}
	}
}

// varies reports whether edge e from u may weigh more than its weight at
// some time, beyond what its head's own time adds (which every edge into
// the head shares): a turn between two marked nodes which a time may
// forbid or penalise (Input.Turn), or a shortcut whose path passes through a marked node
// or over such a turn. Witnesses never use one.
func (c *contractor) varies(u uint32, e dynEdge) bool { return c.variable(u, e.other, e.middle) }

// variable is varies for the edge tail→head with the given middle.
func (c *contractor) variable(tail, head, middle uint32) bool {
	if middle == NoMiddle {
		return c.turn != nil && c.isMarked(tail) && c.isMarked(head) && c.turn(tail, head)
	}
	return middle&varyBit != 0
}

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

// findShortcuts fills sim.shortcuts/sim.sources/sim.halves with the
// shortcuts contracting v needs and returns how many. It only reads the
// graph.
func (c *contractor) findShortcuts(sim *simulation, v uint32) int {
	sim.shortcuts, sim.sources, sim.halves = sim.shortcuts[:0], sim.sources[:0], sim.halves[:0]
	sim.cut = false
	for i, in := range c.in[v] {
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
		vary := c.isMarked(v) || c.varies(u, in)
		for j, out := range c.out[v] {
			w := out.other
			if w == u {
				continue
			}
			via := in.weight + out.weight
			if sim.witness.cost(w) <= via {
				continue
			}
			middle := v
			if vary || c.varies(v, out) {
				middle = varyBit // numbered when contract adds it
			}
			sim.shortcuts = append(sim.shortcuts, dynEdge{other: w, weight: via, middle: middle, dist: in.dist + out.dist})
			sim.sources = append(sim.sources, u)
			sim.halves = append(sim.halves, uint64(i)<<32|uint64(j))
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
	for _, list := range [][]dynEdge{up, dn} {
		for _, e := range list { // v is the lower end of its edges: their candidates are final
			if isVary(e.middle) {
				c.records[e.middle&^varyBit].order = int32(c.finalized)
				c.finalized++
			}
		}
	}
	for _, e := range up {
		c.in[e.other] = removeEdge(c.in[e.other], v)
		c.touch(v, e.other)
	}
	for _, e := range dn {
		c.out[e.other] = removeEdge(c.out[e.other], v)
		c.touch(v, e.other)
	}
	for i, s := range c.sim.shortcuts {
		if s.middle == varyBit {
			h := c.sim.halves[i]
			c.addVary(c.sim.sources[i], s, varyCandidate{middle: v, in: uint32(h >> 32), out: uint32(h), weight: s.weight, dist: s.dist})
			continue
		}
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

// pack lays the per-node edge lists out as the Hierarchy's flat arrays,
// with the variable shortcuts' table (see packVaries).
func pack(up, dn [][]dynEdge, varies []varyRecord) *Hierarchy {
	h := &Hierarchy{metrics: new(metrics), taints: new(taints), customs: new(customs)}
	h.UpFirst, h.Up = flatten(up)
	h.DnFirst, h.Dn = flatten(dn)
	h.VaryFirst, h.Vary = packVaries(h, varies)
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

// addOrNone adds two weights, NoWay when either is or the sum is not below.
func addOrNone(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < uint64(graph.NoWay) {
		return uint32(s)
	}
	return graph.NoWay
}

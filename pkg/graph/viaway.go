package graph

import (
	"cmp"
	"slices"
)

// Restrictions with via ways (OSM relations whose via member is one way or a
// chain of ways) forbid or impose a manoeuvre that spans several turns: from
// F along the via ways W1..Wn onto T. No set of banned turn pairs can say
// that, since each turn on the way is allowed on its own. As OSRM does, the
// via arcs are duplicated: a driver who turns from F onto W1 enters a copy
// d1 of W1's arc instead, d1 turns onto d2 (a copy of W2) and so on, and the
// last copy dn lacks the turn onto T (no_*) or has only that turn (only_*).
// Every other turn of a copy is its original's, so the copies remember
// where the driver came from and nothing else changes.
//
// Restrictions that share a from arc and a prefix of via arcs share copies
// (a trie keyed by the arc one comes from and the original arc one enters),
// or the turn F→W1 would need two targets.

// maxViaChains bounds the readings of one relation's members (a via way
// that F or T touch at more than one node), maxViaArcs the arcs of one and
// maxViaSteps the search for them (via ways that form a mesh of cycles).
const (
	maxViaChains = 8
	maxViaArcs   = 64
	maxViaSteps  = 10000
)

// viaChain is a via-way restriction resolved to arcs: from arrives at the
// first via arc's tail, the via arcs follow each other, and each of to
// leaves the last via arc's head.
type viaChain struct {
	from uint32
	via  []uint32
	to   []uint32
}

// viaTrie collects the duplicates of one profile's via-way restrictions.
// Duplicates are numbered from numArcs, the count of original arcs, in the
// order they are made until finish sorts them by original.
type viaTrie struct {
	numArcs uint32
	orig    []uint32             // per duplicate: its original arc
	next    map[[2]uint32]uint32 // (arc come from, original arc entered) → duplicate entered instead
	ends    []viaEnd             // what each restriction says at its last duplicate
}

// viaEnd is a restriction's rule at the last duplicate of its chain.
type viaEnd struct {
	last uint32   // duplicate of the last via arc
	to   []uint32 // original arcs
	rs   *Restriction
}

func newViaTrie(numArcs uint32) *viaTrie {
	return &viaTrie{numArcs: numArcs, next: map[[2]uint32]uint32{}}
}

// add records a resolved chain of restriction rs, reusing the duplicates
// of chains with the same from arc and via prefix.
func (t *viaTrie) add(c viaChain, rs *Restriction) {
	x := c.from
	for _, w := range c.via {
		d, ok := t.next[[2]uint32{x, w}]
		if !ok {
			d = t.numArcs + uint32(len(t.orig))
			t.orig = append(t.orig, w)
			t.next[[2]uint32{x, w}] = d
		}
		x = d
	}
	t.ends = append(t.ends, viaEnd{last: x, to: c.to, rs: rs})
}

// finish renumbers the duplicates in order of their originals, so that the
// duplicates of one arc are a contiguous range found by binary search
// (Graph.Duplicates), and returns the originals in that order.
func (t *viaTrie) finish() []uint32 {
	order := make([]uint32, len(t.orig))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(a, b uint32) int { return cmp.Compare(t.orig[a], t.orig[b]) })
	newID := make([]uint32, len(order))
	dup := make([]uint32, len(order))
	for rank, old := range order {
		newID[old] = t.numArcs + uint32(rank)
		dup[rank] = t.orig[old]
	}
	renum := func(a uint32) uint32 {
		if a < t.numArcs {
			return a
		}
		return newID[a-t.numArcs]
	}
	next := make(map[[2]uint32]uint32, len(t.next))
	for k, d := range t.next {
		next[[2]uint32{renum(k[0]), k[1]}] = renum(d)
	}
	t.next, t.orig = next, dup
	for i := range t.ends {
		t.ends[i].last = renum(t.ends[i].last)
	}
	return dup
}

// addRules writes into r the redirections into duplicates and each
// chain's rule at its last duplicate: banned or only turns, or for a
// conditional restriction the turns it forbids in some states. Rules name
// original to-arcs; buildTurns and expandCondTurns map them to the
// duplicates the turns actually enter.
func (t *viaTrie) addRules(r *turnRules, g *Graph) {
	for _, e := range t.ends {
		rs := e.rs
		switch {
		case len(rs.Schedules) > 0:
			w := t.orig[e.last-t.numArcs]
			r.cond = appendCondTurns(r.cond, g, g.ArcHead(w), []uint32{e.last}, e.to, *rs)
		case rs.Only:
			if r.only[e.last] == nil {
				r.only[e.last] = map[uint32]bool{}
			}
			for _, b := range e.to {
				r.only[e.last][b] = true
			}
		default:
			for _, b := range e.to {
				r.banned[[2]uint32{e.last, b}] = true
			}
		}
	}
	r.next = t.next
}

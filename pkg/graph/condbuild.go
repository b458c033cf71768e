package graph

import (
	"cmp"
	"slices"
)

// condArc is a direction of a segment whose time depends on its way's
// rules, before arcs are numbered.
type condArc struct {
	segRef    uint32
	schedules []uint32
	times     []uint32 // per state, NoWay where closed
}

// condTurn is a turn a conditional restriction forbids in some states
// (when), or that enters a way destination-only in some states (penalised,
// see destination.go).
type condTurn struct {
	from, to  uint32 // arcs
	schedules []uint32
	when      uint16
	penalised uint16
}

// conditionalTimes prices segment s of a conditional way for profile p in
// every state. The graph keeps each direction's fastest time (NoWay only if
// no state opens it); directions whose time varies become condArcs.
func conditionalTimes(in Input, net *Network, p int, s uint32, wc *WayCond) (fwd, bwd uint32, out []condArc) {
	states := len(wc.Speeds)
	per := [2][]uint32{make([]uint32, states), make([]uint32, states)}
	for st := range states {
		per[0][st], per[1][st] = segmentTimes(in, net, p, s, wc.Speeds[st][p])
	}
	best := [2]uint32{}
	for dir := range 2 {
		best[dir] = slices.Min(per[dir])
		if best[dir] == NoWay || slices.Max(per[dir]) == best[dir] {
			continue // never usable, or the same in every state
		}
		out = append(out, condArc{segRef: SegRef(s, dir == 1), schedules: wc.Schedules, times: per[dir]})
	}
	return best[0], best[1], out
}

// buildConditions numbers the conditional arcs and keeps the conditional
// turns that exist in the turn graph, as a Conditions. A duplicate of a
// conditional arc is conditional alike and shares its record; duplicates
// come after every original, so Arcs stays ascending.
func buildConditions(g *Graph, arcs []condArc, turns []condTurn) Conditions {
	var c Conditions
	slices.SortFunc(arcs, func(a, b condArc) int { return cmp.Compare(g.ArcOf[a.segRef], g.ArcOf[b.segRef]) })
	var dups []uint32 // pairs: duplicate, record offset
	for _, a := range arcs {
		arc := g.ArcOf[a.segRef]
		c.Arcs = append(c.Arcs, arc)
		c.ArcAt = append(c.ArcAt, uint32(len(c.Data)))
		begin, end := g.Duplicates(arc)
		for d := begin; d < end; d++ {
			dups = append(dups, d, uint32(len(c.Data)))
		}
		c.Data = appendRecord(c.Data, a.schedules, a.times...)
	}
	for i := 0; i < len(dups); i += 2 {
		c.Arcs = append(c.Arcs, dups[i])
		c.ArcAt = append(c.ArcAt, dups[i+1])
	}
	slices.SortStableFunc(turns, func(a, b condTurn) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	for _, t := range turns {
		if !g.hasTurn(t.from, t.to) {
			continue // forbidden anyway, or the arcs do not meet
		}
		c.Turns = append(c.Turns, t.from, t.to, uint32(len(c.Data)))
		c.Data = appendRecord(c.Data, t.schedules, uint32(t.when)|uint32(t.penalised)<<16)
	}
	return c
}

// expandCondTurns restates conditional turns, which name original to-arcs
// and an original or duplicate from-arc, as the turn graph's entries: a
// turn that enters a duplicate of the to-arc instead, and the turns of the
// from-arc's duplicates, which obey its restrictions too.
func expandCondTurns(g *Graph, turns []condTurn) []condTurn {
	if len(turns) == 0 {
		return nil
	}
	byFrom := map[uint32][]int{}
	for i, t := range turns {
		byFrom[t.from] = append(byFrom[t.from], i)
	}
	var out []condTurn
	for x := range g.NumArcs() {
		own, inherited := byFrom[x], []int(nil)
		if o := g.Original(x); o != x {
			inherited = byFrom[o]
		}
		if len(own) == 0 && len(inherited) == 0 {
			continue
		}
		begin, end := g.Turns.Out(x)
		for i := begin; i < end; i++ {
			y := g.Turns.Edges[3*i]
			for _, k := range append(own[:len(own):len(own)], inherited...) {
				if t := turns[k]; t.to == g.Original(y) {
					out = append(out, condTurn{from: x, to: y, schedules: t.schedules, when: t.when})
				}
			}
		}
	}
	return out
}

func appendRecord(data []uint32, schedules []uint32, payload ...uint32) []uint32 {
	data = append(data, uint32(len(schedules)))
	data = append(data, schedules...)
	return append(data, payload...)
}

func (g *Graph) hasTurn(a, b uint32) bool {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if g.Turns.Edges[3*i] == b {
			return true
		}
	}
	return false
}

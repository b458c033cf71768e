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

// condTurn is a turn a conditional restriction forbids in some states.
type condTurn struct {
	from, to  uint32 // arcs
	schedules []uint32
	when      uint16
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
// turns that exist in the turn graph, as a Conditions.
func buildConditions(g *Graph, arcs []condArc, turns []condTurn) Conditions {
	var c Conditions
	slices.SortFunc(arcs, func(a, b condArc) int { return cmp.Compare(g.ArcOf[a.segRef], g.ArcOf[b.segRef]) })
	for _, a := range arcs {
		c.Arcs = append(c.Arcs, g.ArcOf[a.segRef])
		c.ArcAt = append(c.ArcAt, uint32(len(c.Data)))
		c.Data = appendRecord(c.Data, a.schedules, a.times...)
	}
	slices.SortStableFunc(turns, func(a, b condTurn) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	for _, t := range turns {
		if !g.hasTurn(t.from, t.to) {
			continue // forbidden anyway, or the arcs do not meet
		}
		c.Turns = append(c.Turns, t.from, t.to, uint32(len(c.Data)))
		c.Data = appendRecord(c.Data, t.schedules, uint32(t.when))
	}
	return c
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

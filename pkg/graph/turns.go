package graph

// buildTurns makes the turn-expanded graph of one profile: a node per arc
// (a segment in one direction), an edge per allowed turn from an arc onto an
// arc leaving its head node. Each entry is three uint32: the arc turned
// onto, the turn's cost plus that arc's travel time (the search weight), and
// the turn's cost alone. Searching this graph rather than the road graph is
// how restrictions, U-turn rules (uturn.go) and turn costs are honoured exactly by
// every search (the approach OSRM calls edge-based). A duplicate arc gets
// its original's turns, minus what its own restrictions forbid, each
// entering the duplicate rules.target names (see viaway.go).
func buildTurns(g *Graph, blocked []bool, rules *turnRules, m TurnModel) CSR {
	numArcs := g.NumArcs()
	first := make([]uint32, numArcs+1)
	edges := make([]uint32, 0, 3*3*numArcs)
	deg := junctionDegrees(g)
	for a := range numArcs {
		first[a] = uint32(len(edges) / 3)
		v := g.ArcHead(a)
		edges = appendTurns(edges, g, v, a, blocked[v], rules, m, deg)
	}
	first[numArcs] = uint32(len(edges) / 3)
	return CSR{First: first, Edges: edges}
}

// appendTurns adds the allowed turns from arc a, which arrives at node v.
// The arcs leaving v, Fwd.Out(v), are originals only: duplicates are
// entered by redirected turns, never chosen at a node.
func appendTurns(edges []uint32, g *Graph, v, a uint32, blocked bool, rules *turnRules, m TurnModel, deg []uint8) []uint32 {
	o := g.Original(a)
	in := g.ArcSegRef(a)
	inSeg, _ := SplitSegRef(in)
	begin, end := g.Fwd.Out(v)
	others := 0 // ways on from v other than straight back
	for b := begin; b < end; b++ {
		if s, _ := g.ArcSegment(b); s != inSeg {
			others++
		}
	}
	for b := begin; b < end; b++ {
		out := g.ArcSegRef(b)
		outSeg, _ := SplitSegRef(out)
		uTurn := outSeg == inSeg
		switch {
		case !rules.allows(a, o, b):
			continue
		case blocked && !uTurn: // a barrier: the only way on is back
			continue
		case uTurn && !uTurnAllowed(g, m, deg, v, inSeg, others, blocked):
			continue
		}
		var cost uint32
		if uTurn {
			cost = uint32(m.UTurnS * 1000)
		} else {
			cost = m.cost(g.Net.TurnAngle(in, out))
		}
		edges = append(edges, rules.target(a, o, b), add32(cost, g.ArcTime(b)), cost)
	}
	return edges
}

// add32 sums two times, saturating below NoWay.
func add32(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < NoWay {
		return uint32(s)
	}
	return NoWay - 1
}

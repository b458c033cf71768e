package graph

// The U-turn rule, the same shape for every profile: a vehicle (or walker)
// turns back only where a driver could.
//
//   - Where nothing else is possible, always: a dead end (no way on other
//     than back) or a barrier (only turning back passes it).
//   - With TurnModel.NoUTurns (car, truck), nowhere else.
//   - Otherwise at a junction, a node where three or more of the profile's
//     roads meet (the mouth of a side road is where one turns round), unless
//     the road turned back on is a bridge or a tunnel. Never at a node where
//     only two roads meet (a way split in two, a tunnel meeting a bridge end
//     to end): turning back there is turning round in the road.
//
// Turn restrictions (no_u_turn) are applied before this rule, by the
// restriction tables. A waypoint is not a node: leaving it backwards is a
// choice of its source arcs, not a turn.

// junctionDegrees returns, per node, how many segments the profile may use
// (in either direction) touch it, saturating at 255. A loop counts once.
func junctionDegrees(g *Graph) []uint8 {
	net := g.Net
	deg := make([]uint8, net.NumNodes())
	bump := func(v uint32) {
		if deg[v] < 255 {
			deg[v]++
		}
	}
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) {
			continue
		}
		bump(net.SegFrom[s])
		if net.SegTo[s] != net.SegFrom[s] {
			bump(net.SegTo[s])
		}
	}
	return deg
}

// uTurnAllowed reports whether the profile may turn back at node v onto
// segment seg, arriving there with others ways on besides back (see
// appendTurns) and blocked true at a barrier.
func uTurnAllowed(g *Graph, m TurnModel, deg []uint8, v, seg uint32, others int, blocked bool) bool {
	switch {
	case blocked || others == 0:
		return true
	case m.NoUTurns:
		return false
	case deg[v] < 3:
		return false
	}
	return g.Net.SegFlags[seg]&(FlagBridge|FlagTunnel) == 0
}

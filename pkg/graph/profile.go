package graph

// NoArc marks a segment direction the profile may not use.
const NoArc = ^uint32(0)

// buildProfile derives profile p's travel times, arcs, turns and largest
// component from the shared network.
func buildProfile(in Input, net *Network, p int, topo *topology, stats *RestrictionStats) *Graph {
	n := net.NumSegments()
	g := &Graph{Net: net, Profile: in.Profiles[p], WF: make([]uint32, n), WB: make([]uint32, n), Big: make([]uint8, n)}
	var edges []rawEdge
	var conds []condArc
	for s := range n {
		if wc := in.Ways[topo.segWay[s]].Cond; wc != nil {
			var ca []condArc
			g.WF[s], g.WB[s], ca = conditionalTimes(in, net, p, uint32(s), wc)
			conds = append(conds, ca...)
		} else {
			g.WF[s], g.WB[s] = segmentTimes(in, net, p, uint32(s), in.Ways[topo.segWay[s]].Speeds[p])
		}
		from, to := net.SegFrom[s], net.SegTo[s]
		if g.WF[s] != NoWay {
			edges = append(edges, rawEdge{from, to, g.WF[s], SegRef(uint32(s), false)})
		}
		if g.WB[s] != NoWay {
			edges = append(edges, rawEdge{to, from, g.WB[s], SegRef(uint32(s), true)})
		}
	}
	g.Fwd = buildCSR(net.NumNodes(), edges, false)
	g.ArcOf = make([]uint32, 2*n)
	for i := range g.ArcOf {
		g.ArcOf[i] = NoArc
	}
	for a := range g.NumArcs() {
		g.ArcOf[g.ArcSegRef(a)] = a
	}
	blocked := make([]bool, net.NumNodes())
	for id, v := range topo.index {
		blocked[v] = in.Barrier(id)&(1<<p) != 0
	}
	rules, dup := resolveRestrictions(in, g, p, topo, stats)
	g.addDuplicates(dup)
	model := DefaultTurnModel()
	if p < len(in.Turns) {
		model = in.Turns[p]
	}
	g.Turns = buildTurns(g, blocked, &rules, model)
	if p < len(in.Vehicles) && in.Vehicles[p] != nil {
		g.Limits = buildLimits(in, g, topo, *in.Vehicles[p])
	}
	destTurns := applyDestinations(g, segmentDestinations(in, p, topo.segWay))
	g.Cond = buildConditions(g, conds, append(expandCondTurns(g, rules.cond), destTurns...))
	g.markConditions()
	g.indexEntries()
	comp := largestComponent(&g.Turns)
	for a, in := range comp {
		if in {
			s, _ := g.ArcSegment(uint32(a))
			g.Big[s] = 1
		}
	}
	return g
}

// segmentTimes prices segment s for profile p: by the input's SegmentTimes
// hook when there is one, else by length and flat speed. A direction the
// profile may not use stays NoWay whatever the hook says.
func segmentTimes(in Input, net *Network, p int, s uint32, kph [2]float32) (fwd, bwd uint32) {
	length := float64(net.SegLength[s])
	fwd, bwd = travelTime(length, kph[0]), travelTime(length, kph[1])
	if in.SegmentTimes == nil || (fwd == NoWay && bwd == NoWay) {
		return fwd, bwd
	}
	f, b := in.SegmentTimes(net, p, s, kph)
	if fwd != NoWay {
		fwd = min(f, NoWay-1)
	}
	if bwd != NoWay {
		bwd = min(b, NoWay-1)
	}
	return fwd, bwd
}

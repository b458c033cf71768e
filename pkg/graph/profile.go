package graph

// buildProfile derives profile p's travel times, adjacency and largest
// component from the shared network.
func buildProfile(in Input, net *Network, p int, nodeIDs []int64, segWay []uint32) *Graph {
	n := net.NumSegments()
	g := &Graph{Net: net, Profile: in.Profiles[p], WF: make([]uint32, n), WB: make([]uint32, n), Big: make([]uint8, n)}
	blocked := make([]bool, len(nodeIDs))
	for v, id := range nodeIDs {
		blocked[v] = in.Barrier(id)&(1<<p) != 0
	}
	var edges []rawEdge
	for s := range n {
		length := float64(net.SegLength[s])
		speed := in.Ways[segWay[s]].Speeds[p]
		g.WF[s] = travelTime(length, speed[0])
		g.WB[s] = travelTime(length, speed[1])
		from, to := net.SegFrom[s], net.SegTo[s]
		if g.WF[s] != NoWay && !blocked[from] {
			edges = append(edges, rawEdge{from, to, g.WF[s], SegRef(uint32(s), false)})
		}
		if g.WB[s] != NoWay && !blocked[to] {
			edges = append(edges, rawEdge{to, from, g.WB[s], SegRef(uint32(s), true)})
		}
	}
	g.Fwd = buildCSR(len(nodeIDs), edges, false)
	g.Bwd = buildCSR(len(nodeIDs), edges, true)
	comp := largestComponent(&g.Fwd)
	for s := range n {
		if g.Usable(uint32(s)) && comp[net.SegFrom[s]] && comp[net.SegTo[s]] {
			g.Big[s] = 1
		}
	}
	return g
}

package graph

import "sort"

// A junction has roads a profile may not leave it by: one-way roads that
// only enter it. Routing never needs them (no arc leaves the junction along
// them), but a driver sees them, and guidance reads a junction with every
// road at it, as OSRM's does: a road that only turns off where a one-way
// road comes in is still a choice to be told. indexEntries lists them once
// per graph, by node, in a sorted slice (a few per cent of the segments:
// the one-way ones), searched by Entries.

// indexEntries fills g.entries: for each segment the profile may travel
// one way only, its node at the end it travels towards, with the segment
// reference that leaves that node along it (the direction not allowed).
func (g *Graph) indexEntries() {
	var e []uint64
	for s := range g.WF {
		from, to := g.Net.SegFrom[s], g.Net.SegTo[s]
		switch {
		case from == to:
		case g.WF[s] != NoWay && g.WB[s] == NoWay:
			e = append(e, uint64(to)<<32|uint64(s)<<1|1)
		case g.WF[s] == NoWay && g.WB[s] != NoWay:
			e = append(e, uint64(from)<<32|uint64(s)<<1)
		}
	}
	sort.Slice(e, func(i, j int) bool { return e[i] < e[j] })
	g.entries = e
}

// Entries returns the segment references leaving node v along the roads
// that only enter it (the way back along each, which the profile may not
// take), appended to buf.
func (g *Graph) Entries(v uint32, buf []uint32) []uint32 {
	i := sort.Search(len(g.entries), func(i int) bool { return g.entries[i]>>32 >= uint64(v) })
	for ; i < len(g.entries) && uint32(g.entries[i]>>32) == v; i++ {
		buf = append(buf, uint32(g.entries[i]))
	}
	return buf
}

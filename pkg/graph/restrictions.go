package graph

import "slices"

// turnRules holds one profile's turn restrictions, resolved to arcs.
type turnRules struct {
	banned map[[2]uint32]bool         // (from arc, to arc) turns a no_* forbids
	only   map[uint32]map[uint32]bool // from arc → the only arcs it may turn onto
	cond   []condTurn                 // turns forbidden only at some times
}

// RestrictionStats counts what happened to the extract's restrictions.
type RestrictionStats struct {
	Applied     int // resolved to at least one turn of some profile
	Unsupported int // via ways: not modelled yet
	Unresolved  int // members missing from the graph or not meeting at the via node
}

// resolveRestrictions maps profile p's restrictions onto its arcs. A
// restriction's from and to ways must each have a segment touching the via
// node; the arcs are the ones arriving at (from) and leaving (to) it.
func resolveRestrictions(in Input, g *Graph, p int, topo *topology, stats *RestrictionStats) turnRules {
	r := turnRules{banned: map[[2]uint32]bool{}, only: map[uint32]map[uint32]bool{}}
	for _, rs := range in.Restrictions {
		if rs.Profiles&(1<<p) == 0 {
			continue
		}
		if rs.ViaWays || len(rs.Via) != 1 {
			if p == firstProfile(rs.Profiles) {
				stats.Unsupported++
			}
			continue
		}
		v, ok := topo.index[rs.Via[0]]
		from := topo.arcsAt(g, v, rs.From, true)
		to := topo.arcsAt(g, v, rs.To, false)
		if !ok || len(from) == 0 || len(to) == 0 {
			if p == firstProfile(rs.Profiles) {
				stats.Unresolved++
			}
			continue
		}
		if p == firstProfile(rs.Profiles) {
			stats.Applied++
		}
		if len(rs.Schedules) > 0 {
			r.cond = appendCondTurns(r.cond, g, v, from, to, rs)
			continue
		}
		for _, a := range from {
			if rs.Only {
				if r.only[a] == nil {
					r.only[a] = map[uint32]bool{}
				}
				for _, b := range to {
					r.only[a][b] = true
				}
				continue
			}
			for _, b := range to {
				r.banned[[2]uint32{a, b}] = true
			}
		}
	}
	return r
}

// appendCondTurns adds the turns a conditional restriction forbids in its
// states: from→to for no_*, from→every other arc leaving v for only_*.
func appendCondTurns(out []condTurn, g *Graph, v uint32, from, to []uint32, rs Restriction) []condTurn {
	for _, a := range from {
		if !rs.Only {
			for _, b := range to {
				out = append(out, condTurn{a, b, rs.Schedules, rs.When})
			}
			continue
		}
		begin, end := g.Fwd.Out(v)
		for b := begin; b < end; b++ {
			if !slices.Contains(to, b) {
				out = append(out, condTurn{a, b, rs.Schedules, rs.When})
			}
		}
	}
	return out
}

// allows reports whether the turn a→b survives the restrictions.
func (r *turnRules) allows(a, b uint32) bool {
	if r.banned[[2]uint32{a, b}] {
		return false
	}
	if only, ok := r.only[a]; ok {
		return only[b]
	}
	return true
}

func firstProfile(mask uint32) int {
	for p := 0; p < 32; p++ {
		if mask&(1<<p) != 0 {
			return p
		}
	}
	return -1
}

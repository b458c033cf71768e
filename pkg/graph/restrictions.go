package graph

import "slices"

// turnRules holds one profile's turn restrictions, resolved to arcs.
type turnRules struct {
	banned map[[2]uint32]bool         // (from arc, to arc) turns a no_* forbids
	only   map[uint32]map[uint32]bool // from arc → the only arcs it may turn onto
	cond   []condTurn                 // turns forbidden only at some times
	// next redirects turns into duplicates (see viaway.go): the turn from
	// arc x onto original arc b enters next[x, b] instead, when present.
	next map[[2]uint32]uint32
}

// RestrictionStats counts what happened to the extract's restrictions, each
// as it resolved for the first profile it binds (a via way that car may not
// use but bicycle may counts as unresolved, though bicycle obeys it).
type RestrictionStats struct {
	Applied     int // resolved to at least one turn, via node or via ways
	ViaWays     int // of Applied, those with via ways (modelled by duplicate arcs)
	Unsupported int // several via nodes: not a valid restriction, not modelled
	Unresolved  int // members missing from the graph or not meeting at the via node or ways
}

// resolveRestrictions maps profile p's restrictions onto its arcs. A
// via-node restriction's from and to ways must each have a segment touching
// the via node; the arcs are the ones arriving at (from) and leaving (to)
// it. Via-way restrictions become chains of duplicate arcs (viaway.go),
// whose originals are returned in the order Graph.Dup stores them.
func resolveRestrictions(in Input, g *Graph, p int, topo *topology, stats *RestrictionStats) (turnRules, []uint32) {
	r := turnRules{banned: map[[2]uint32]bool{}, only: map[uint32]map[uint32]bool{}}
	trie := newViaTrie(g.NumArcs())
	for i := range in.Restrictions {
		rs := &in.Restrictions[i]
		if rs.Profiles&(1<<p) == 0 {
			continue
		}
		count := p == firstProfile(rs.Profiles)
		switch {
		case rs.ViaWays:
			chains := topo.viaChains(g, rs)
			for _, c := range chains {
				trie.add(c, rs)
			}
			stats.count(count, len(chains) > 0, true)
		case len(rs.Via) != 1:
			if count {
				stats.Unsupported++
			}
		default:
			stats.count(count, r.addViaNode(g, topo, rs), false)
		}
	}
	dup := trie.finish()
	trie.addRules(&r, g)
	return r, dup
}

// count tallies one restriction, once for all the profiles it binds.
func (s *RestrictionStats) count(first, applied, viaWays bool) {
	switch {
	case !first:
	case !applied:
		s.Unresolved++
	case viaWays:
		s.Applied++
		s.ViaWays++
	default:
		s.Applied++
	}
}

// addViaNode adds a via-node restriction's turns; it returns false when the
// members do not meet at the via node in g.
func (r *turnRules) addViaNode(g *Graph, topo *topology, rs *Restriction) bool {
	v, ok := topo.index[rs.Via[0]]
	if !ok {
		return false
	}
	from := topo.arcsAt(g, v, rs.From, true)
	to := topo.arcsAt(g, v, rs.To, false)
	if len(from) == 0 || len(to) == 0 {
		return false
	}
	if len(rs.Schedules) > 0 {
		r.cond = appendCondTurns(r.cond, g, v, from, to, *rs)
		return true
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
	return true
}

// appendCondTurns adds the turns a conditional restriction forbids in its
// states: from→to for no_*, from→every other arc leaving v for only_*.
func appendCondTurns(out []condTurn, g *Graph, v uint32, from, to []uint32, rs Restriction) []condTurn {
	for _, a := range from {
		if !rs.Only {
			for _, b := range to {
				out = append(out, condTurn{from: a, to: b, schedules: rs.Schedules, when: rs.When})
			}
			continue
		}
		begin, end := g.Fwd.Out(v)
		for b := begin; b < end; b++ {
			if !slices.Contains(to, b) {
				out = append(out, condTurn{from: a, to: b, schedules: rs.Schedules, when: rs.When})
			}
		}
	}
	return out
}

// allows reports whether the turn from arc a (an original or a duplicate
// with original o) onto original arc b survives the restrictions: a
// duplicate obeys its original's restrictions and its own.
func (r *turnRules) allows(a, o, b uint32) bool {
	return r.allows1(o, b) && (a == o || r.allows1(a, b))
}

// target is the arc the turn from a (original o) onto original b enters:
// a duplicate of b when a chain of a's continues on b, else when one of o's
// does (a vehicle on a duplicate is still on o's road, so restrictions
// starting from o bind it too; when both continue on b, a's chain wins and
// o's restriction is lost on that path, a documented limit), else b.
func (r *turnRules) target(a, o, b uint32) uint32 {
	if d, ok := r.next[[2]uint32{a, b}]; ok {
		return d
	}
	if d, ok := r.next[[2]uint32{o, b}]; ok && a != o {
		return d
	}
	return b
}

func (r *turnRules) allows1(a, b uint32) bool {
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

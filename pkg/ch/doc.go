// Package ch builds and queries a contraction hierarchy (Geisberger,
// Sanders, Schultes and Delling 2008) over a profile's turn-expanded graph.
//
// Contraction removes nodes one by one in order of importance, adding a
// shortcut u→w for every path u→v→w through the removed node v that no
// other path (a witness) matches. A query then searches only upward in
// that order from both ends, touching a few hundred nodes even on a
// country. Because the contracted graph is the turn-expanded one (nodes are
// arcs), turn restrictions and costs need no special case in the query.
//
// # Layout (per profile, in the graph artifact)
//
//	<profile>.ch_up_first   uint32, nodes+1
//	<profile>.ch_up         uint32 ×4 per edge: head, weight (ms), middle, distance (cm)
//	<profile>.ch_dn_first   uint32, nodes+1
//	<profile>.ch_dn         uint32 ×4 per edge: tail, weight, middle, distance
//	<profile>.ch_vary_first, <profile>.ch_vary: variable shortcuts (vary.go)
//
// Up[u] lists edges u→v to more important nodes; Dn[u] lists edges v→u from
// more important nodes. middle is the contracted node a shortcut bypasses,
// or NoMiddle for an edge of the original graph (a variable shortcut's
// names it through the vary table, see vary.go). Distance is carried so
// that a matrix cell's length needs no path unpacking.
//
// Besides point-to-point queries (query.go) and tables (manytomany.go), a
// Query finds candidate via nodes for alternative routes (via.go): exact
// costs from the sources and to the targets over the part of the hierarchy
// above a route (cone.go, a restricted PHAST).
//
// A Hierarchy views the mapping and is safe for concurrent use; a Query
// holds the labels of the nodes its searches touch (in space proportional
// to them, see search.Labels) and belongs to one goroutine at a time.
package ch

// NoMiddle marks an original (not shortcut) edge.
const NoMiddle = ^uint32(0)

// Hierarchy is a contracted graph.
type Hierarchy struct {
	UpFirst, Up []uint32
	DnFirst, Dn []uint32
	// VaryFirst and Vary are the variable shortcuts' table (vary.go),
	// empty when the graph has no conditions.
	VaryFirst, Vary []uint32
	metrics         *metrics // the latest states' weights of Vary (vary.go)
	taints          *taints  // the latest road-operations overlays' taints (taint.go)
	customs         *customs // the hierarchy contracted again under overlays (customize.go)
}

// NumNodes returns the number of nodes.
func (h *Hierarchy) NumNodes() int { return len(h.UpFirst) - 1 }

// edge is one decoded entry of Up or Dn.
type edge struct {
	other, weight, middle, dist uint32
}

func at(list []uint32, i uint32) edge {
	e := list[4*i : 4*i+4 : 4*i+4]
	return edge{e[0], e[1], e[2], e[3]}
}

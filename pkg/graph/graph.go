// Package graph is the routable road network as plain arrays: a Network of
// nodes, segments and their geometry shared by every profile, and one Graph
// per profile holding that profile's travel times and its adjacency in
// compressed sparse row (CSR) form, forward and backward.
//
// # Model
//
// A node is a place where the road network branches, ends or is blocked (an
// OSM node shared by two ways, a way's end, a barrier). A segment is the piece
// of one OSM way between two nodes, with its full shape. A profile's edge is
// a segment travelled in one direction, so a two-way street gives two edges
// and a one-way street one.
//
// Ids and units, stated once:
//   - node and segment ids are uint32 indexes; nodes are numbered along a
//     Hilbert curve so that nearby nodes sit near each other in memory;
//   - coordinates are int32 fixed point at 1e-7 degrees, stored as
//     interleaved (lon, lat) pairs;
//   - lengths are float32 metres; travel times are uint32 milliseconds,
//     and NoWay (math.MaxUint32) marks a direction the profile may not use;
//   - an edge's segment reference is segment<<1 | reversed.
//
// # Turns
//
// Searches run on each profile's turn-expanded graph: its nodes are arcs (a
// segment in one direction) and its edges the allowed turns between them.
// Turn restrictions, barriers (which allow only turning back) and turn costs
// live there, so every search honours them alike.
//
// A restriction via a node bans turns (or, for only_*, all other turns) from
// its from arcs. A restriction via ways (from F along W1..Wn onto T) bans no
// single turn, so the via arcs are duplicated, as OSRM does (viaway.go): the
// turn F→W1 enters a copy of W1 whose turn onto W2 enters a copy of W2, and
// so on; the last copy lacks the turn onto T (no_*) or keeps only it
// (only_*). Copies keep every other turn, cost and restriction of their
// originals, and restrictions sharing a from arc and via prefix share
// copies. Duplicate arcs are extra Fwd entries after the originals, outside
// every node's range, with their originals' head, time and segment (dup.go):
// Fwd.Out lists originals only, ArcOf names originals only (points snap
// onto originals), and a search ending on a segment accepts its duplicates
// as targets (Duplicates). Conditional via-way restrictions become
// conditional turns of the last copy, and copies of conditional arcs are
// conditional alike. Limit: a vehicle on a copy is bound by the via-way
// restrictions that start from the copy's original, except where both
// would continue onto the same arc, when the copy's own chain wins.
//
// # Lifetimes
//
// A Network or Graph loaded by Load views an artifact.File's mapping: it is
// valid until that file is closed. Both are read-only and safe for
// concurrent use.
package graph

import (
	"math"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/timecond"
)

// NoWay is the travel time of a direction a profile may not use.
const NoWay = math.MaxUint32

// Segment flags.
const (
	FlagBridge uint8 = 1 << iota
	FlagTunnel
	FlagRoundabout
	FlagLink // motorway_link, trunk_link, ...: a ramp
	FlagToll
	FlagFerry
	// FlagUnpaved marks a surface=* of loose or natural ground (unpaved,
	// gravel, dirt, ground, grass, sand, compacted, ...), or a track of
	// tracktype grade2 to grade5 with no surface tag. A release compiled
	// before 2026-11-28 has none set.
	FlagUnpaved
)

// Network is what every profile shares.
type Network struct {
	NodeCoord []int32   // 2 per node: lon, lat
	SegFrom   []uint32  // per segment: first node
	SegTo     []uint32  // per segment: last node
	SegGeom   []uint32  // per segment + 1: offset of its first point in GeomCoord (in points)
	GeomCoord []int32   // 2 per point: lon, lat; a segment's points include both end nodes
	SegLength []float32 // per segment: metres along the shape
	SegName   []uint32  // per segment: string id of the name, 0 for none
	SegRef    []uint32  // per segment: string id of the ref, 0 for none
	SegClass  []uint8   // per segment: index into Classes
	SegFlags  []uint8   // per segment: Flag* bits
	Strings   Strings
	Classes   []string // road classes (OSM highway values), index 0 is ""
	// SegWay is per segment the id of the OSM way it is a piece of, drawn
	// in the way's direction: guidance tells a road that goes on from one
	// that only meets it (SameWay), and road operations name ways by it
	// (package roadops/resolve). Nil in a file written before it was kept
	// (SameWay then answers from names; operations by way id do not
	// resolve).
	SegWay []int64
	// SegSign is per segment the string id of its way's signposts (see
	// Signpost), 0 for none. Nil in a file written before they were kept.
	SegSign []uint32
	// SegHiking is per segment its way's OSM sac_scale as a grade, 1 to 6
	// for T1 (hiking) to T6 (difficult_alpine_hiking), 0 when untagged or
	// unknown: a request's max_hiking_difficulty closes the harder ones
	// (route.Avoid). Nil in a file written before it was kept.
	SegHiking []uint8
	// Schedules are the time conditions profiles' Conditions refer to, and
	// Zone the country's time zone they are read in.
	Schedules []timecond.Schedule
	Zone      *time.Location
}

// Graph is one profile's view of the network.
type Graph struct {
	Net     *Network
	Profile string
	// Forward and Backward travel times per segment, NoWay where forbidden.
	WF, WB []uint32
	// Big is 1 for a segment with an arc in the largest strongly connected
	// component of the turn graph: snapping prefers those, so a point does
	// not land on an island (a car park mapped on its own) it cannot leave.
	Big []uint8
	// Fwd holds the arcs, the directions of segments the profile may
	// travel, by tail node: arc i is Fwd entry i. Entries beyond the last
	// node's range are duplicate arcs (see dup.go), which Out never lists.
	Fwd CSR
	// Dup names each duplicate arc's original, ascending: arc
	// Fwd.First[nodes]+i duplicates Dup[i].
	Dup []uint32
	// ArcOf maps a segment reference to its arc, NoArc where forbidden.
	ArcOf []uint32
	// Turns is the turn-expanded graph (see buildTurns): entry (b, w, t)
	// of arc a is an allowed turn onto arc b, with w = t + b's travel time
	// and t the turn's own cost, all in milliseconds.
	Turns CSR
	// Limits holds the limit records of a profile with a vehicle (see
	// limits.go): nil for other profiles and older files.
	Limits []uint32
	// Cond holds the arcs and turns that depend on the time of day.
	Cond      Conditions
	condMark  []uint64                     // Marked's bit set, derived from Cond
	condRank  []uint32                     // marked arcs before each word of condMark
	lastState *atomic.Pointer[minuteState] // StateAt's cache, when Cond is not empty
	entries   []uint64                     // one-way roads into each node (entries.go), node<<32 | segment reference
}

// CSR is an adjacency in compressed sparse row form: the edges of node v are
// Edges[3*First[v] : 3*First[v+1]], each three uint32: head, time in ms,
// segment reference.
type CSR struct {
	First []uint32
	Edges []uint32
}

// Edge is one decoded CSR entry.
type Edge struct {
	Head   uint32
	Weight uint32
	SegRef uint32
}

// Out returns the range of node v's edges, for use with At.
func (c *CSR) Out(v uint32) (begin, end uint32) { return c.First[v], c.First[v+1] }

// At decodes edge i.
func (c *CSR) At(i uint32) Edge {
	e := c.Edges[3*i : 3*i+3 : 3*i+3]
	return Edge{Head: e[0], Weight: e[1], SegRef: e[2]}
}

// NumNodes returns the number of nodes.
func (n *Network) NumNodes() int { return len(n.NodeCoord) / 2 }

// NumSegments returns the number of segments.
func (n *Network) NumSegments() int { return len(n.SegFrom) }

// Node returns node v's position in degrees.
func (n *Network) Node(v uint32) (lon, lat float64) {
	return geo.Degrees(n.NodeCoord[2*v]), geo.Degrees(n.NodeCoord[2*v+1])
}

// Points returns the range of segment s's points, for use with Point.
func (n *Network) Points(s uint32) (begin, end uint32) { return n.SegGeom[s], n.SegGeom[s+1] }

// Point returns shape point i in degrees.
func (n *Network) Point(i uint32) (lon, lat float64) {
	return geo.Degrees(n.GeomCoord[2*i]), geo.Degrees(n.GeomCoord[2*i+1])
}

// Name returns segment s's road name, or "".
func (n *Network) Name(s uint32) string { return n.Strings.At(n.SegName[s]) }

// Ref returns segment s's road reference (e.g. "CG-2"), or "".
func (n *Network) Ref(s uint32) string { return n.Strings.At(n.SegRef[s]) }

// Class returns segment s's road class (the OSM highway value).
func (n *Network) Class(s uint32) string { return n.Classes[n.SegClass[s]] }

// HasWays reports whether the network knows which segments share a way.
func (n *Network) HasWays() bool { return n.SegWay != nil }

// SameWay reports whether segments a and b are pieces of one OSM way;
// false when the network does not know (HasWays).
func (n *Network) SameWay(a, b uint32) bool { return n.SegWay != nil && n.SegWay[a] == n.SegWay[b] }

// Signpost returns what segment s's way's signs say, the zero Signpost
// when nothing is mapped.
func (n *Network) Signpost(s uint32) Signpost {
	if n.SegSign == nil {
		return Signpost{}
	}
	return parseSignpost(n.Strings.At(n.SegSign[s]))
}

// SegRef packs a segment and a direction.
func SegRef(s uint32, reversed bool) uint32 {
	if reversed {
		return s<<1 | 1
	}
	return s << 1
}

// SplitSegRef unpacks a segment reference.
func SplitSegRef(r uint32) (s uint32, reversed bool) { return r >> 1, r&1 == 1 }

// Usable reports whether the profile may travel segment s in some direction.
func (g *Graph) Usable(s uint32) bool { return g.WF[s] != NoWay || g.WB[s] != NoWay }

// Turn decodes entry i of the turn graph: the arc turned onto, the search
// weight (turn cost plus that arc's time) and the turn's own cost, in ms.
func (g *Graph) Turn(i uint32) (to, weight, cost uint32) {
	e := g.Turns.Edges[3*i : 3*i+3 : 3*i+3]
	return e[0], e[1], e[2]
}

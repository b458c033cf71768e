// Package guidance turns a leg's arcs into turn-by-turn steps: depart,
// turns (slight, normal, sharp), continue, keep left/right at forks, ramps,
// merges, roundabouts with their exit number, U-turns, and arrive with the
// side of the street.
//
// A step covers the arcs from one maneuver to the next. Each junction is
// read as OSRM's guidance reads it (junction.go), so that our steps speak
// where OSRM v6's do: on the angles a driver perceives some metres along
// each road (graph.Graph.PerceivedTurnAngle), the obvious way on
// (obvious.go) says nothing where it keeps the road (by OSRM's name rule,
// announce.go) and its new name where it takes another ("Continue onto",
// OSRM's "new name"; not when the name lasts under 105 m, and said at
// once by a maneuver just before it); a road going on past driveways,
// tracks and paths is the obvious way however it bends; where no way is
// obvious, a fork of ways alike says its side (fork.go), a T where the
// road ends its turn, and every other way its direction, even on the same
// road ("Continue straight on"). A node with no other way on never starts
// a step, but for a turn of 90 degrees or more from one way onto another
// and a new name. Then steps that say nothing new are
// folded (collapse.go): one that stays on its predecessor's road (the same
// name, or the same reference where a name is missing, as a driver reads
// the signs) going straight on or bearing slightly where nothing else
// could be taken, a few metres of
// junction between two maneuvers, a connector stub, a depart of no length.
// Every arc's time and length go to exactly one step, so a leg's steps add
// up to the leg. Roundabout exits count what a driver counts
// (roundabout.go). Each step says where its maneuver is, the bearings
// around it and its way's signposts; route fills in its range in the
// route's geometry.
//
// All English wording lives in english.go (describe, one case per
// maneuver, written once the steps are final), and each other language in
// its own file (catalan.go, spanish.go, french.go; language.go lists them
// and picks one by a BCP 47 tag). Road names and references are never
// translated. A turn or fork that keeps to the road reads "to stay on";
// mappers' placeholders ("FIXME") are never read out (road.go).
// testdata/itineraries holds golden itineraries across Andorra, in every
// language, read by eye, so that any change in wording is a visible diff.
// Everything here is pure and safe for concurrent use.
package guidance

import "github.com/mapsco/maps/pkg/graph"

// Maneuver kinds, also the "type" a client could switch on.
const (
	Depart     = "depart"
	Turn       = "turn"
	Continue   = "continue"
	Fork       = "fork"
	Ramp       = "on_ramp"
	OffRamp    = "off_ramp"
	Merge      = "merge"
	Roundabout = "roundabout"
	UTurn      = "u_turn"
	Arrive     = "arrive"
)

// Step is one instruction.
type Step struct {
	Maneuver    string
	Modifier    string // left, right, slight left, sharp right, straight, ...
	Instruction string
	DistanceM   float64
	DurationS   float64
	RoadName    string // the road the step follows, "" when unnamed
	RoadRef     string
	RoadClass   string
	Exit        int // roundabout exit number; 0 when the leg ends on it
	Waypoint    int // for an arrive at a stop on the way, the stop's index among the request's points; else 0
	// Location is where the maneuver happens, [lon, lat]: the junction
	// node, or the waypoint for depart and arrive.
	Location [2]float64
	// BearingBefore and BearingAfter are the headings, in whole degrees
	// clockwise from north (0 to 359), arriving at Location and leaving it
	// (0 before a depart and after an arrive).
	BearingBefore, BearingAfter int
	// Turned is the change of direction a driver perceives at the
	// maneuver, in degrees, positive to the left: the angle guidance
	// decides on, read some metres along both roads
	// (graph.Graph.PerceivedTurnAngle), where the bearings are those of
	// the first piece of shape either side; 0 for a depart and an arrive.
	// Go callers only: not in the API.
	Turned float64
	// Signpost is what the signs of the way the step takes say, where OSM
	// maps them (destination, destination:ref, junction:ref).
	Signpost graph.Signpost
	// GeometryBegin and GeometryEnd are the indexes, in the route's
	// geometry, of the points where the step starts and ends (both equal
	// for an arrive). Steps leaves them 0: the route, which draws the
	// geometry, fills them in (route.Router.Directions).
	GeometryBegin, GeometryEnd int

	heading float64 // a depart step's heading leaving the start
	renamed bool    // a continue onto a new name where nothing else could be taken
	keep    bool    // a decision said even on the same road (another way could be taken for ours)
	side    string  // for a ramp, the side it leaves on, which the instruction says (Modifier is its direction)
	in, out uint32  // segment references of the maneuver: the one turned from and the step's first
	arrived uint32  // the segment reference arrived on at the maneuver's node (in, before a tiny step was dropped)
}

func (s *Step) road() road { return road{name: s.RoadName, ref: s.RoadRef, class: s.RoadClass} }

// sideWord is the side an instruction names: a ramp's side, else the
// modifier's.
func (s *Step) sideWord() string {
	if s.side != "" {
		return s.side
	}
	return s.Modifier
}

func (s *Step) setRoad(r road) { s.RoadName, s.RoadRef, s.RoadClass = r.name, r.ref, r.class }

// Piece is one arc of a leg with the share of the leg's time and length
// spent on it (for the first and last arcs, only the part between the
// waypoint and the node; for the others, the turn onto the arc included).
type Piece struct {
	Arc       uint32
	DistanceM float64
	DurationS float64
}

// Package guidance turns a leg's arcs into turn-by-turn steps: depart,
// turns (slight, normal, sharp), continue, keep left/right at forks, ramps,
// merges, roundabouts with their exit number, U-turns, and arrive with the
// side of the street.
//
// A step covers the arcs from one maneuver to the next. Nodes where nothing
// could be decided (no other way on) never start a step, and neither does a
// road that keeps its name through a gentle bend, so a street that changes
// name mid-straight or a kink in the shape is not a step. Every arc's time
// and length go to exactly one step, so a leg's steps add up to the leg.
//
// All English wording lives in english.go (one function per maneuver), so
// another language is another such file. Everything here is pure and safe
// for concurrent use.
package guidance

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
	Exit        int // roundabout exit number
}

// Piece is one arc of a leg with the share of the leg's time and length
// spent on it (for the first and last arcs, only the part between the
// waypoint and the node; for the others, the turn onto the arc included).
type Piece struct {
	Arc       uint32
	DistanceM float64
	DurationS float64
}

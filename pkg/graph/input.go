package graph

import (
	"time"

	"github.com/mapsco/maps/pkg/timecond"
)

// Input is what the compiler extracts from OSM for Build: the ways each
// profile may use, already evaluated, and the positions and barriers of their
// nodes. Build does not read OSM or profiles itself.
type Input struct {
	Profiles []string // profile names, in the order used by Way.Speeds and Barriers
	Ways     []Way
	// Coord returns an OSM node's position in fixed point; ok is false for a
	// node missing from the extract, where Build cuts the way.
	Coord func(osmID int64) (lon, lat int32, ok bool)
	// Barrier returns a bit mask of the profiles (1<<index) an OSM node
	// blocks; 0 for most nodes.
	Barrier func(osmID int64) uint32
	// NodeLimits returns the limits posted on a barrier node (limits.go);
	// nil means none has any.
	NodeLimits func(osmID int64) Limits
	// Vehicles holds, per profile in Profiles order, the vehicle a
	// profile with one was compiled for (its ways and barriers already
	// refuse it where it does not fit): such a profile keeps the limits of
	// its arcs. A nil or missing entry: no vehicle, no limits kept.
	Vehicles []*Vehicle
	// Restrictions are the turn restrictions of the extract.
	Restrictions []Restriction
	// Turns holds each profile's turn cost model, in Profiles order; a
	// missing entry means DefaultTurnModel.
	Turns []TurnModel
	// SegmentTimes, when not nil, prices segments instead of the flat rule
	// length / speed (terrain makes the same segment slower uphill than
	// downhill). Build calls it once per usable segment and profile, from one
	// goroutine, profiles in Profiles order, all with the same net. kph holds
	// profile p's flat speeds along and against the segment's point order;
	// where one is 0 the answer for that direction is ignored (NoWay).
	SegmentTimes func(net *Network, p int, s uint32, kph [2]float32) (fwdMs, bwdMs uint32)
	// Schedules are the time conditions that conditional ways and
	// restrictions refer to by index, read in Zone (nil means UTC).
	Schedules []timecond.Schedule
	Zone      *time.Location
}

// Restriction is an OSM turn restriction relation, with its members.
type Restriction struct {
	Relation int64   // OSM relation id, for reports
	From     []int64 // OSM way ids (several for no_entry)
	Via      []int64 // one OSM node id, or OSM way ids when ViaWays, in the order travelled
	ViaWays  bool
	To       []int64 // OSM way ids (several for no_exit)
	Only     bool    // only_*: the turn to To is the only one allowed from From
	Profiles uint32  // bit mask of the profiles it binds
	// A conditional restriction is in force only in some states of its
	// rules (see Conditions): Schedules holds the rules' schedule ids and
	// When the states, bit s for state s. Empty Schedules: always in force.
	Schedules []uint32
	When      uint16
}

// Way is one OSM way usable by at least one profile.
type Way struct {
	ID    int64 // OSM way id
	Nodes []int64
	Name  string
	Ref   string
	Class string // OSM highway value, or "ferry"
	Flags uint8  // Flag* bits
	// Limits are the way's posted limits (height, weight, hazmat...).
	Limits Limits
	// Hiking is the way's sac_scale grade, 1 (T1) to 6 (T6), 0 for none
	// (Network.SegHiking).
	Hiking uint8
	// Signpost is what the way's signs say, for guidance: its OSM
	// destination, destination:ref and junction:ref (see Signpost).
	Signpost Signpost
	// Speeds holds, per profile, the speed in km/h along and against the
	// node order; 0 means that direction is forbidden.
	Speeds [][2]float32
	// Destination is the bit mask of the profiles (1<<index) for which the
	// way is destination-only: entered only to reach a place on it or
	// beyond it (destination.go).
	Destination uint32
	// Cond, when not nil, makes the speeds depend on the time.
	Cond *WayCond
}

// WayCond is how a way's speeds change with time: Speeds[state][profile],
// where bit i of the state is rule i, in force while schedule Schedules[i]
// is. Way.Speeds (and Way.Destination, when Destination is set) is ignored
// for a way with a WayCond.
type WayCond struct {
	Schedules []uint32
	Speeds    [][][2]float32
	// Destination[state] is Way.Destination in that state; nil means
	// Way.Destination in every state.
	Destination []uint32
}

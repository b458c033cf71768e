// Package snap places a coordinate on the road network: it finds the point
// of a road a profile may use that is nearest to it, through a packed R-tree
// over every piece (two consecutive shape points) of every segment.
//
// # The rule
//
// A point is placed when it lies inside the release's coverage: the bounding
// box of every road, grown by CoverageMargin (5 km) on each side. Outside it
// (another country, far out to sea) Nearest answers ErrOutside. Inside it the
// point snaps to the nearest road the profile may use, at any distance up
// to the radius (DefaultRadius, 35 km, Valhalla's search_cutoff; OSRM has
// none), honouring the conditions in force and a bearing when given.
//
// Roads of the profile's main component (graph.Graph.Big: the largest
// strongly connected part of its turn graph) are preferred, so that a point
// beside a car park mapped on its own still gets a road it can leave, but
// never at the price of a much worse snap: the nearest main road wins when
// it is at most MainSlack (50 m) or MainSlackRatio (half) of the nearest
// road's distance farther than the nearest road, whichever allows more.
// Otherwise the nearest road wins and the nearest main road is kept as
// Snapped.Fallback, which package route falls back to when no path leaves or
// reaches the nearest road (OSRM keeps such a pair of candidates too, and
// Valhalla its minimum_reachability of 50 nodes).
//
// # The index
//
// mapc builds it (Build) and stores it in the graph artifact; mapd reads it
// in place:
//
//	snap.levels      uint32, levels+1: node ids of each level's first node,
//	                 the level just above the pieces first, the root last;
//	                 the last entry is the number of nodes
//	snap.boxes       int32 ×4 per node: min lon, min lat, max lon, max lat
//	                 (1e-7 degrees) of everything below it
//	snap.items       uint32 pairs per piece, in tree order: segment, index
//	                 of the piece's first shape point
//	<profile>.snap   uint8 per node: bit 0 when a piece below it lies on a
//	                 segment the profile may use in some state, bit 1 when
//	                 one lies on its main component
//
// Pieces are sorted along a Hilbert curve through their midpoints and packed
// Fanout to a node, and nodes Fanout to a parent, up to one root: node j of
// level 0 holds pieces Fanout·j to Fanout·j+Fanout−1, and node j of level
// l > 0 the nodes Fanout·j onwards of level l−1. A query descends
// depth-first, nearest box first, and skips a box that lies farther than
// the best road found or holds no road the profile may use (the masks). It
// therefore costs about the same near a town and 20 km into the hills: a
// handful of boxes per level, never a scan outward over empty ground.
//
// Distances are those of geo.Project: planar at the query's latitude, in
// metres. Of roads at the same distance (a point at a junction lies on all
// of them) the first the query finds wins: the same one on every run and
// every machine, as the tree and the query's order are fixed.
//
// An Index and its Finders view the artifact's mapping, are read-only and
// safe for concurrent use; they live until the artifact is closed. Results
// own their memory.
package snap

import (
	"errors"
	"fmt"
)

// Defaults and limits of the rule (see the package comment).
const (
	// DefaultRadius is how far, in metres, a point may lie from the road it
	// snaps to when the caller sets no radius; also the largest radius.
	DefaultRadius = 35000
	// CoverageMargin grows the box of every road, in metres, into the
	// release's coverage.
	CoverageMargin = 5000
	// MainSlack and MainSlackRatio bound how much farther than the nearest
	// road a road of the main component may lie and still be preferred:
	// by MainSlack metres or by MainSlackRatio of the nearest's distance,
	// whichever is more.
	MainSlack      = 50
	MainSlackRatio = 0.5
	// RoadReach is how near, in metres, a road of a main class (any class
	// but the minor ones, track and service) on the main component must lie
	// for a point to start on it rather than on a nearer track or service
	// way: a point 1 m from a field track and 28 m from a primary road is a
	// driver on the primary road (issue 36; nearest.go).
	RoadReach = 40
	// BearingInset is how far, in metres, a point placed with a bearing
	// lies inside its piece when the piece's nearest point is one of its
	// ends (a bend, a junction, a road's end): there the road heads two
	// ways, or the route would leave or reach the point over another road,
	// and the bearing was matched against this piece only (bearing.go).
	// Half the piece when it is shorter than twice this.
	BearingInset = 2
)

// Errors a caller can test for with errors.Is.
var (
	// ErrOutside: the point lies outside the release's coverage.
	ErrOutside = errors.New("snap: point outside the network's coverage")
	// ErrTooFar: no road the profile may use lies within the radius (or
	// none that passes the bearing and the conditions in force).
	ErrTooFar = errors.New("snap: no usable road within the radius")
)

// FarError is ErrTooFar with what was found: the radius searched and the
// distance of the nearest usable road beyond it, 0 when there is none
// within DefaultRadius either.
type FarError struct {
	Radius, Nearest float64
}

func (e *FarError) Error() string {
	if e.Nearest > 0 {
		return fmt.Sprintf("%v: the nearest is %.0f m away, the radius %.0f m", ErrTooFar, e.Nearest, e.Radius)
	}
	return fmt.Sprintf("%v of %.0f m", ErrTooFar, e.Radius)
}

// Is makes errors.Is(err, ErrTooFar) true.
func (e *FarError) Is(target error) bool { return target == ErrTooFar }

// Bearing asks for roads travelled within Tolerance degrees of Degrees
// (clockwise from north, as a compass reads): the direction a vehicle at
// the point is heading.
type Bearing struct {
	Degrees, Tolerance float64
}

// Options narrow one point's search. The zero value is the default rule.
type Options struct {
	Radius  float64  // metres; 0 means DefaultRadius
	Bearing *Bearing // nil for any direction
}

// Result is a point snapped onto a segment.
type Result struct {
	Seg      uint32
	Frac     float64 // position along the segment, 0 at its first node, 1 at its last
	Lon, Lat float64 // the snapped point
	Dist     float64 // metres from the query point
	// NoForward and NoBackward forbid leaving or reaching the point in a
	// direction of Seg that the profile may use but the bearing or the
	// conditions in force exclude. The zero value allows both.
	NoForward, NoBackward bool
	Main                  bool // Seg lies on the profile's main component
}

// Snapped is a point placed by the rule: the road chosen and, when that
// road lies off the main component, the nearest road on it (if any lies
// within the radius) to fall back to.
type Snapped struct {
	Result
	Fallback    Result
	HasFallback bool
	// From and Options are the point placed and how, for a caller that
	// places it again on the main component at the time of travel
	// (Finder.NearestOnMain).
	From    [2]float64
	Options Options
}

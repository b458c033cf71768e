package guidance

import (
	"math"
	"strings"
)

// A junction where the route keeps its road and no other way could be
// taken for it is not a decision, and says nothing: the CS-140 going on
// past a track, a service road or a dead-end lane is one road to a
// driver, whatever the angles. A fork of comparable roads is a decision.
// Roads are compared by the importance a driver reads in them (priority,
// on OSRM's guidance's scale, where two classes apart is no longer a
// fork): a branch is clearly lower when it is a minor road (service,
// track, path, ...) and ours is not, or when it is at least a whole class
// below ours (a residential lane off the secondary CS-140, a tertiary off
// a primary).

// classGap is how much larger a branch's priority must be than ours for
// the two not to be comparable.
const classGap = 2

// priority ranks a road class: lower is more important. A ramp ranks with
// its road; clearlyLower treats ramps apart.
func priority(class string) float64 {
	base, _ := strings.CutSuffix(class, "_link")
	p := 0.0
	switch base {
	case "motorway":
		p = 0
	case "trunk":
		p = 2
	case "primary":
		p = 4
	case "secondary":
		p = 6
	case "tertiary":
		p = 8
	case "residential", "unclassified", "road":
		p = 10
	case "living_street":
		p = 11
	case "service":
		p = 12
	case "track":
		p = 14
	case "cycleway":
		p = 16
	default: // footway, path, pedestrian, steps, bridleway, ferry
		p = 18
	}
	return p
}

// minor reports whether a class is one a driver never takes for the road
// he is on: service roads, tracks and every kind of path.
func minor(class string) bool { return priority(class) >= 12 }

func isLink(class string) bool { return strings.HasSuffix(class, "_link") }

// clearlyLower reports whether a branch of class other cannot be taken for
// a road of class ours: a minor road off a road, a ramp off a road (the
// ramp is a step when taken, not when passed), or a class well below.
func clearlyLower(other, ours string) bool {
	if minor(other) && !minor(ours) || isLink(other) && !isLink(ours) {
		return true
	}
	return priority(other)-priority(ours) >= classGap
}

// obviousAngle is how far from straight on the road may bend at a
// junction and still be followed without a word.
const obviousAngle = 45

// obvious reports whether going from arc p onto arc c (at angle degrees,
// positive left) just follows the road: c keeps p's road, bends less than
// obviousAngle and every other way on is clearly lower than it.
func (n *narrator) obvious(p, c uint32, angle float64, others []uint32) bool {
	ours := n.road(c)
	if math.Abs(angle) >= obviousAngle || !ours.same(n.road(p)) {
		return false
	}
	for _, o := range others {
		if !clearlyLower(n.road(o).class, ours.class) {
			return false
		}
	}
	return true
}

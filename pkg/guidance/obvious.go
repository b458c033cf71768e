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
// a primary). A comparable branch does not make a fork either when ours
// is the straightest way on by far (OSRM's distinct angles, see
// straightest): where ours changes its name there, only the name is said.

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
// positive left) just follows the road: c keeps p's road and is the
// straightest way on (see straightest).
func (n *narrator) obvious(p, c uint32, angle float64, others []uint32) bool {
	return n.road(c).same(n.road(p)) && n.straightest(p, c, angle, others)
}

// distinctRatio and distinctMargin say when a branch bends clearly more
// than ours: more than twice as far from straight on, and by more than
// 12.5 degrees (OSRM's DISTINCTION_RATIO and half its
// FUZZY_ANGLE_DIFFERENCE, with which it finds the obvious way on).
const (
	distinctRatio  = 2
	distinctMargin = 12.5
)

// straightest reports whether arc c, at angle degrees from arc p, is the
// way on a driver follows without a word: it bends less than obviousAngle
// and every other way on is clearly lower than it or bends distinctly
// more (the CG-1 going on at 5 degrees past a primary leaving at 30 is
// the road; two branches at 10 and 20 degrees are a fork).
func (n *narrator) straightest(p, c uint32, angle float64, others []uint32) bool {
	a := math.Abs(angle)
	if a >= obviousAngle {
		return false
	}
	ours := n.road(c)
	for _, o := range others {
		oc := n.road(o).class
		oa := math.Abs(n.g.Net.TurnAngle(n.segRef(p), n.segRef(o)))
		if clearlyLower(oc, ours.class) {
			if !mistakable(oc, ours.class, oa, a) {
				continue
			}
			return false
		}
		if oa <= distinctRatio*a || oa-a <= distinctMargin {
			return false
		}
	}
	return true
}

// lowerRatio: a lesser road bending less than this times as far as ours
// from straight on can be taken for the way on (OSRM's 0.7 times its
// DISTINCTION_RATIO, the bound it asks of a lower class).
const lowerRatio = 1.4

// mistakable reports whether a clearly lower branch of class other, bending
// oa degrees from straight on, can still be taken for our road (of class
// ours, bending a): a road (not a driveway, track or path, not a ramp) that
// goes on about as straight as ours or straighter, as a residential street
// straight ahead where the secondary bends left. There the driver is told
// to keep to his road.
func mistakable(other, ours string, oa, a float64) bool {
	if minor(other) && !minor(ours) || isLink(other) && !isLink(ours) {
		return false
	}
	return oa < obviousAngle && oa <= lowerRatio*a
}

package guidance

import (
	"math"
	"strings"
)

// Lengths under which a step is not worth a word of its own.
const (
	// tinyStepM: a few metres between two nodes of one junction, the
	// next maneuver says it all. OSRM folds a zig-zag only within 3 m (its
	// staggered intersections) and says two turns 8 m apart, as at the
	// loop of the Avinguda el Travès in La Massana.
	tinyStepM = 3
	// shortStepM: a step that stays on its predecessor's road and turns
	// only this far is the two carriageways of a divided road meeting.
	shortStepM = 20
	// shortNameM: a new name where nothing could be decided is not said
	// when the next maneuver comes within this distance: the driver reads
	// the next instruction's road before the sign of this one (OSRM's
	// NAME_SEGMENT_CUTOFF_LENGTH, 105 m).
	shortNameM = 105
	// nameAfterM: a new name this soon after a maneuver is the road that
	// maneuver takes, said at once ("Keep left onto CG-1", not "Keep left
	// onto the primary road" and 27 m later "Continue onto CG-1").
	nameAfterM = 30
)

// collapse folds the steps that say nothing new into their neighbours.
func (n *narrator) collapse(steps []Step) []Step {
	steps = n.dropTiny(steps)
	steps = dropShortNames(steps)
	steps = n.startOn(steps)
	return foldSameRoad(steps)
}

// dropShortNames folds into the step before every new name said where
// nothing could be decided that lasts less than shortNameM before the next
// maneuver, and lets a maneuver less than nameAfterM before a new name
// take that name.
func dropShortNames(steps []Step) []Step {
	out := steps[:1]
	for i := 1; i < len(steps); i++ {
		s := steps[i]
		if !s.renamed || i == len(steps)-1 {
			out = append(out, s)
			continue
		}
		prev := &out[len(out)-1]
		switch {
		case prev.DistanceM < nameAfterM:
			prev.setRoad(s.road())
		case s.DistanceM >= shortNameM:
			out = append(out, s)
			continue
		}
		prev.DistanceM += s.DistanceM
		prev.DurationS += s.DurationS
	}
	return out
}

// dropTiny removes the maneuvers of tiny steps (see tinyStepM) other than
// the depart, roundabouts and U-turns: their metres go to the step before
// (to the next when the next is a new name, which then happens at the
// tiny step's junction), and the next step's maneuver is judged again from the road before the
// tiny one, so that turning right then at once left reads as going on
// straight, and two rights as one. A tiny step just before the arrival is
// simply part of the step before.
func (n *narrator) dropTiny(steps []Step) []Step {
	out := steps[:1]
	for i := 1; i < len(steps); i++ {
		s := steps[i]
		if i == len(steps)-1 || s.DistanceM >= tinyStepM || s.Maneuver == Roundabout || s.Maneuver == UTurn {
			out = append(out, s)
			continue
		}
		prev, next := &out[len(out)-1], &steps[i+1]
		if next.renamed {
			// The next step's own node held no decision: its maneuver,
			// if any, is the tiny step's, at the tiny step's junction,
			// and so are its metres.
			next.out, next.arrived, next.renamed = s.out, s.arrived, false
			next.DistanceM += s.DistanceM
			next.DurationS += s.DurationS
		} else {
			prev.DistanceM += s.DistanceM
			prev.DurationS += s.DurationS
		}
		if next.Maneuver != Arrive {
			next.in = s.in
			n.judgeAgain(next, prev.road())
		}
	}
	return out
}

// judgeAgain names a turn, fork or continue again from the angle between
// the road it now leaves from (after a tiny step was dropped) and its own.
func (n *narrator) judgeAgain(s *Step, from road) {
	switch s.Maneuver {
	case Turn, Continue, Fork:
	default:
		return
	}
	angle := n.g.PerceivedTurnAngle(s.in, s.out)
	if s.Maneuver == Fork && math.Abs(angle) < 45 {
		s.Modifier = sideOf(angle)
		return
	}
	m := byAngle(angle, from.same(s.road()))
	if m.Maneuver == "" {
		m = Step{Maneuver: Continue, Modifier: "straight"} // folded by foldSameRoad
		s.keep = false
	}
	s.Maneuver, s.Modifier = m.Maneuver, m.Modifier
}

// startOn lets a depart a few metres long on a stub (a driveway, the end of
// a service road) start on the road it leads straight on to, and a depart
// of no length at all (a start on the junction node itself) start on the
// road the next maneuver takes, but for a roundabout, which is still to be
// entered.
func (n *narrator) startOn(steps []Step) []Step {
	if len(steps) < 3 || steps[0].DistanceM >= tinyStepM {
		return steps
	}
	switch next := steps[1].Maneuver; {
	case next == Continue:
	case steps[0].DistanceM == 0 && next != Roundabout && next != Arrive:
	default:
		return steps
	}
	d, next := &steps[0], steps[1]
	d.DistanceM += next.DistanceM
	d.DurationS += next.DurationS
	d.setRoad(next.road())
	d.heading = n.g.Net.Heading(next.out, true)
	d.out = next.out
	return append(steps[:1], steps[2:]...)
}

// foldSameRoad folds into its predecessor every step that stays on the same
// road (see road.same) and either goes on straight, bears slightly or lasts
// only a few metres; the predecessor takes the fuller of the two labels.
// Roundabouts, U-turns, ramps, forks a driver must choose, and the depart
// and arrive steps stay.
func foldSameRoad(steps []Step) []Step {
	out := steps[:1]
	for _, s := range steps[1:] {
		prev := &out[len(out)-1]
		if s.Maneuver != Arrive && prev.Maneuver != Arrive && foldable(prev, &s) {
			prev.DistanceM += s.DistanceM
			prev.DurationS += s.DurationS
			r := prev.road()
			r.adopt(s.road())
			prev.setRoad(r)
			continue
		}
		out = append(out, s)
	}
	return out
}

func foldable(prev, s *Step) bool {
	if s.keep || !prev.road().same(s.road()) {
		return false
	}
	switch s.Maneuver {
	case Continue:
		return true
	case Turn:
		return strings.HasPrefix(s.Modifier, "slight") || s.DistanceM < shortStepM
	case Fork:
		return s.DistanceM < shortStepM
	}
	return false
}

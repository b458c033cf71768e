package guidance

import "strings"

// shortStepM is the length under which a step that stays on its
// predecessor's road is noise: the two carriageways of a divided road
// meeting, a junction drawn as two nodes a few metres apart.
const shortStepM = 20

// collapse folds into its predecessor every step that says nothing new: it
// stays on the same road and either bends gently (slight turn, straight on)
// or lasts only a few metres. Roundabouts, U-turns, ramps and the depart
// and arrive steps always stay.
func collapse(steps []Step) []Step {
	out := steps[:1]
	for _, s := range steps[1:] {
		prev := &out[len(out)-1]
		if s.Maneuver != Arrive && prev.Maneuver != Arrive && foldable(prev, &s) {
			prev.DistanceM += s.DistanceM
			prev.DurationS += s.DurationS
			continue
		}
		out = append(out, s)
	}
	return out
}

func foldable(prev, s *Step) bool {
	sameRoad := (s.RoadName != "" || s.RoadRef != "") && s.RoadName == prev.RoadName && s.RoadRef == prev.RoadRef
	if !sameRoad {
		return false
	}
	switch s.Maneuver {
	case Continue:
		return true
	case Turn, Fork:
		return strings.HasPrefix(s.Modifier, "slight") || s.DistanceM < shortStepM
	}
	return false
}

package api

import (
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// maxSteps is the spec's limit per leg; a longer itinerary keeps its first
// steps and folds the rest into the last one, so the totals still add up.
const maxSteps = 1000

// legSteps narrates leg i of rt.
func legSteps(r *route.Router, req DirectionsRequest, rt *route.Route, i int) []guidance.Step {
	a, b := rt.Snapped[i], rt.Snapped[i+1]
	steps := guidance.Steps(r.Graph(), guidance.Leg{
		Pieces:  r.Pieces(rt.Legs[i], a, b),
		Dest:    req.Coordinates[i+1],
		Snapped: [2]float64{b.Lon, b.Lat},
	})
	if len(steps) > maxSteps {
		last := &steps[maxSteps-2]
		for _, s := range steps[maxSteps-1 : len(steps)-1] {
			last.DistanceM += s.DistanceM
			last.DurationS += s.DurationS
		}
		steps = append(steps[:maxSteps-1], steps[len(steps)-1])
	}
	return steps
}

func appendSteps(dst []byte, steps []guidance.Step) []byte {
	dst = append(dst, '[')
	for i, s := range steps {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		dst = appendKey(dst, "instruction", false)
		dst = appendString(dst, s.Instruction)
		dst = appendKey(dst, "distance_m", true)
		dst = appendNumber(dst, s.DistanceM, 1)
		dst = appendKey(dst, "duration_s", true)
		dst = appendNumber(dst, s.DurationS, 3)
		if s.RoadName != "" {
			dst = appendKey(dst, "road_name", true)
			dst = appendString(dst, truncateRunes(s.RoadName, 500))
		}
		if s.RoadClass != "" {
			dst = appendKey(dst, "road_class", true)
			dst = appendString(dst, s.RoadClass)
		}
		dst = appendKey(dst, "maneuver", true)
		dst = appendString(dst, s.Maneuver)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// truncateRunes cuts s to at most n bytes without splitting a character.
func truncateRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

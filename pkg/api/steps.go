package api

import (
	"strconv"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
)

// appendSteps writes a leg's turn-by-turn steps.
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
		dst = appendStructured(dst, &s)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendStructured writes what a navigation app needs beyond the words:
// the modifier, a roundabout's exit, where the maneuver is and the
// bearings around it, the step's range in the route's geometry, the road's
// reference and its signposts.
func appendStructured(dst []byte, s *guidance.Step) []byte {
	if s.RoadRef != "" {
		dst = appendKey(dst, "road_ref", true)
		dst = appendString(dst, truncateRunes(s.RoadRef, 100))
	}
	if s.Modifier != "" {
		dst = appendKey(dst, "modifier", true)
		dst = appendString(dst, s.Modifier)
	}
	if s.Maneuver == guidance.Roundabout && s.Exit > 0 {
		dst = appendKey(dst, "exit", true)
		dst = strconv.AppendInt(dst, int64(s.Exit), 10)
	}
	dst = appendKey(dst, "location", true)
	dst = appendPosition(dst, s.Location[0], s.Location[1])
	dst = appendKey(dst, "bearing_before", true)
	dst = strconv.AppendInt(dst, int64(s.BearingBefore), 10)
	dst = appendKey(dst, "bearing_after", true)
	dst = strconv.AppendInt(dst, int64(s.BearingAfter), 10)
	dst = appendKey(dst, "geometry_range", true)
	dst = append(dst, '[')
	dst = strconv.AppendInt(dst, int64(s.GeometryBegin), 10)
	dst = append(dst, ',')
	dst = strconv.AppendInt(dst, int64(s.GeometryEnd), 10)
	dst = append(dst, ']')
	if !s.Signpost.IsZero() {
		dst = appendSignpost(dst, s.Signpost)
	}
	return dst
}

// appendSignpost writes the members of a signpost that are mapped.
func appendSignpost(dst []byte, sp graph.Signpost) []byte {
	dst = appendKey(dst, "signpost", true)
	dst = append(dst, '{')
	comma := false
	for _, m := range [...]struct{ key, value string }{
		{"destination", sp.Destination}, {"destination_ref", sp.DestinationRef}, {"junction_ref", sp.JunctionRef}} {
		if m.value != "" {
			dst = appendKey(dst, m.key, comma)
			dst = appendString(dst, truncateRunes(m.value, 500))
			comma = true
		}
	}
	return append(dst, '}')
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

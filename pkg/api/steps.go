package api

import "github.com/mapsco/maps/pkg/guidance"

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

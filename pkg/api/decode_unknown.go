package api

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mapsco/maps/pkg/jsonscan"
)

// This file reports members a request does not have. Ignoring them would answer, and bill, a question the
// client did not ask: {"coordinates": ..., "profil": "pedestrian"} would be routed by car. So a member that is
// not one of the request's is a field error at its own pointer, naming the known member the client most likely
// meant: one a typo away, or the name other routing APIs give the same thing ("mode", "costing").

// The members of each request, in the order of the specification.
var (
	directionsMembers = []member{memberCoordinates, memberProfile, memberDepartureTime, memberAlternatives,
		memberGeometryFormat, memberIncludeSteps, memberRadiuses, memberBearings, memberLanguage, memberExclude,
		memberVehicle, memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps}
	matrixMembers = []member{memberSources, memberTargets, memberProfile, memberDepartureTime,
		memberSourceRadiuses, memberSourceBearings, memberTargetRadiuses, memberTargetBearings, memberExclude,
		memberVehicle, memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps}
	isochroneMembers = []member{memberOrigin, memberProfile, memberContours, memberDepartureTime, memberRadius,
		memberBearing, memberExclude, memberVehicle, memberAvoidAreas, memberMaxHikingDifficulty, memberAvoidSteps}
	elevationMembers = []member{memberCoordinates}
	matchMembers     = []member{memberCoordinates, memberTimestamps, memberRadiuses, memberProfile,
		memberGeometryFormat, memberIncludeSteps}
	contourMembers = []member{memberTimeMinutes, memberDistanceKm}
)

// aliases are names other routing APIs (OSRM, Valhalla, GraphHopper, Google) or habit give to our members.
var aliases = map[string]member{
	"mode": memberProfile, "costing": memberProfile, "travel_mode": memberProfile,
	"travelmode": memberProfile, "locations": memberCoordinates, "waypoints": memberCoordinates,
	"points": memberCoordinates, "coords": memberCoordinates, "stops": memberCoordinates,
	"geometry": memberGeometryFormat, "geometries": memberGeometryFormat, "format": memberGeometryFormat,
	"steps": memberIncludeSteps, "instructions": memberIncludeSteps, "departure": memberDepartureTime,
	"depart_at": memberDepartureTime, "date_time": memberDepartureTime, "time": memberDepartureTime,
	"departure_at": memberDepartureTime, "origins": memberSources, "destinations": memberTargets,
	"location": memberOrigin, "center": memberOrigin, "centre": memberOrigin, "start": memberOrigin,
	"minutes": memberTimeMinutes, "time_limit": memberTimeMinutes, "distance": memberDistanceKm,
	"kilometers": memberDistanceKm, "kilometres": memberDistanceKm, "km": memberDistanceKm,
	"heading": memberBearing, "headings": memberBearings, "search_radius": memberRadius,
	"times": memberTimestamps, "timestamp": memberTimestamps, "time_stamps": memberTimestamps,
	"lang": memberLanguage, "locale": memberLanguage, "languages": memberLanguage,
	"excludes": memberExclude, "avoid": memberExclude, "avoid_features": memberExclude, "exclusions": memberExclude,
	"vehicle_type": memberVehicle, "truck": memberVehicle, "dimensions": memberVehicle,
	"avoid_polygons": memberAvoidAreas, "exclude_polygons": memberAvoidAreas, "avoid_area": memberAvoidAreas,
	"hiking_difficulty": memberMaxHikingDifficulty, "sac_scale": memberMaxHikingDifficulty, "steps_avoid": memberAvoidSteps,
}

// unknownMember reports the member just named (d.name), which is not one of known, and skips its value.
// request names the object in messages ("directions request", "contour").
func (d *decoder) unknownMember(p jsonscan.Pointer, request string, known []member) {
	name := string(d.name)
	if m := suggest(name, known); m != memberUnknown {
		d.errs.addf(p, "is not a member of %s; did you mean %q?", request, m.String())
	} else {
		names := make([]string, len(known))
		for i, k := range known {
			names[i] = k.String()
		}
		d.errs.addf(p, "is not a member of %s, whose members are %s", request, strings.Join(names, ", "))
	}
	d.s.Skip()
}

// namePointer is the pointer of a top-level member the client named.
func namePointer(name []byte) jsonscan.Pointer { return memberPointer(string(name)) }

// suggest returns the member of known that name most likely means, or memberUnknown: an alias, or the
// nearest by edit distance when that is at most a third of the name's length (and at least 1, at most 3).
func suggest(name string, known []member) member {
	lower := strings.ToLower(name)
	if m, ok := aliases[lower]; ok && slices.Contains(known, m) {
		return m
	}
	best, bestDist := memberUnknown, min(3, max(1, utf8.RuneCountInString(lower)/3))+1
	for _, m := range known {
		if d := editDistance(lower, m.String()); d < bestDist {
			best, bestDist = m, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b (insertions, deletions,
// substitutions and transpositions of adjacent runes), bounded in cost by the short names it compares:
// names longer than 64 runes are never a typo of ours.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return 64
	}
	prev2, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

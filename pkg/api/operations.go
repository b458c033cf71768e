package api

import (
	"errors"
	"fmt"
	"time"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// This file holds what the compute operations share: their credit rule, their inputs turned into the
// engine's, and the report of where a point met the network (or why it did not).

// startedUnits is the number of started blocks of size per in n: the
// credit rule of spec §4 ("1 credit for up to 10, plus 1 for each further 10").
func startedUnits(n, per int) int64 { return int64((n + per - 1) / per) }

func points(cs []Coordinate) []route.Point {
	pts := make([]route.Point, len(cs))
	for i, c := range cs {
		pts[i] = route.Point(c)
	}
	return pts
}

// departureOf is the time a request is for: departure_time when given,
// else the zero time, which routing reads as now (spec behaviour rule 2).
func departureOf(has bool, t time.Time) time.Time {
	if has {
		return t
	}
	return time.Time{}
}

// snapOptions turns n points' radiuses and bearings (either nil when not
// sent) into snapping options, nil when neither was sent.
func snapOptions(n int, radiuses []float64, bearings []Bearing) []snap.Options {
	if radiuses == nil && bearings == nil {
		return nil
	}
	out := make([]snap.Options, n)
	for i := range out {
		out[i] = snapOption(at(radiuses, i), at(bearings, i))
	}
	return out
}

// pointOptions1 is one point's snapping options.
func snapOption(radius float64, b Bearing) snap.Options {
	o := snap.Options{Radius: radius}
	if b.Given {
		o.Bearing = &snap.Bearing{Degrees: b.Degrees, Tolerance: b.Tolerance}
	}
	return o
}

func at[T any](s []T, i int) T {
	var zero T
	if i < len(s) {
		return s[i]
	}
	return zero
}

// appendPlace writes where a point met the network: location on the road,
// distance from the point sent, and the road's name when it has one.
func appendPlace(dst []byte, net *graph.Network, s snap.Result) []byte {
	dst = append(dst, '{')
	dst = appendKey(dst, "location", false)
	dst = appendPosition(dst, s.Lon, s.Lat)
	dst = appendKey(dst, "distance_m", true)
	dst = appendNumber(dst, s.Dist, 1)
	if name := net.Name(s.Seg); name != "" {
		dst = appendKey(dst, "road_name", true)
		dst = appendString(dst, truncateRunes(name, maxRoadName))
	}
	return append(dst, '}')
}

// maxRoadName is the spec's limit on a step's road_name, kept for a waypoint's too.
const maxRoadName = 500

// placeFailure explains why the point at field could not be placed (err
// from route.Router.PlaceOne). When the same point with longitude and
// latitude swapped could be placed, it says so: that is a malformed request
// (400, as spec §7 lists it), not an unroutable one. swapped reports which.
func placeFailure(router *route.Router, field string, p route.Point, o snap.Options, st *graph.State, err error) (fe FieldError, swapped bool) {
	if _, serr := router.PlaceOne(route.Point{p[1], p[0]}, o, st); serr == nil {
		return FieldError{Field: field, Message: "no road here, but there is one at [" + formatNumber(p[1]) + ", " +
			formatNumber(p[0]) + "]: the pair looks swapped; coordinates are [longitude, latitude]"}, true
	}
	profile := router.Graph().Profile
	var far *snap.FarError
	switch {
	case errors.Is(err, snap.ErrOutside):
		minLon, minLat, maxLon, maxLat := router.Finder().Index().Extent()
		return FieldError{Field: field, Message: fmt.Sprintf("outside the area this data release covers: "+
			"longitude %.2f to %.2f, latitude %.2f to %.2f, and %d km around", minLon, maxLon, minLat, maxLat,
			snap.CoverageMargin/1000)}, false
	case errors.As(err, &far) && far.Nearest > 0:
		return FieldError{Field: field, Message: fmt.Sprintf("no road usable by profile %s%s within %.0f m of this point "+
			"(the nearest is %.0f m away)", profile, bearingPhrase(o), far.Radius, far.Nearest)}, false
	case errors.As(err, &far) && far.Radius < snap.DefaultRadius:
		return FieldError{Field: field, Message: fmt.Sprintf("no road usable by profile %s%s within %.0f m of this point",
			profile, bearingPhrase(o), far.Radius)}, false
	}
	return FieldError{Field: field, Message: fmt.Sprintf("no road usable by profile %s%s within %d km of this point",
		profile, bearingPhrase(o), snap.DefaultRadius/1000)}, false
}

// bearingPhrase names the bearing in a message, when one narrowed the search.
func bearingPhrase(o snap.Options) string {
	if o.Bearing == nil {
		return ""
	}
	return fmt.Sprintf(" heading %g±%g°", o.Bearing.Degrees, o.Bearing.Tolerance)
}

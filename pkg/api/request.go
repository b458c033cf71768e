// Package api is the HTTP face of the service: it decodes and validates request bodies, charges, answers, and
// reports failures as RFC 9457 problem details.
//
// This file and the decode*.go files hold the request types and their decoders. A decoder reads an untrusted
// body, checks every rule of the API specification (section 2 and the limits of section 8) and returns either a
// request whose every field is valid, or an *InvalidRequest listing what is wrong with JSON-pointer paths. The
// JSON itself (tokens, strings, numbers, syntax errors, pointers) is pkg/jsonscan's; what is here is the shape
// of each request: its members, their types and ranges, and the messages that say what is wrong.
// problem.go holds the table of every problem type and writes problem responses.
//
// Everything here is stateless and safe for concurrent use. Decoded requests own their memory: nothing in them
// aliases the body, so the caller may reuse the body buffer (as fasthttp does) as soon as a decoder returns.
package api

import (
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/snap"

	"github.com/mapsco/maps/pkg/route"
)

// Limits of the API specification, section 8.
const (
	MinDirectionsCoordinates = 2
	MaxDirectionsCoordinates = 50
	MinAlternatives          = 0
	MaxAlternatives          = 3
	MinMatrixLocations       = 1 // sources and targets each
	MaxMatrixLocations       = 100
	MinContours              = 1
	MaxContours              = 4
	MinContourMinutes        = 1.0
	MaxContourMinutes        = 120.0
	MinContourKilometers     = 0.5
	MaxContourKilometers     = 100.0
	MinElevationCoordinates  = 1
	MaxElevationCoordinates  = 1000
	MinMatchCoordinates      = 2 // POST /match, an addition to section 8 (docs/matching.md)
	MaxMatchCoordinates      = 2000
)

// Limits of the snapping controls, which the specification leaves to us (docs/snapping.md).
const (
	MaxRadius           = snap.DefaultRadius // metres; a radius only narrows the default search
	MaxBearing          = 360.0              // degrees clockwise from north
	MaxBearingTolerance = 180.0              // degrees either side
)

// Ranges of a truck's vehicle members (issue 35, docs/vehicle.md): wide enough for any road vehicle, narrow
// enough that a value in feet or kilograms sent by mistake is refused rather than routed.
const (
	MinVehicleHeightM, MaxVehicleHeightM     = 1.0, 6.0
	MinVehicleWidthM, MaxVehicleWidthM       = 1.0, 5.0
	MinVehicleLengthM, MaxVehicleLengthM     = 2.0, 30.0
	MinVehicleWeightT, MaxVehicleWeightT     = 1.0, 100.0
	MinVehicleAxleLoadT, MaxVehicleAxleLoadT = 1.0, 30.0
)

// Defaults of optional request fields.
const (
	DefaultProfile        = ProfileCar
	DefaultAlternatives   = 1
	DefaultGeometryFormat = GeometryPolyline6
)

// The routing profiles of the specification.
const (
	ProfileMoto             = "moto"
	ProfileCar              = "car"
	ProfileTruck            = "truck"
	ProfileBicycle          = "bicycle"
	ProfilePedestrian       = "pedestrian"
	ProfilePedestrianLoaded = "pedestrian_loaded"
)

// The geometry formats of a directions response.
const (
	GeometryPolyline6 = "polyline6"
	GeometryGeoJSON   = "geojson"
)

// Profiles returns every profile name, in the order of the specification.
func Profiles() []string {
	return []string{ProfileMoto, ProfileCar, ProfileTruck, ProfileBicycle, ProfilePedestrian, ProfilePedestrianLoaded}
}

// Coordinate is a [longitude, latitude] pair in WGS84 degrees, the order used everywhere in the API.
type Coordinate [2]float64

// Lon returns the longitude.
func (c Coordinate) Lon() float64 { return c[0] }

// Lat returns the latitude.
func (c Coordinate) Lat() float64 { return c[1] }

// DirectionsRequest is a valid POST /directions body.
type DirectionsRequest struct {
	Coordinates      []Coordinate // 2..50, visiting order
	Profile          string       // one of Profiles(); default "car"
	DepartureTime    time.Time    // valid only when HasDepartureTime; keeps the offset the client sent
	HasDepartureTime bool
	Alternatives     int    // 0..3, default 1: routes wanted in addition to the best one
	GeometryFormat   string // "polyline6" (default) or "geojson"
	IncludeSteps     bool
	Radiuses         []float64 // nil, or one per coordinate: metres, 0 for the default
	Bearings         []Bearing // nil, or one per coordinate
	// Language of the instructions, one of guidance.Languages; "" when the
	// body names none (then the Accept-Language header, else English).
	Language string
	Exclude  route.Exclude // kinds of road the routes must not use; 0 for none
	Vehicle  route.Vehicle // the truck's vehicle; zero for the profile's own
	Avoid    route.Avoid   // avoid_areas, max_hiking_difficulty, avoid_steps (decode_avoid.go); zero for none
}

// Bearing is the direction a vehicle at a point is heading: Degrees clockwise from north (0..360) within
// Tolerance degrees (0..180) either side. Given is false for none (null in a list).
type Bearing struct {
	Degrees, Tolerance float64
	Given              bool
}

// MatrixRequest is a valid POST /matrix body.
type MatrixRequest struct {
	Sources, Targets []Coordinate // 1..100 each
	Profile          string
	DepartureTime    time.Time
	HasDepartureTime bool
	SourceRadiuses   []float64 // as DirectionsRequest.Radiuses, per source
	SourceBearings   []Bearing
	TargetRadiuses   []float64 // per target
	TargetBearings   []Bearing
	Exclude          route.Exclude // kinds of road no cell's path may use
	Vehicle          route.Vehicle // the truck's vehicle; zero for the profile's own
	Avoid            route.Avoid   // avoid_areas, max_hiking_difficulty, avoid_steps (decode_avoid.go); zero for none
}

// Contour is one isochrone budget: exactly one of the fields is non-zero, Minutes in 1..120 or Kilometers in
// 0.5..100.
type Contour struct {
	Minutes, Kilometers float64
}

// IsochroneRequest is a valid POST /isochrone body.
type IsochroneRequest struct {
	Origin           Coordinate
	Profile          string
	Contours         []Contour // 1..4
	DepartureTime    time.Time
	HasDepartureTime bool
	Radius           float64 // metres, 0 for the default
	Bearing          Bearing
	Exclude          route.Exclude // kinds of road the area is not reached by
	Vehicle          route.Vehicle // the truck's vehicle; zero for the profile's own
	Avoid            route.Avoid   // avoid_areas, max_hiking_difficulty, avoid_steps (decode_avoid.go); zero for none
}

// ElevationRequest is a valid POST /elevation body.
type ElevationRequest struct {
	Coordinates []Coordinate // 1..1000, in the order of the response
}

// MatchRequest is a valid POST /match body: a GPS trace to match to the roads.
type MatchRequest struct {
	Coordinates    []Coordinate // 2..2000, in the order recorded
	Timestamps     []time.Time  // nil, or one per coordinate, non-decreasing; keeps the offset the client sent
	Radiuses       []float64    // nil, or one per coordinate: GPS accuracy in metres, 0 for the default
	Profile        string
	GeometryFormat string
	IncludeSteps   bool
}

// FieldError names one invalid input: Field is a JSON pointer into the request body (e.g. "/coordinates/1/1"),
// Message says what is wrong and, where it helps, what is allowed. Both are at most 200 characters.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// InvalidRequest is what a decoder returns when the body is not acceptable. Detail is a one-line human
// explanation ("2 fields are invalid", or "malformed JSON at byte 17: ..."); Errors lists the field errors, at
// most MaxFieldErrors, and is empty when the body is not a JSON object at all.
//
// Decoders return a nil *InvalidRequest on success: compare it with nil before storing it in an error
// interface, which would otherwise be non-nil.
type InvalidRequest struct {
	Detail string
	Errors []FieldError
}

// Error returns the detail and the first field error, for logs.
func (e *InvalidRequest) Error() string {
	var b strings.Builder
	b.WriteString("invalid request: ")
	b.WriteString(e.Detail)
	if len(e.Errors) > 0 {
		b.WriteString(" (")
		b.WriteString(e.Errors[0].Field)
		b.WriteString(": ")
		b.WriteString(e.Errors[0].Message)
		if len(e.Errors) > 1 {
			b.WriteString(", ...")
		}
		b.WriteString(")")
	}
	return b.String()
}

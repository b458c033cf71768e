package api

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/route"
)

// wantError is one expected field error: the pointer, and a fragment its message must contain.
type wantError struct {
	field, contains string
}

// invalidCase is a body that must be refused with exactly these field errors, or, when errs is empty, with no
// field errors and a detail containing detail.
type invalidCase struct {
	name   string
	body   string
	errs   []wantError
	detail string
}

// checkInvalid runs decode on each case and compares the field errors, in order.
func checkInvalid(t *testing.T, cases []invalidCase, decode func([]byte) *InvalidRequest) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			inv := decode([]byte(tc.body))
			if inv == nil {
				t.Fatalf("accepted %s", tc.body)
			}
			assertWellFormed(t, inv)
			if !strings.Contains(inv.Detail, tc.detail) {
				t.Errorf("detail %q does not contain %q", inv.Detail, tc.detail)
			}
			if len(inv.Errors) != len(tc.errs) {
				t.Fatalf("got errors %+v, want %+v", inv.Errors, tc.errs)
			}
			for i, want := range tc.errs {
				got := inv.Errors[i]
				if got.Field != want.field || !strings.Contains(got.Message, want.contains) {
					t.Errorf("error %d = %+v, want field %q with message containing %q", i, got, want.field, want.contains)
				}
			}
		})
	}
}

// assertWellFormed checks the limits every InvalidRequest respects, whatever the input.
func assertWellFormed(t *testing.T, inv *InvalidRequest) {
	t.Helper()
	if inv.Detail == "" || strings.ContainsAny(inv.Detail, "\n\r") {
		t.Errorf("detail %q is not one non-empty line", inv.Detail)
	}
	if inv.Errors == nil || len(inv.Errors) > MaxFieldErrors {
		t.Errorf("errors is nil or longer than %d: %d", MaxFieldErrors, len(inv.Errors))
	}
	for _, e := range inv.Errors {
		if e.Field == "" || e.Message == "" || !strings.HasPrefix(e.Field, "/") {
			t.Errorf("field error %+v is empty or not a pointer", e)
		}
		if len([]rune(e.Field)) > MaxFieldLength || len([]rune(e.Message)) > MaxMessageLength {
			t.Errorf("field error %+v exceeds the length limits", e)
		}
	}
}

func directionsErr(b []byte) *InvalidRequest { _, inv := DecodeDirections(b); return inv }
func matrixErr(b []byte) *InvalidRequest     { _, inv := DecodeMatrix(b); return inv }
func isochroneErr(b []byte) *InvalidRequest  { _, inv := DecodeIsochrone(b); return inv }
func elevationErr(b []byte) *InvalidRequest  { _, inv := DecodeElevation(b); return inv }

const twoPoints = `[[1.5218,42.5063],[1.7333,42.5425]]`

func TestDecodeDirectionsValid(t *testing.T) {
	andorra := []Coordinate{{1.5218, 42.5063}, {1.7333, 42.5425}}
	tests := []struct {
		name string
		body string
		want DirectionsRequest
	}{
		{"defaults", `{"coordinates":` + twoPoints + `}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6"}},
		{"every field", `{"coordinates":` + twoPoints + `,"profile":"pedestrian_loaded","alternatives":0,
			"geometry_format":"geojson","include_steps":true,"departure_time":"2026-11-24T08:00:00+01:00"}`,
			DirectionsRequest{Coordinates: andorra, Profile: "pedestrian_loaded", Alternatives: 0, GeometryFormat: "geojson",
				IncludeSteps: true, HasDepartureTime: true,
				DepartureTime: time.Date(2026, 11, 24, 7, 0, 0, 0, time.UTC)}},
		{"snapping controls, null items for the default", `{"coordinates":[[1,2],[3,4],[5,6]],"radiuses":[50,null,35000],
			"bearings":[null,[0,180],[359.5,10]]}`,
			DirectionsRequest{Coordinates: []Coordinate{{1, 2}, {3, 4}, {5, 6}}, Profile: "car", Alternatives: 1,
				GeometryFormat: "polyline6", Radiuses: []float64{50, 0, 35000},
				Bearings: []Bearing{{}, {0, 180, true}, {359.5, 10, true}}}},
		{"escaped names and values", `{"\u0063oordinates":` + twoPoints + `,"profile":"\u0074ruck","geometry_format":"geo\u006Ason"}`,
			DirectionsRequest{Coordinates: andorra, Profile: "truck", Alternatives: 1, GeometryFormat: "geojson"}},
		{"whitespace everywhere, Z offset, integral float", " \r\n\t{ \"coordinates\" : [ [ 0 , 0 ] , [ -180 , -90 ] , [180,90] ] ," +
			" \"departure_time\" : \"2026-11-24T08:00:00.5Z\" , \"alternatives\" : 3.0e0 }\n",
			DirectionsRequest{Coordinates: []Coordinate{{0, 0}, {-180, -90}, {180, 90}}, Profile: "car", Alternatives: 3,
				GeometryFormat: "polyline6", HasDepartureTime: true,
				DepartureTime: time.Date(2026, 11, 24, 8, 0, 0, 500_000_000, time.UTC)}},
		{"lower-case t and z", `{"coordinates":` + twoPoints + `,"departure_time":"2026-11-24t08:00:00z"}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6",
				HasDepartureTime: true, DepartureTime: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}},
		{"tiny exponents underflow to zero", `{"coordinates":[[1e-400,-0],[0.0,1E+1]]}`,
			DirectionsRequest{Coordinates: []Coordinate{{0, 0}, {0, 10}}, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6"}},
		{"language", `{"coordinates":` + twoPoints + `,"language":"ca"}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6", Language: "ca"}},
		{"language as a BCP 47 tag", `{"coordinates":` + twoPoints + `,"language":"FR-ca"}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6", Language: "fr"}},
		{"exclude", `{"coordinates":` + twoPoints + `,"exclude":["tunnel","toll"]}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6",
				Exclude: route.ExcludeTunnel | route.ExcludeToll}},
		{"exclude nothing", `{"coordinates":` + twoPoints + `,"exclude":[]}`,
			DirectionsRequest{Coordinates: andorra, Profile: "car", Alternatives: 1, GeometryFormat: "polyline6"}},
		{"fifty waypoints", `{"coordinates":` + coordinateArray(50) + `}`,
			DirectionsRequest{Coordinates: coordinates(50), Profile: "car", Alternatives: 1, GeometryFormat: "polyline6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, inv := DecodeDirections([]byte(tt.body))
			if inv != nil {
				t.Fatalf("refused: %v %+v", inv, inv.Errors)
			}
			if !got.DepartureTime.Equal(tt.want.DepartureTime) {
				t.Errorf("departure time %v, want %v", got.DepartureTime, tt.want.DepartureTime)
			}
			got.DepartureTime, tt.want.DepartureTime = time.Time{}, time.Time{}
			if !slices.Equal(got.Coordinates, tt.want.Coordinates) {
				t.Errorf("coordinates %v, want %v", got.Coordinates, tt.want.Coordinates)
			}
			got.Coordinates, tt.want.Coordinates = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeDirectionsKeepsOffset(t *testing.T) {
	req, inv := DecodeDirections([]byte(`{"coordinates":` + twoPoints + `,"departure_time":"2026-11-24T08:00:00+01:00"}`))
	if inv != nil {
		t.Fatal(inv)
	}
	if _, offset := req.DepartureTime.Zone(); offset != 3600 || req.DepartureTime.Hour() != 8 {
		t.Errorf("departure time %v lost the client's offset", req.DepartureTime)
	}
}

func TestDecodeDirectionsInvalid(t *testing.T) {
	ok := `"coordinates":` + twoPoints
	checkInvalid(t, []invalidCase{
		{name: "swapped pair", body: `{"coordinates":[[1.5218,42.5063],[42.5425,91.7333]]}`,
			errs: []wantError{{"/coordinates/1/1", "swapped"}}, detail: "1 field is invalid"},
		{name: "latitude out of range, not a swap", body: `{"coordinates":[[1.5,42.5],[100,-95]]}`,
			errs: []wantError{{"/coordinates/1/1", "between -90 and 90, got -95"}}},
		{name: "longitude out of range", body: `{"coordinates":[[180.5,0],[1,1]]}`,
			errs: []wantError{{"/coordinates/0/0", "between -180 and 180, got 180.5"}}},
		{name: "both out of range", body: `{"coordinates":[[1,1],[-200,100]]}`,
			errs: []wantError{{"/coordinates/1/0", "longitude"}, {"/coordinates/1/1", "latitude"}}, detail: "2 fields are invalid"},
		{name: "coordinate of three numbers", body: `{"coordinates":[[1,1],[1,1],[1,2,3],[1,1]]}`,
			errs: []wantError{{"/coordinates/2", "exactly 2 numbers"}}},
		{name: "coordinate of one number", body: `{"coordinates":[[1],[1,1]]}`,
			errs: []wantError{{"/coordinates/0", "got 1 items"}}},
		{name: "coordinate as object", body: `{"coordinates":[{"lon":1,"lat":2},[1,1]]}`,
			errs: []wantError{{"/coordinates/0", "got object"}}},
		{name: "string where a number is expected", body: `{"coordinates":[["1.5",42],[1,null]]}`,
			errs: []wantError{{"/coordinates/0/0", "must be a number (longitude), got string"}, {"/coordinates/1/1", "got null"}}},
		{name: "huge exponent", body: `{"coordinates":[[1e400,1],[1,-1e309]]}`,
			errs: []wantError{{"/coordinates/0/0", "finite"}, {"/coordinates/1/1", "finite"}}},
		{name: "one waypoint", body: `{"coordinates":[[1,1]]}`, errs: []wantError{{"/coordinates", "2 to 50"}}},
		{name: "51 waypoints", body: `{"coordinates":` + coordinateArray(51) + `}`,
			errs: []wantError{{"/coordinates", "2 to 50 coordinates, got 51"}}},
		{name: "coordinates missing", body: `{"profile":"car"}`, errs: []wantError{{"/coordinates", "required"}}},
		{name: "coordinates null", body: `{"coordinates":null}`, errs: []wantError{{"/coordinates", "got null"}}},
		{name: "coordinates as object", body: `{"coordinates":{"0":[1,1]}}`, errs: []wantError{{"/coordinates", "got object"}}},
		{name: "unknown profile", body: `{` + ok + `,"profile":"bike"}`,
			errs: []wantError{{"/profile", `unknown profile "bike"; valid profiles: moto, car, truck, bicycle, pedestrian, pedestrian_loaded`}}},
		{name: "profile is case-sensitive", body: `{` + ok + `,"profile":"Car"}`, errs: []wantError{{"/profile", "unknown"}}},
		{name: "profile as number", body: `{` + ok + `,"profile":1}`, errs: []wantError{{"/profile", "got number"}}},
		{name: "no offset", body: `{` + ok + `,"departure_time":"2026-11-24T08:00:00"}`,
			errs: []wantError{{"/departure_time", "no UTC offset"}}},
		{name: "malformed time", body: `{` + ok + `,"departure_time":"tomorrow"}`,
			errs: []wantError{{"/departure_time", `got "tomorrow"`}}},
		{name: "offset out of range", body: `{` + ok + `,"departure_time":"2026-11-24T08:00:00+25:00"}`,
			errs: []wantError{{"/departure_time", "RFC 3339"}}},
		{name: "space separator", body: `{` + ok + `,"departure_time":"2026-11-24 08:00:00Z"}`,
			errs: []wantError{{"/departure_time", "RFC 3339"}}},
		{name: "date only", body: `{` + ok + `,"departure_time":"2026-11-24"}`, errs: []wantError{{"/departure_time", "RFC 3339"}}},
		{name: "time as number", body: `{` + ok + `,"departure_time":1764000000}`, errs: []wantError{{"/departure_time", "got number"}}},
		{name: "alternatives too many", body: `{` + ok + `,"alternatives":4}`, errs: []wantError{{"/alternatives", "from 0 to 3, got 4"}}},
		{name: "alternatives negative", body: `{` + ok + `,"alternatives":-1}`, errs: []wantError{{"/alternatives", "got -1"}}},
		{name: "alternatives fractional", body: `{` + ok + `,"alternatives":1.5}`, errs: []wantError{{"/alternatives", "integer"}}},
		{name: "alternatives huge", body: `{` + ok + `,"alternatives":1e999}`, errs: []wantError{{"/alternatives", "too large"}}},
		{name: "alternatives as string", body: `{` + ok + `,"alternatives":"2"}`, errs: []wantError{{"/alternatives", "got string"}}},
		{name: "unknown geometry format", body: `{` + ok + `,"geometry_format":"polyline5"}`,
			errs: []wantError{{"/geometry_format", `"polyline6", "geojson"`}}},
		{name: "unknown language", body: `{` + ok + `,"language":"de"}`,
			errs: []wantError{{"/language", `unknown language "de"; valid languages: one of "en", "ca", "es", "fr"`}}},
		{name: "language as a number", body: `{` + ok + `,"language":1}`,
			errs: []wantError{{"/language", "got number"}}},
		{name: "lang", body: `{` + ok + `,"lang":"fr"}`, errs: []wantError{{"/lang", `did you mean "language"?`}}},
		{name: "unknown kind of road", body: `{` + ok + `,"exclude":["toll","highway"]}`,
			errs: []wantError{{"/exclude/1", `unknown kind of road "highway"; must be one of "toll", "motorway", "ferry", "unpaved", "tunnel"`}}},
		{name: "kind of road repeated", body: `{` + ok + `,"exclude":["ferry","ferry"]}`,
			errs: []wantError{{"/exclude/1", `repeats "ferry"`}}},
		{name: "exclude as a string", body: `{` + ok + `,"exclude":"toll"}`, errs: []wantError{{"/exclude", "got string"}}},
		{name: "exclude item a number", body: `{` + ok + `,"exclude":[1]}`, errs: []wantError{{"/exclude/0", "got number"}}},
		{name: "avoid", body: `{` + ok + `,"avoid":["toll"]}`, errs: []wantError{{"/avoid", `did you mean "exclude"?`}}},
		{name: "include_steps as string", body: `{` + ok + `,"include_steps":"true"}`,
			errs: []wantError{{"/include_steps", "must be a boolean, got string"}}},
		{name: "repeated member", body: `{` + ok + `,"profile":"car","profile":"moto"}`,
			errs: []wantError{{"/profile", "more than once"}}},
		{name: "null profile", body: `{` + ok + `,"profile":null}`, errs: []wantError{{"/profile", "must not be null: omit the member"}}},
		{name: "nulls everywhere", body: `{` + ok + `,"alternatives":null,"geometry_format":null,"include_steps":null,
			"departure_time":null,"radiuses":null,"bearings":null,"language":null,"exclude":null}`,
			errs: []wantError{{"/alternatives", "not be null"}, {"/geometry_format", "not be null"}, {"/include_steps", "not be null"},
				{"/departure_time", "not be null"}, {"/radiuses", "not be null"}, {"/bearings", "not be null"},
				{"/language", "not be null"}, {"/exclude", "not be null"}}},
		{name: "profil", body: `{` + ok + `,"profil":"pedestrian"}`,
			errs: []wantError{{"/profil", `is not a member of a directions request; did you mean "profile"?`}}},
		{name: "mode", body: `{` + ok + `,"mode":"pedestrian"}`, errs: []wantError{{"/mode", `did you mean "profile"?`}}},
		{name: "alternative", body: `{` + ok + `,"alternative":2}`, errs: []wantError{{"/alternative", `did you mean "alternatives"?`}}},
		{name: "Profile in capitals", body: `{` + ok + `,"Profile":"car"}`, errs: []wantError{{"/Profile", `did you mean "profile"?`}}},
		{name: "radius for radiuses", body: `{` + ok + `,"radius":[5,5]}`, errs: []wantError{{"/radius", `did you mean "radiuses"?`}}},
		{name: "a member of another request", body: `{` + ok + `,"contours":[]}`,
			errs: []wantError{{"/contours", "whose members are coordinates, profile, departure_time"}}},
		{name: "nothing close", body: `{` + ok + `,"options":{"a":[1,{"b":null}]}}`, errs: []wantError{{"/options", "whose members are"}}},
		{name: "a name to escape", body: `{` + ok + `,"a/b~c":1}`, errs: []wantError{{"/a~1b~0c", "not a member"}}},
		{name: "radiuses, one too few", body: `{"coordinates":[[1,1],[2,2],[3,3]],"radiuses":[5,5]}`,
			errs: []wantError{{"/radiuses", "one radius per point (3), got 2"}}},
		{name: "radiuses counted against every coordinate sent", body: `{"radiuses":[5,5],"coordinates":[[1,1],[2,200]]}`,
			errs: []wantError{{"/coordinates/1/1", "latitude"}}},
		{name: "radius zero, negative, too large, string", body: `{"coordinates":[[1,1],[2,2],[3,3],[4,4]],"radiuses":[0,-1,35001,"5"]}`,
			errs: []wantError{{"/radiuses/0", "greater than 0 and at most 35000 metres, got 0"}, {"/radiuses/1", "got -1"},
				{"/radiuses/2", "got 35001"}, {"/radiuses/3", "got string"}}},
		{name: "bearings wrong", body: `{"coordinates":[[1,1],[2,2],[3,3],[4,4]],"bearings":[[361,10],[90,-1],[90],"north"]}`,
			errs: []wantError{{"/bearings/0/0", "bearing in degrees must be from 0 to 360, got 361"},
				{"/bearings/1/1", "tolerance in degrees must be from 0 to 180, got -1"}, {"/bearings/2", "got 1 items"},
				{"/bearings/3", "got string"}}},
		{name: "bearings as object", body: `{` + ok + `,"bearings":{"0":[1,1]}}`, errs: []wantError{{"/bearings", "got object"}}},
		{name: "every error reported", body: `{"coordinates":[[1,95],[200,1]],"profile":"x","alternatives":9,"geometry_format":1,
			"include_steps":0,"departure_time":"2026-11-24T08:00:00"}`,
			errs: []wantError{{"/coordinates/0/1", "swapped"}, {"/coordinates/1/0", "longitude"}, {"/profile", "unknown"},
				{"/alternatives", "got 9"}, {"/geometry_format", "got number"}, {"/include_steps", "boolean"},
				{"/departure_time", "offset"}}, detail: "7 fields are invalid"},
	}, directionsErr)
}

// TestDecodeMalformed covers bodies that are not a JSON object: no field errors, a detail with the byte offset.
func TestDecodeMalformed(t *testing.T) {
	checkInvalid(t, []invalidCase{
		{name: "empty", body: ``, detail: "malformed JSON at byte 0: the request body is empty"},
		{name: "only whitespace", body: " \n ", detail: "at byte 3: the request body is empty"},
		{name: "array", body: `[[1,2],[3,4]]`, detail: "must be a JSON object, found an array at byte 0"},
		{name: "string", body: ` "x"`, detail: "found a string at byte 1"},
		{name: "null", body: `null`, detail: "found null at byte 0"},
		{name: "garbage", body: `coordinates=1,2`, detail: "at byte 0: unexpected character 'c'"},
		{name: "trailing garbage", body: `{"coordinates":` + twoPoints + `}x`, detail: "at byte 51: unexpected data after"},
		{name: "two objects", body: `{}{}`, detail: "at byte 2: unexpected data after"},
		{name: "truncated", body: `{"coordinates":[[1,2],[3,`, detail: "at byte 25: unexpected end of input"},
		{name: "unterminated string", body: `{"coordinates`, detail: "at byte 13: unexpected end of input inside a string"},
		{name: "trailing comma", body: `{"coordinates":[[1,2],[3,4],]}`, detail: "at byte 28: unexpected character ']'"},
		{name: "missing colon", body: `{"coordinates" [[1,2],[3,4]]}`, detail: "at byte 15: expecting ':'"},
		{name: "single quotes", body: `{'coordinates':1}`, detail: "at byte 1: expecting a member name"},
		{name: "bad literal", body: `{"include_steps":tru}`, detail: "at byte 17: invalid literal"},
		{name: "NaN", body: `{"coordinates":[[NaN,1],[1,1]]}`, detail: "at byte 17: unexpected character 'N'"},
		{name: "leading plus", body: `{"coordinates":[[+1,1],[1,1]]}`, detail: "at byte 17"},
		{name: "leading zero", body: `{"coordinates":[[01,1],[1,1]]}`, detail: "at byte 18: unexpected character '1', expecting ','"},
		{name: "bare dot", body: `{"coordinates":[[1.,1],[1,1]]}`, detail: "at byte 19: malformed number"},
		{name: "bad escape", body: `{"profile":"\x"}`, detail: "at byte 12: invalid escape"},
		{name: "short unicode escape", body: `{"profile":"\u12"}`, detail: "at byte 12: invalid escape"},
		{name: "control character", body: "{\"profile\":\"a\tb\"}", detail: "at byte 13: control character byte 0x9"},
		{name: "syntax error beats field errors", body: `{"coordinates":[[1,200]],"profile":"x",}`, detail: "malformed JSON"},
		{name: "deep nesting in an ignored member", body: `{"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
			detail: "nested deeper than 512"},
		{name: "mismatched brackets", body: `{"x":[1}`, detail: "at byte 7: unexpected character '}', expecting ',' or ']'"},
	}, directionsErr)
}

func TestDecodeMatrix(t *testing.T) {
	req, inv := DecodeMatrix([]byte(`{"sources":[[1,2]],"targets":` + coordinateArray(100) + `,"profile":"bicycle",
		"departure_time":"2026-11-24T08:00:00Z"}`))
	if inv != nil {
		t.Fatalf("refused: %v", inv)
	}
	if !slices.Equal(req.Sources, []Coordinate{{1, 2}}) || !slices.Equal(req.Targets, coordinates(100)) ||
		req.Profile != "bicycle" || !req.HasDepartureTime || !req.DepartureTime.Equal(time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("got %+v", req)
	}
	req, inv = DecodeMatrix([]byte(`{"sources":[[1,2]],"targets":[[3,4]]}`))
	if inv != nil || req.Profile != "car" || req.HasDepartureTime {
		t.Errorf("defaults: got %+v, %v", req, inv)
	}
	checkInvalid(t, []invalidCase{
		{name: "both missing", body: `{}`, errs: []wantError{{"/sources", "required"}, {"/targets", "required"}}},
		{name: "empty sources", body: `{"sources":[],"targets":[[1,1]]}`, errs: []wantError{{"/sources", "1 to 100 coordinates, got 0"}}},
		{name: "101 targets", body: `{"sources":[[1,1]],"targets":` + coordinateArray(101) + `}`,
			errs: []wantError{{"/targets", "got 101"}}},
		{name: "swapped target", body: `{"sources":[[1,1]],"targets":[[1,1],[42.5,120]]}`,
			errs: []wantError{{"/targets/1/1", "swapped"}}},
	}, matrixErr)
	req, inv = DecodeMatrix([]byte(`{"sources":[[1,2],[3,4]],"targets":[[5,6]],"source_radiuses":[null,20],
		"target_bearings":[[90,45]]}`))
	if inv != nil || !slices.Equal(req.SourceRadiuses, []float64{0, 20}) || req.TargetRadiuses != nil ||
		!slices.Equal(req.TargetBearings, []Bearing{{90, 45, true}}) || req.SourceBearings != nil {
		t.Errorf("snapping controls: got %+v, %v", req, inv)
	}
	checkInvalid(t, []invalidCase{
		{name: "members of other requests", body: `{"sources":[[1,1]],"targets":[[1,1]],"alternatives":"x","coordinates":7}`,
			errs: []wantError{{"/alternatives", "is not a member of a matrix request, whose members are sources, targets"},
				{"/coordinates", "not a member"}}},
		{name: "origins and destinations", body: `{"origins":[[1,1]],"destinations":[[1,1]]}`,
			errs: []wantError{{"/origins", `did you mean "sources"?`}, {"/destinations", `did you mean "targets"?`},
				{"/sources", "required"}, {"/targets", "required"}}},
		{name: "radiuses per target, not per source", body: `{"sources":[[1,1]],"targets":[[1,1],[2,2]],"target_radiuses":[1],
			"source_bearings":[[1,1],[2,2]]}`,
			errs: []wantError{{"/source_bearings", "one bearing per point (1), got 2"}, {"/target_radiuses", "one radius per point (2), got 1"}}},
		{name: "radiuses on a matrix", body: `{"sources":[[1,1]],"targets":[[1,1]],"radiuses":[1,1]}`,
			errs: []wantError{{"/radiuses", "not a member"}}},
	}, matrixErr)
}

func TestDecodeIsochrone(t *testing.T) {
	req, inv := DecodeIsochrone([]byte(`{"origin":[1.5218,42.5063],"profile":"moto","contours":[{"time_minutes":10},
		{"distance_km":0.5},{"time_minutes":120},{"distance_km":100}],"radius":250,"bearing":[270,30]}`))
	if inv != nil {
		t.Fatalf("refused: %v %+v", inv, inv.Errors)
	}
	want := []Contour{{Minutes: 10}, {Kilometers: 0.5}, {Minutes: 120}, {Kilometers: 100}}
	if req.Origin != (Coordinate{1.5218, 42.5063}) || req.Profile != "moto" || !slices.Equal(req.Contours, want) ||
		req.Radius != 250 || req.Bearing != (Bearing{270, 30, true}) {
		t.Errorf("got %+v", req)
	}
	checkInvalid(t, []invalidCase{
		{name: "both missing", body: `{}`, errs: []wantError{{"/origin", "required"}, {"/contours", "required"}}},
		{name: "origin swapped", body: `{"origin":[42.5,91.5],"contours":[{"time_minutes":10}]}`,
			errs: []wantError{{"/origin/1", "swapped"}}},
		{name: "origin as string", body: `{"origin":"1,2","contours":[{"time_minutes":10}]}`,
			errs: []wantError{{"/origin", "got string"}}},
		{name: "both budgets", body: `{"origin":[1,1],"contours":[{"time_minutes":10},{"time_minutes":10,"distance_km":2}]}`,
			errs: []wantError{{"/contours/1", "exactly one of time_minutes (1 to 120) or distance_km (0.5 to 100)"}}},
		{name: "no budget", body: `{"origin":[1,1],"contours":[{}]}`, errs: []wantError{{"/contours/0", "exactly one"}}},
		{name: "time out of range", body: `{"origin":[1,1],"contours":[{"time_minutes":0.5}]}`,
			errs: []wantError{{"/contours/0/time_minutes", "from 1 to 120 minutes, got 0.5"}}},
		{name: "distance out of range", body: `{"origin":[1,1],"contours":[{"distance_km":100.5}]}`,
			errs: []wantError{{"/contours/0/distance_km", "from 0.5 to 100 km"}}},
		{name: "budget as string", body: `{"origin":[1,1],"contours":[{"time_minutes":"10"}]}`,
			errs: []wantError{{"/contours/0/time_minutes", "got string"}}},
		{name: "contour as number", body: `{"origin":[1,1],"contours":[10]}`, errs: []wantError{{"/contours/0", "got number"}}},
		{name: "no contours", body: `{"origin":[1,1],"contours":[]}`, errs: []wantError{{"/contours", "1 to 4 contours, got 0"}}},
		{name: "five contours", body: `{"origin":[1,1],"contours":[{"time_minutes":1},{"time_minutes":2},{"time_minutes":3},
			{"time_minutes":4},{"time_minutes":5}]}`, errs: []wantError{{"/contours", "got 5"}}},
		{name: "repeated budget", body: `{"origin":[1,1],"contours":[{"time_minutes":1,"time_minutes":2}]}`,
			errs: []wantError{{"/contours/0/time_minutes", "more than once"}}},
		{name: "a null budget, at its own pointer", body: `{"origin":[1,1],"contours":[{"time_minutes":5},{"time_minutes":null}]}`,
			errs: []wantError{{"/contours/1/time_minutes", "must be a number from 1 to 120 minutes, got null"}}},
		{name: "a null beside a budget", body: `{"origin":[1,1],"contours":[{"time_minutes":120,"distance_km":null}]}`,
			errs: []wantError{{"/contours/0/distance_km", "got null"}}},
		{name: "a typo in a contour", body: `{"origin":[1,1],"contours":[{"time_minute":5},{"distance_km":1,"unit":"km"}]}`,
			errs: []wantError{{"/contours/0/time_minute", `did you mean "time_minutes"?`}, {"/contours/0", "exactly one"},
				{"/contours/1/unit", "whose members are time_minutes, distance_km"}}},
		{name: "location", body: `{"location":[1,1],"contours":[{"time_minutes":5}]}`,
			errs: []wantError{{"/location", `did you mean "origin"?`}, {"/origin", "required"}}},
		{name: "radius and bearing", body: `{"origin":[1,1],"contours":[{"time_minutes":5}],"radius":null,"bearing":[90,200]}`,
			errs: []wantError{{"/radius", "must be a number (radius in metres), got null"}, {"/bearing/1", "from 0 to 180, got 200"}}},
	}, isochroneErr)
}

func TestDecodeElevation(t *testing.T) {
	req, inv := DecodeElevation([]byte(`{"coordinates":` + coordinateArray(1000) + `}`))
	if inv != nil || !slices.Equal(req.Coordinates, coordinates(1000)) {
		t.Fatalf("1000 points: %v", inv)
	}
	checkInvalid(t, []invalidCase{
		{name: "none", body: `{"coordinates":[]}`, errs: []wantError{{"/coordinates", "1 to 1000 coordinates, got 0"}}},
		{name: "1001", body: `{"coordinates":` + coordinateArray(1001) + `}`, errs: []wantError{{"/coordinates", "got 1001"}}},
		{name: "missing", body: `{"points":[[1,1]]}`,
			errs: []wantError{{"/points", `is not a member of an elevation request; did you mean "coordinates"?`}, {"/coordinates", "required"}}},
	}, elevationErr)
}

// TestErrorsCapped checks the spec's limit of 50 field errors on a body with a thousand bad coordinates.
func TestErrorsCapped(t *testing.T) {
	bad := strings.TrimSuffix(strings.Repeat("[1,100],", 1000), ",")
	inv := elevationErr([]byte(`{"coordinates":[` + bad + `]}`))
	if inv == nil {
		t.Fatal("accepted")
	}
	assertWellFormed(t, inv)
	if len(inv.Errors) != MaxFieldErrors || inv.Errors[49].Field != "/coordinates/49/1" {
		t.Errorf("got %d errors, last %+v", len(inv.Errors), inv.Errors[len(inv.Errors)-1])
	}
	if inv.Detail != "1000 fields are invalid; the first 50 are listed" {
		t.Errorf("detail %q", inv.Detail)
	}
}

func TestInvalidRequestError(t *testing.T) {
	inv := directionsErr([]byte(`{"coordinates":[[1,1],[1,100]],"profile":"x"}`))
	want := "invalid request: 2 fields are invalid (/coordinates/1/1: latitude must be between -90 and 90, got 100: " +
		"the pair looks swapped; coordinates are [longitude, latitude], ...)"
	if inv.Error() != want {
		t.Errorf("Error() = %q\nwant %q", inv.Error(), want)
	}
}

// coordinateArray writes n distinct valid coordinates as JSON, matching coordinates(n).
func coordinateArray(n int) string {
	parts := make([]string, n)
	for i, c := range coordinates(n) {
		parts[i] = fmt.Sprintf("[%v,%v]", c[0], c[1])
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func coordinates(n int) []Coordinate {
	out := make([]Coordinate, n)
	for i := range out {
		out[i] = Coordinate{1.4 + float64(i)*0.001, 42.4 + float64(i%90)*0.0015}
	}
	return out
}

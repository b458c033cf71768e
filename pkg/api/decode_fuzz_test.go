package api

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/guidance"
)

// The fuzz targets check what must hold for any body: no panic; a refusal is well formed (one-line detail, at
// most 50 field errors, each a non-empty pointer and message within 200 characters) and has no field errors when
// the body is not valid JSON; an accepted body is valid JSON and its request satisfies every limit.

var fuzzSeeds = []string{
	``, ` `, `{}`, `[]`, `null`, `{"coordinates":` + twoPoints + `}`,
	`{"coordinates":` + twoPoints + `,"profile":"moto","alternatives":3,"geometry_format":"geojson","include_steps":true,` +
		`"departure_time":"2026-11-24T08:00:00+01:00"}`,
	`{"coordinates":[[1,95],[200,1]],"profile":"x","alternatives":9,"geometry_format":1,"departure_time":"2026-11-24T08:00:00"}`,
	`{"coordinates":[[1e999,1],[1,2,3],"x",null,{}],"alternatives":1.5}`,
	`{"sources":[[1,2]],"targets":[[3,4],[5,6]],"profile":"truck","departure_time":"2026-11-24T08:00:00Z"}`,
	`{"sources":[],"targets":[[1,-91]]}`,
	`{"origin":[1.5,42.5],"contours":[{"time_minutes":10},{"distance_km":2.5}]}`,
	`{"origin":[1,1],"contours":[{"time_minutes":10,"distance_km":2},{},{"time_minutes":0}]}`,
	`{"coordinates":[[1,2]]}`, `{"coordinates":[[1,2]],"coordinates":[[1,2]]}`,
	`{"\u0063oordinates":[[1,2],[3,4]],"profile":"\ud83d\ude00"}`, `{"x":[[[[{"y":[]}]]]]}`, `{"a":1}x`,
	`{"coordinates":[[-0,0.0e+0],[1E-5,-1.5e2]]}`, `{"profile":"car",}`, `{"coordinates":[[01,1]]}`,
	`{"coordinates":` + twoPoints + `,"radiuses":[null,25.5],"bearings":[[90,45],null]}`,
	`{"coordinates":[[1,2],[3,4],[5,6]],"radiuses":[0,-1,"x"],"bearings":[[400,1],[1],7]}`,
	`{"sources":[[1,2],[3,4]],"targets":[[5,6]],"source_radiuses":[10,null],"target_bearings":[[0,180]],` +
		`"source_bearings":null,"target_radiuses":[1,2]}`,
	`{"origin":[1.5,42.5],"contours":[{"time_minutes":null},{"time_minute":5}],"radius":100,"bearing":[180,20]}`,
	`{"profil":"car","mode":1,"alternative":2,"a/b~":null}`,
	`{"coordinates":` + twoPoints + `,"timestamps":[1764316800,"2026-11-28T08:00:05+01:00"],"radiuses":[5,null],` +
		`"include_steps":true,"geometry_format":"geojson"}`,
	`{"coordinates":[[1,2],[3,4],[5,6]],"timestamps":[10,9.5,"2026-11-28T08:00:00","x",null,-1,1e300],"times":[]}`,
	`{"coordinates":` + twoPoints + `,"include_steps":true,"language":"ca"}`,
	`{"coordinates":` + twoPoints + `,"language":"fr-FR"}`, `{"coordinates":` + twoPoints + `,"language":"de","lang":"es"}`,
	`{"coordinates":` + twoPoints + `,"language":"\u0065s"}`, `{"coordinates":` + twoPoints + `,"language":["en"]}`,
	`{"coordinates":` + twoPoints + `,"exclude":["toll","tunnel","unpaved","ferry","motorway"]}`,
	`{"coordinates":` + twoPoints + `,"exclude":["toll","toll",null,1,"\u0074oll",[]]}`,
	`{"sources":[[1,2]],"targets":[[3,4]],"exclude":["unpaved"]}`, `{"origin":[1.5,42.5],"contours":[{"time_minutes":5}],"exclude":{}}`,
	`{"coordinates":` + twoPoints + `,"avoid_areas":{"type":"Polygon","coordinates":[[[1.6,42.4],[1.7,42.4],[1.7,42.45],[1.6,42.4]]]}}`,
	`{"coordinates":` + twoPoints + `,"avoid_areas":{"coordinates":[[[[1.6,42.4],[1.7,42.4],[1.7,42.45],[1.6,42.4]],[[1,2],[3]]],[]],"type":"MultiPolygon"}}`,
	`{"coordinates":` + twoPoints + `,"avoid_areas":{"type":"Polygon","type":"Point","coordinates":[[[1,"a"],null,[200,95]]],"bbox":[1,2,3,4]}}`,
	`{"coordinates":` + twoPoints + `,"avoid_areas":{"type":"MultiPolygon","coordinates":[[[[1.5218,42.5],[1.53,42.5],[1.53,42.51],[1.5218,42.5]]]]}}`,
	`{"coordinates":` + twoPoints + `,"avoid_areas":{"type":"Polygon","coordinates":[[[1.5,42.5],[1.5,42.5],[1.5,42.5],[1.5,42.5]]]},"avoid_areas":null}`,
	`{"coordinates":` + twoPoints + `,"profile":"pedestrian","max_hiking_difficulty":"T6","avoid_steps":true}`,
	`{"coordinates":` + twoPoints + `,"max_hiking_difficulty":"t3","profile":"pedestrian_loaded"}`, `{"coordinates":` + twoPoints + `,"profile":"bicycle","avoid_steps":null}`,
	`{"sources":[[1.5,42.5]],"targets":[[1.6,42.5]],"avoid_areas":{"type":"Polygon","coordinates":[[[1.4,42.4],[1.55,42.4],[1.55,42.6],[1.4,42.4]]]}}`,
	`{"origin":[1.5,42.5],"contours":[{"time_minutes":5}],"avoid_areas":{"type":"Polygon","coordinates":[]},"max_hiking_difficulty":"T1"}`,
}

func addSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
}

// checkRefusal checks the InvalidRequest limits and that malformed JSON yields no field errors.
func checkRefusal(t *testing.T, body []byte, inv *InvalidRequest) {
	t.Helper()
	assertWellFormed(t, inv)
	if !json.Valid(body) && len(inv.Errors) != 0 {
		t.Errorf("malformed body %q got field errors %+v", body, inv.Errors)
	}
}

// checkAccepted checks that an accepted body is valid JSON.
func checkAccepted(t *testing.T, body []byte) {
	t.Helper()
	if !json.Valid(body) {
		t.Fatalf("accepted a body that is not valid JSON: %q", body)
	}
}

func checkCoordinates(t *testing.T, cs []Coordinate, min, max int) {
	t.Helper()
	if len(cs) < min || len(cs) > max {
		t.Errorf("%d coordinates outside %d..%d", len(cs), min, max)
	}
	for _, c := range cs {
		checkCoordinate(t, c)
	}
}

func checkCoordinate(t *testing.T, c Coordinate) {
	t.Helper()
	if math.IsNaN(c[0]) || math.IsNaN(c[1]) || c[0] < -180 || c[0] > 180 || c[1] < -90 || c[1] > 90 {
		t.Errorf("coordinate %v out of range", c)
	}
}

func checkProfile(t *testing.T, p string) {
	t.Helper()
	for _, name := range Profiles() {
		if p == name {
			return
		}
	}
	t.Errorf("profile %q is not valid", p)
}

func checkTime(t *testing.T, has bool, tm interface{ IsZero() bool }) {
	t.Helper()
	if !has && !tm.IsZero() {
		t.Errorf("departure time set without HasDepartureTime")
	}
}

func FuzzDecodeDirections(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, inv := DecodeDirections(body)
		if inv != nil {
			checkRefusal(t, body, inv)
			return
		}
		checkAccepted(t, body)
		checkCoordinates(t, req.Coordinates, MinDirectionsCoordinates, MaxDirectionsCoordinates)
		checkProfile(t, req.Profile)
		checkTime(t, req.HasDepartureTime, req.DepartureTime)
		if req.Alternatives < MinAlternatives || req.Alternatives > MaxAlternatives {
			t.Errorf("alternatives %d", req.Alternatives)
		}
		if req.GeometryFormat != GeometryPolyline6 && req.GeometryFormat != GeometryGeoJSON {
			t.Errorf("geometry format %q", req.GeometryFormat)
		}
		checkSnapping(t, len(req.Coordinates), req.Radiuses, req.Bearings)
		if req.Language != "" && !slices.Contains(guidance.Languages, req.Language) {
			t.Errorf("language %q", req.Language)
		}
	})
}

// checkSnapping checks radiuses and bearings: absent, or one per point, each null or within its limits.
func checkSnapping(t *testing.T, points int, radiuses []float64, bearings []Bearing) {
	t.Helper()
	if radiuses != nil && len(radiuses) != points || bearings != nil && len(bearings) != points {
		t.Errorf("%d radiuses and %d bearings for %d points", len(radiuses), len(bearings), points)
	}
	for _, r := range radiuses {
		if r < 0 || r > MaxRadius || math.IsNaN(r) {
			t.Errorf("radius %v", r)
		}
	}
	for _, b := range bearings {
		if b.Given && (b.Degrees < 0 || b.Degrees > MaxBearing || b.Tolerance < 0 || b.Tolerance > MaxBearingTolerance) {
			t.Errorf("bearing %+v", b)
		}
	}
}

func FuzzDecodeMatrix(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, inv := DecodeMatrix(body)
		if inv != nil {
			checkRefusal(t, body, inv)
			return
		}
		checkAccepted(t, body)
		checkCoordinates(t, req.Sources, MinMatrixLocations, MaxMatrixLocations)
		checkCoordinates(t, req.Targets, MinMatrixLocations, MaxMatrixLocations)
		checkProfile(t, req.Profile)
		checkTime(t, req.HasDepartureTime, req.DepartureTime)
		checkSnapping(t, len(req.Sources), req.SourceRadiuses, req.SourceBearings)
		checkSnapping(t, len(req.Targets), req.TargetRadiuses, req.TargetBearings)
	})
}

func FuzzDecodeIsochrone(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, inv := DecodeIsochrone(body)
		if inv != nil {
			checkRefusal(t, body, inv)
			return
		}
		checkAccepted(t, body)
		checkCoordinate(t, req.Origin)
		checkProfile(t, req.Profile)
		checkSnapping(t, 1, []float64{req.Radius}, []Bearing{req.Bearing})
		checkTime(t, req.HasDepartureTime, req.DepartureTime)
		if len(req.Contours) < MinContours || len(req.Contours) > MaxContours {
			t.Errorf("%d contours", len(req.Contours))
		}
		for _, c := range req.Contours {
			byTime := c.Minutes >= MinContourMinutes && c.Minutes <= MaxContourMinutes && c.Kilometers == 0
			byDistance := c.Kilometers >= MinContourKilometers && c.Kilometers <= MaxContourKilometers && c.Minutes == 0
			if !byTime && !byDistance {
				t.Errorf("contour %+v", c)
			}
		}
	})
}

func FuzzDecodeElevation(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, inv := DecodeElevation(body)
		if inv != nil {
			checkRefusal(t, body, inv)
			return
		}
		checkAccepted(t, body)
		checkCoordinates(t, req.Coordinates, MinElevationCoordinates, MaxElevationCoordinates)
	})
}

func FuzzDecodeMatch(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		req, inv := DecodeMatch(body)
		if inv != nil {
			checkRefusal(t, body, inv)
			return
		}
		checkAccepted(t, body)
		checkCoordinates(t, req.Coordinates, MinMatchCoordinates, MaxMatchCoordinates)
		checkProfile(t, req.Profile)
		checkSnapping(t, len(req.Coordinates), req.Radiuses, nil)
		if req.Timestamps != nil && len(req.Timestamps) != len(req.Coordinates) {
			t.Errorf("%d timestamps for %d points", len(req.Timestamps), len(req.Coordinates))
		}
		for i := 1; i < len(req.Timestamps); i++ {
			if req.Timestamps[i].Before(req.Timestamps[i-1]) {
				t.Errorf("timestamp %d (%v) before %d (%v)", i, req.Timestamps[i], i-1, req.Timestamps[i-1])
			}
		}
		if req.GeometryFormat != GeometryPolyline6 && req.GeometryFormat != GeometryGeoJSON {
			t.Errorf("geometry format %q", req.GeometryFormat)
		}
	})
}

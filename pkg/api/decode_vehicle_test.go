package api

import (
	"testing"

	"github.com/mapsco/maps/pkg/route"
)

// The truck's vehicle (issue 35): accepted within its ranges on the truck, on directions, matrix and isochrone;
// every bad member refused at its own pointer; refused on any other profile at /vehicle.

const truckPoints = `"profile":"truck","coordinates":` + twoPoints

func TestDecodeVehicleValid(t *testing.T) {
	for _, c := range []struct {
		body string
		want route.Vehicle
	}{
		{`{` + truckPoints + `,"vehicle":{"height_m":4.4}}`, route.Vehicle{HeightM: 4.4}},
		{`{"vehicle":{"height_m":1,"width_m":5,"length_m":30,"weight_t":100,"axle_load_t":30,"hazmat":true},` + truckPoints + `}`,
			route.Vehicle{HeightM: 1, WidthM: 5, LengthM: 30, WeightT: 100, AxleLoadT: 30, Hazmat: true}},
		{`{` + truckPoints + `,"vehicle":{"hazmat":false,"weight_t":7.5}}`, route.Vehicle{WeightT: 7.5}},
		{`{` + truckPoints + `,"vehicle":{}}`, route.Vehicle{}},
	} {
		req, inv := DecodeDirections([]byte(c.body))
		if inv != nil {
			t.Errorf("%s refused: %s %v", c.body, inv.Detail, inv.Errors)
			continue
		}
		if req.Vehicle != c.want {
			t.Errorf("%s: vehicle %+v, want %+v", c.body, req.Vehicle, c.want)
		}
	}
	m, inv := DecodeMatrix([]byte(`{"profile":"truck","sources":[[1,2]],"targets":[[3,4]],"vehicle":{"width_m":2.6}}`))
	if inv != nil || m.Vehicle != (route.Vehicle{WidthM: 2.6}) {
		t.Errorf("matrix: %+v, %v", m.Vehicle, inv)
	}
	both, inv := DecodeDirections([]byte(`{` + truckPoints + `,"exclude":["toll"],"vehicle":{"height_m":4.4},` +
		`"avoid_areas":{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50]]]}}`))
	if inv != nil || both.Vehicle != (route.Vehicle{HeightM: 4.4}) || both.Exclude != route.ExcludeToll || both.Avoid.Areas == nil {
		t.Errorf("exclude, vehicle and avoid_areas together: %+v, %+v, %+v, %v", both.Exclude, both.Vehicle, both.Avoid, inv)
	}
	i, inv := DecodeIsochrone([]byte(`{"profile":"truck","origin":[1.5,42.5],"contours":[{"time_minutes":5}],"vehicle":{"length_m":16.5}}`))
	if inv != nil || i.Vehicle != (route.Vehicle{LengthM: 16.5}) {
		t.Errorf("isochrone: %+v, %v", i.Vehicle, inv)
	}
}

func TestDecodeVehicleInvalid(t *testing.T) {
	checkInvalid(t, []invalidCase{
		{name: "too high", body: `{` + truckPoints + `,"vehicle":{"height_m":6.5}}`,
			errs: []wantError{{"/vehicle/height_m", "must be from 1 to 6 m, got 6.5"}}},
		{name: "in feet", body: `{` + truckPoints + `,"vehicle":{"height_m":14}}`,
			errs: []wantError{{"/vehicle/height_m", "must be from 1 to 6 m"}}},
		{name: "in kilograms", body: `{` + truckPoints + `,"vehicle":{"weight_t":18000}}`,
			errs: []wantError{{"/vehicle/weight_t", "must be from 1 to 100 t, got 18000"}}},
		{name: "every member bad", body: `{` + truckPoints + `,"vehicle":{"height_m":0,"width_m":"2.5","length_m":null,"weight_t":-1,"axle_load_t":31,"hazmat":"yes"}}`,
			errs: []wantError{{"/vehicle/height_m", "from 1 to 6 m"}, {"/vehicle/width_m", "got string"},
				{"/vehicle/length_m", "must not be null"}, {"/vehicle/weight_t", "from 1 to 100 t"},
				{"/vehicle/axle_load_t", "from 1 to 30 t"}, {"/vehicle/hazmat", "got string"}}},
		{name: "unknown member", body: `{` + truckPoints + `,"vehicle":{"height":4}}`,
			errs: []wantError{{"/vehicle/height", "is not a member of a vehicle, whose members are height_m, width_m"}}},
		{name: "repeated member", body: `{` + truckPoints + `,"vehicle":{"height_m":4,"height_m":5}}`,
			errs: []wantError{{"/vehicle/height_m", "more than once"}}},
		{name: "not an object", body: `{` + truckPoints + `,"vehicle":4.4}`, errs: []wantError{{"/vehicle", "got number"}}},
		{name: "null", body: `{` + truckPoints + `,"vehicle":null}`, errs: []wantError{{"/vehicle", "must not be null"}}},
		{name: "on the car", body: `{"coordinates":` + twoPoints + `,"vehicle":{"height_m":4}}`,
			errs: []wantError{{"/vehicle", `applies only to profile "truck"; the request's profile is "car"`}}},
		{name: "vehicle_type", body: `{` + truckPoints + `,"vehicle_type":{"height_m":4}}`,
			errs: []wantError{{"/vehicle_type", `did you mean "vehicle"?`}}},
		// "vehicle" was an alias of profile before it was a member: the member wins, whatever its case.
		{name: "Vehicle", body: `{` + truckPoints + `,"Vehicle":{"height_m":4}}`,
			errs: []wantError{{"/Vehicle", `did you mean "vehicle"?`}}},
	}, func(b []byte) *InvalidRequest { _, inv := DecodeDirections(b); return inv })
	checkInvalid(t, []invalidCase{
		{name: "matrix on the moto", body: `{"profile":"moto","sources":[[1,2]],"targets":[[3,4]],"vehicle":{}}`,
			errs: []wantError{{"/vehicle", `applies only to profile "truck"`}}},
	}, func(b []byte) *InvalidRequest { _, inv := DecodeMatrix(b); return inv })
	checkInvalid(t, []invalidCase{
		{name: "isochrone width", body: `{"profile":"truck","origin":[1.5,42.5],"contours":[{"time_minutes":5}],"vehicle":{"width_m":0.5}}`,
			errs: []wantError{{"/vehicle/width_m", "from 1 to 5 m"}}},
	}, func(b []byte) *InvalidRequest { _, inv := DecodeIsochrone(b); return inv })
}

// vehicleSeeds start the decoders' fuzzers on the vehicle member.
var vehicleSeeds = []string{
	`{` + truckPoints + `,"vehicle":{"height_m":4.4,"width_m":2.55,"length_m":12,"weight_t":18,"axle_load_t":11.5,"hazmat":true}}`,
	`{` + truckPoints + `,"vehicle":{"height_m":1e400,"width_m":-0,"length_m":[],"weight_t":{},"hazmat":null,"":1}}`,
	`{"coordinates":` + twoPoints + `,"vehicle":{},"profile":"bicycle"}`,
	`{"profile":"truck","sources":[[1,2]],"targets":[[3,4]],"vehicle":{"height_m":4.4,"height_m":4.4}}`,
	`{"profile":"truck","origin":[1.5,42.5],"contours":[{"time_minutes":5}],"vehicle":{"\u0068azmat":true}}`,
}

func init() { fuzzSeeds = append(fuzzSeeds, vehicleSeeds...) }

// FuzzDecodeVehicle: whatever the body, an accepted vehicle has every size 0 (absent) or within its range, and
// belongs to a truck request.
func FuzzDecodeVehicle(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if req, inv := DecodeDirections(body); inv == nil {
			checkVehicle(t, req.Profile, req.Vehicle)
		}
		if req, inv := DecodeMatrix(body); inv == nil {
			checkVehicle(t, req.Profile, req.Vehicle)
		}
		if req, inv := DecodeIsochrone(body); inv == nil {
			checkVehicle(t, req.Profile, req.Vehicle)
		}
	})
}

func checkVehicle(t *testing.T, profile string, v route.Vehicle) {
	t.Helper()
	if !v.IsZero() && profile != VehicleProfile {
		t.Fatalf("vehicle %+v accepted on profile %s", v, profile)
	}
	for _, s := range vehicleSizes {
		if x := *s.field(&v); x != 0 && (x < s.min || x > s.max) {
			t.Fatalf("vehicle %s %v accepted, outside %v..%v", s.name, x, s.min, s.max)
		}
	}
}

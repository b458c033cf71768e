package api

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// TestDecodeDirectionsRoundTrip is the property: any valid request, written by encoding/json, decodes to itself.
func TestDecodeDirectionsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	profiles := Profiles()
	for i := range 500 {
		want := DirectionsRequest{
			Coordinates:    randomCoordinates(rng, MinDirectionsCoordinates+rng.IntN(MaxDirectionsCoordinates-1)),
			Profile:        profiles[rng.IntN(len(profiles))],
			Alternatives:   rng.IntN(MaxAlternatives + 1),
			GeometryFormat: []string{GeometryPolyline6, GeometryGeoJSON}[rng.IntN(2)],
			IncludeSteps:   rng.IntN(2) == 0,
		}
		body := map[string]any{"coordinates": want.Coordinates, "profile": want.Profile, "alternatives": want.Alternatives,
			"geometry_format": want.GeometryFormat, "include_steps": want.IncludeSteps}
		if rng.IntN(2) == 0 {
			want.Radiuses, want.Bearings = randomSnapping(rng, len(want.Coordinates))
			body["radiuses"], body["bearings"] = jsonRadiuses(want.Radiuses), jsonBearings(want.Bearings)
		}
		if rng.IntN(2) == 0 {
			want.HasDepartureTime = true
			want.DepartureTime = time.Unix(rng.Int64N(4e9), 0).In(time.FixedZone("", (rng.IntN(49)-24)*1800))
			body["departure_time"] = want.DepartureTime.Format(time.RFC3339)
		}
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		got, inv := DecodeDirections(raw)
		if inv != nil {
			t.Fatalf("case %d refused %s: %v %+v", i, raw, inv, inv.Errors)
		}
		if !got.DepartureTime.Equal(want.DepartureTime) {
			t.Fatalf("case %d: departure %v, want %v", i, got.DepartureTime, want.DepartureTime)
		}
		got.DepartureTime, want.DepartureTime = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %s\ngot  %+v\nwant %+v", i, raw, got, want)
		}
	}
}

// randomSnapping draws one radius and one bearing per point, a quarter of each null.
func randomSnapping(rng *rand.Rand, n int) ([]float64, []Bearing) {
	radiuses, bearings := make([]float64, n), make([]Bearing, n)
	for i := range n {
		if rng.IntN(4) > 0 {
			radiuses[i] = math.Max(0.001, rng.Float64()*MaxRadius)
		}
		if rng.IntN(4) > 0 {
			bearings[i] = Bearing{Degrees: rng.Float64() * MaxBearing, Tolerance: float64(rng.IntN(181)), Given: true}
		}
	}
	return radiuses, bearings
}

func jsonRadiuses(rs []float64) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		if r > 0 {
			out[i] = r
		}
	}
	return out
}

func jsonBearings(bs []Bearing) []any {
	out := make([]any, len(bs))
	for i, b := range bs {
		if b.Given {
			out[i] = []float64{b.Degrees, b.Tolerance}
		}
	}
	return out
}

func randomCoordinates(rng *rand.Rand, n int) []Coordinate {
	out := make([]Coordinate, n)
	for i := range out {
		out[i] = Coordinate{rng.Float64()*360 - 180, rng.Float64()*180 - 90}
		if rng.IntN(10) == 0 { // the exact limits are valid too
			out[i] = Coordinate{math.Copysign(180, out[i][0]), math.Copysign(90, out[i][1])}
		}
	}
	return out
}

// TestDecodeMutations is a deterministic fuzz run inside go test: random byte edits of valid and invalid bodies
// through all four decoders, checking the same properties as the fuzz targets.
func TestDecodeMutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const alphabet = `{}[],:"\ -+.eE0123456789tfnulxZT`
	for range 20000 {
		body := []byte(fuzzSeeds[rng.IntN(len(fuzzSeeds))])
		for range 1 + rng.IntN(3) {
			body = mutate(rng, body, alphabet)
		}
		for _, decode := range []func([]byte) *InvalidRequest{directionsErr, matrixErr, isochroneErr, elevationErr} {
			if inv := decode(body); inv != nil {
				checkRefusal(t, body, inv)
			} else {
				checkAccepted(t, body)
			}
		}
	}
}

// mutate inserts, deletes or replaces one byte.
func mutate(rng *rand.Rand, body []byte, alphabet string) []byte {
	pos := 0
	if len(body) > 0 {
		pos = rng.IntN(len(body))
	}
	c := alphabet[rng.IntN(len(alphabet))]
	switch op := rng.IntN(3); {
	case op == 0 || len(body) == 0:
		return append(body[:pos:pos], append([]byte{c}, body[pos:]...)...)
	case op == 1:
		return append(body[:pos:pos], body[pos+1:]...)
	default:
		out := append([]byte(nil), body...)
		out[pos] = c
		return out
	}
}

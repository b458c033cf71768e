package api

import (
	"strings"
	"testing"
	"time"
)

func TestDecodeMatchValid(t *testing.T) {
	got, inv := DecodeMatch([]byte(`{"coordinates":[[1.52,42.50],[1.53,42.51],[1.54,42.52]],` +
		`"timestamps":[1795852800,"2026-11-28T09:00:05.5+01:00",1795852805.5],"radiuses":[10,null,35000],` +
		`"profile":"moto","geometry_format":"geojson","include_steps":true}`))
	if inv != nil {
		t.Fatalf("refused: %v %+v", inv, inv.Errors)
	}
	t0 := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	want := []time.Time{t0, t0.Add(5500 * time.Millisecond), t0.Add(5500 * time.Millisecond)}
	for i, w := range want {
		if !got.Timestamps[i].Equal(w) {
			t.Errorf("timestamp %d: %v, want %v", i, got.Timestamps[i], w)
		}
	}
	if len(got.Coordinates) != 3 || got.Profile != "moto" || got.GeometryFormat != "geojson" || !got.IncludeSteps ||
		len(got.Radiuses) != 3 || got.Radiuses[1] != 0 || got.Radiuses[2] != 35000 {
		t.Errorf("decoded %+v", got)
	}
	if got, inv := DecodeMatch([]byte(`{"coordinates":` + coordinateArray(MaxMatchCoordinates) + `}`)); inv != nil ||
		len(got.Coordinates) != MaxMatchCoordinates || got.Timestamps != nil || got.Profile != "car" {
		t.Errorf("2000 points: %v", inv)
	}
}

func TestDecodeMatchInvalid(t *testing.T) {
	tests := []struct {
		name, body, field, message string
	}{
		{"timestamps decrease", `{"coordinates":[[1,2],[3,4],[5,6]],"timestamps":[10,20,19.5]}`,
			"/timestamps/2", "earlier than timestamp 1"},
		{"decrease across forms", `{"coordinates":[[1,2],[3,4]],"timestamps":["2026-11-28T08:00:00Z",1795852799]}`,
			"/timestamps/1", "timestamps must not decrease"},
		{"no offset", `{"coordinates":[[1,2],[3,4]],"timestamps":[1,"2026-11-28T08:00:00"]}`, "/timestamps/1", "no UTC offset"},
		{"negative seconds", `{"coordinates":[[1,2],[3,4]],"timestamps":[-1,2]}`, "/timestamps/0", "from 0 to"},
		{"a timestamp of another type", `{"coordinates":[[1,2],[3,4]],"timestamps":[1,true]}`, "/timestamps/1", "seconds since 1970"},
		{"too few timestamps", `{"coordinates":[[1,2],[3,4],[5,6]],"timestamps":[1,2]}`, "/timestamps", "one timestamp per point (3), got 2"},
		{"radiuses length", `{"coordinates":[[1,2],[3,4]],"radiuses":[1,2,3]}`, "/radiuses", "one radius per point"},
		{"too many points", `{"coordinates":` + coordinateArray(MaxMatchCoordinates+1) + `}`, "/coordinates", "must hold 2 to 2000"},
		{"one point", `{"coordinates":[[1,2]]}`, "/coordinates", "must hold 2 to 2000"},
		{"swapped pair", `{"coordinates":[[1.5,42.5],[42.5,1.5],[1.5,142.5]]}`, "/coordinates/2/1", "looks swapped"},
		{"a directions member", `{"coordinates":[[1,2],[3,4]],"alternatives":1}`, "/alternatives", "not a member of a match request"},
		{"OSRM's name", `{"coordinates":[[1,2],[3,4]],"times":[1,2]}`, "/times", `did you mean "timestamps"`},
		{"missing coordinates", `{"timestamps":[1,2]}`, "/coordinates", "is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, inv := DecodeMatch([]byte(tt.body))
			if inv == nil {
				t.Fatal("accepted")
			}
			assertWellFormed(t, inv)
			for _, e := range inv.Errors {
				if e.Field == tt.field && strings.Contains(e.Message, tt.message) {
					return
				}
			}
			t.Errorf("no error at %s saying %q: %+v", tt.field, tt.message, inv.Errors)
		})
	}
}

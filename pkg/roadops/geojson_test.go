package roadops

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// exampleOps decodes testdata/operations.geojson, the example the docs
// import.
func exampleOps(t *testing.T) []Operation {
	t.Helper()
	raw, err := os.ReadFile("testdata/operations.geojson")
	if err != nil {
		t.Fatal(err)
	}
	ops, err := DecodeFeatureCollection(raw)
	if err != nil {
		t.Fatal(err)
	}
	return ops
}

func TestDecodeFeatureCollection(t *testing.T) {
	ops := exampleOps(t)
	if len(ops) != 3 {
		t.Fatalf("%d operations, want 3", len(ops))
	}
	if ops[0].Way != envalira || ops[0].Kind != KindClosure || ops[0].Reference != "CG-2a notice 2026-117" {
		t.Errorf("feature 0 = %+v", ops[0])
	}
	if l := ops[1].Line; len(l) != 3 || l[1] != [2]float64{1.5251, 42.5089} || ops[1].SpeedKPH != 20 ||
		ops[1].Direction != DirForward || ops[1].ValidUntil == nil || ops[1].ValidUntil.UTC().Hour() != 18 {
		t.Errorf("feature 1 = %+v (the altitude must be dropped)", ops[1])
	}
	if p := ops[2].Polygon; len(p) != 1 || len(p[0]) != 5 || ops[2].Factor != 3 {
		t.Errorf("feature 2 = %+v", ops[2])
	}
}

func TestDecodeFeatureCollectionErrors(t *testing.T) {
	valid := `{"type":"Feature","geometry":null,"properties":{"kind":"closure","way":1,"reason":"r"}}`
	tests := []struct {
		name, doc string
		want      []string // each must appear in the error
	}{
		{"not JSON", `{"type":`, []string{"not a GeoJSON FeatureCollection"}},
		{"a Feature", valid, []string{`type "Feature"`}},
		{"no features", `{"type":"FeatureCollection","features":[]}`, []string{"no features"}},
		{"typo in a property", `{"type":"FeatureCollection","features":[` + valid + `,
			{"type":"Feature","geometry":null,"properties":{"kind":"slowdown","way":2,"speed_khp":30,"reason":"r"}}]}`,
			[]string{"1 of 2 features", "feature 1: properties", `"speed_khp"`}},
		{"wrong type", `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"kind":"closure","way":"six","reason":"r"}}]}`,
			[]string{"feature 0: properties: way"}},
		{"Point", `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"kind":"closure","reason":"r"}}]}`,
			[]string{"feature 0: geometry", `"Point"`}},
		{"short position", `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1.5,42.5],[1.6]]},"properties":{"kind":"closure","reason":"r"}}]}`,
			[]string{"feature 0: geometry.coordinates[1]"}},
		{"several invalid", `{"type":"FeatureCollection","features":[
			{"type":"Feature","geometry":null,"properties":{"kind":"closure","way":1}},` + valid + `,
			{"type":"Feature","geometry":null,"properties":{"kind":"slowdown","way":1,"factor":0.5,"reason":"r"}},
			{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[1.5,42.5],[1.6,42.5],[1.6,42.6],[1.5,42.6]]]},"properties":{"kind":"closure","reason":"r"}}]}`,
			[]string{"3 of 4 features", "feature 0: invalid operation: reason", "feature 2: invalid operation: factor", "feature 3: invalid operation: polygon[0]: not closed"}},
		{"way and geometry", `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1.5,42.5],[1.6,42.5]]},"properties":{"kind":"closure","way":5,"reason":"r"}}]}`,
			[]string{"feature 0: invalid operation: line: give only one"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ops, err := DecodeFeatureCollection([]byte(tc.doc))
			if err == nil {
				t.Fatalf("decoded %v, want an error", ops)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// FuzzDecodeFeatureCollection: the import decoder never panics, and what
// it accepts is valid, survives the stores' JSON encoding, and keeps its
// coordinates.
func FuzzDecodeFeatureCollection(f *testing.F) {
	seed, err := os.ReadFile("testdata/operations.geojson")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"kind":"closure","way":1,"from":[1,2],"to":[1,3],"reason":"r"}}]}`))
	f.Add([]byte(`{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[]},"properties":null}]}`))
	f.Add([]byte(`{"type":"FeatureCollection","features":[null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, err := DecodeFeatureCollection(data)
		if err != nil {
			if ops != nil {
				t.Fatal("operations returned with an error")
			}
			return
		}
		for i, op := range ops {
			if err := op.Validate(); err != nil {
				t.Fatalf("feature %d accepted but invalid: %v", i, err)
			}
			raw, err := json.Marshal(op)
			if err != nil {
				t.Fatalf("feature %d does not encode: %v", i, err)
			}
			var back Operation
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if err := back.Validate(); err != nil {
				t.Fatalf("feature %d invalid after a round trip: %v", i, err)
			}
			again, _ := json.Marshal(back)
			if string(again) != string(raw) {
				t.Fatalf("feature %d changed in a round trip:\n%s\n%s", i, raw, again)
			}
		}
		checkExportRoundTrip(t, ops)
	})
}

// checkExportRoundTrip: what EncodeFeatureCollection writes decodes to the
// same operations.
func checkExportRoundTrip(t *testing.T, ops []Operation) {
	t.Helper()
	exported, err := EncodeFeatureCollection(ops)
	if err != nil {
		t.Fatalf("EncodeFeatureCollection: %v", err)
	}
	back, err := DecodeFeatureCollection(exported)
	if err != nil {
		t.Fatalf("the export does not import: %v\n%s", err, exported)
	}
	for i := range ops {
		want := ops[i]
		if want.Direction == "" {
			want.Direction = back[i].Direction // the export spells out the default
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(back[i])
		if string(w) != string(g) {
			t.Fatalf("operation %d after export and import:\n got %s\nwant %s", i, g, w)
		}
	}
}

// TestExportImport: the stores' operations, exported, import as the same
// content (new ids and drafts).
func TestExportImport(t *testing.T) {
	ops := exampleOps(t)
	s := embeddedLocation(t)(t)
	added, err := s.AddAll(bg, ops, "ana")
	if err != nil {
		t.Fatal(err)
	}
	exported, err := EncodeFeatureCollection(added)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(exported), `"id":"`+added[0].ID+`"`) || !strings.Contains(string(exported), `"geometry":null`) {
		t.Errorf("the export lacks ids or the way's null geometry: %s", exported)
	}
	checkExportRoundTrip(t, ops)
}

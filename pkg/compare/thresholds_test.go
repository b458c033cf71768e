package compare

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeThresholds(t *testing.T) {
	def := DefaultThresholds()
	for _, c := range []struct {
		name, doc string
		check     func(Thresholds) bool
		err       string // a substring of the error, "" for none
	}{
		{"empty object keeps defaults", `{}`, func(th Thresholds) bool { return th == def }, ""},
		{"override one", `{"duration_ratio_max": 2}`, func(th Thresholds) bool {
			return th.DurationRatioMax == Limit{Value: 2} && th.DurationRatioMin == def.DurationRatioMin
		}, ""},
		{"null turns a check off", `{"newly_unroutable_fraction": null}`, func(th Thresholds) bool { return th.NewlyUnroutable.Off }, ""},
		{"zero is a limit, not off", `{"changed_fraction": 0}`, func(th Thresholds) bool { return th.ChangedFraction == Limit{} }, ""},
		{"unknown key names itself", `{"duration_ratio_maxx": 2}`, nil, "/duration_ratio_maxx: unknown threshold"},
		{"negative", `{"snap_moved_p99_m": -1}`, nil, "/snap_moved_p99_m: -1: want a number ≥ 0"},
		{"string", `{"snap_moved_p99_m": "10"}`, nil, "/snap_moved_p99_m: want a number or null"},
		{"array", `[1]`, nil, "want a JSON object"},
		{"trailing data", `{} {}`, nil, "data after the object"},
		{"truncated", `{"changed_fraction": 0.`, nil, "want a JSON object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			th, err := DecodeThresholds([]byte(c.doc))
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("error %v, want one containing %q", err, c.err)
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.check != nil && !c.check(th):
				t.Errorf("got %+v", th)
			}
		})
	}
}

// TestThresholdFieldsAreAllDecoded: every field of Thresholds can be set
// by its JSON name, and the JSON report writes every field under it.
func TestThresholdFieldsAreAllDecoded(t *testing.T) {
	var th Thresholds
	fields := th.fields()
	typ := reflect.TypeOf(th)
	if typ.NumField() != len(fields) {
		t.Fatalf("Thresholds has %d fields, fields() lists %d", typ.NumField(), len(fields))
	}
	for i := range typ.NumField() {
		name := typ.Field(i).Tag.Get("json")
		l, ok := fields[name]
		if !ok {
			t.Errorf("field %s (json %q) is not decoded", typ.Field(i).Name, name)
			continue
		}
		if reflect.ValueOf(&th).Elem().Field(i).Addr().Interface() != l {
			t.Errorf("json %q decodes into another field than %s", name, typ.Field(i).Name)
		}
	}
	b, err := json.Marshal(DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeThresholds(b)
	if err != nil || back != DefaultThresholds() {
		t.Errorf("defaults do not survive their own JSON %s: %+v, %v", b, back, err)
	}
}

func FuzzDecodeThresholds(f *testing.F) {
	for _, seed := range []string{`{}`, `{"duration_ratio_max": 1.5, "changed_fraction": null}`, `{"x": 1}`, `{"snap_moved_p99_m": 1e400}`, `[]`, `null`, `{"a":`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		th, err := DecodeThresholds(b)
		if err != nil {
			return
		}
		for name, l := range th.fields() {
			if !l.Off && (l.Value < 0 || math.IsNaN(l.Value) || math.IsInf(l.Value, 0)) {
				t.Fatalf("%s decoded as %+v from %q", name, *l, b)
			}
		}
	})
}

func TestDecodeLandmarks(t *testing.T) {
	for _, c := range []struct {
		name, doc, err string
		n              int
	}{
		{"two", `[{"name": "a", "from": [1.52, 42.5], "to": [1.73, 42.54]}, {"name": "b", "profile": "car", "from": [1, 2], "to": [3, 4]}]`, "", 2},
		{"empty", `[]`, "", 0},
		{"no name", `[{"from": [1, 2], "to": [3, 4]}]`, "/0: name is empty", 0},
		{"swapped coordinates", `[{"name": "a", "from": [42.5, 181], "to": [1, 2]}]`, `/0: "a": from [42.5, 181] is not [lon, lat]`, 0},
		{"typo", `[{"name": "a", "form": [1, 2], "to": [1, 2]}]`, `unknown field "form"`, 0},
		{"object", `{"name": "a"}`, "cannot unmarshal object", 0},
		{"trailing", `[] x`, "data after the array", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ls, err := decodeLandmarks([]byte(c.doc))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil || len(ls) != c.n {
				t.Fatalf("%d landmarks, %v; want %d", len(ls), err, c.n)
			}
		})
	}
}

func FuzzDecodeLandmarks(f *testing.F) {
	for _, seed := range []string{`[{"name": "a", "from": [1.52, 42.5], "to": [1.73, 42.54]}]`, `[]`, `[{"name": ""}]`, `[{"name": "a", "from": [1e999, 0]}]`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ls, err := decodeLandmarks(b)
		if err != nil {
			return
		}
		for _, l := range ls {
			if err := l.validate(); err != nil {
				t.Fatalf("accepted an invalid landmark %+v from %q: %v", l, b, err)
			}
		}
	})
}

package profile

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadDirReal(t *testing.T) {
	ps, err := LoadDir(profilesDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		if p.SpeedModelStatus != "provisional" {
			t.Errorf("%s: speed_model_status %q: nothing is calibrated yet", p.Name, p.SpeedModelStatus)
		}
		if p.SpeedModelVersion == "" || p.Doc == "" {
			t.Errorf("%s: empty version or doc", p.Name)
		}
		if top := p.TopSpeed(); !(top > 0 && top <= p.MaxSpeedKmh+20) {
			t.Errorf("%s: TopSpeed %v", p.Name, top)
		}
	}
	if !slices.Equal(names, Names()) {
		t.Errorf("LoadDir order %v, want %v", names, Names())
	}
	if ps[1].Grade != nil || ps[4].Grade == nil || ps[4].Grade.Model != "tobler" {
		t.Errorf("grade: car %+v, pedestrian %+v; want none and tobler", ps[1].Grade, ps[4].Grade)
	}
}

// editCar copies the real profiles into a temporary directory and applies edit to car.json decoded as generic JSON.
func editCar(t *testing.T, edit func(m map[string]any)) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range Names() {
		data, err := os.ReadFile(filepath.Join(profilesDir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if name == "car" && edit != nil {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			edit(m)
			if data, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func obj(m map[string]any, key string) map[string]any { return m[key].(map[string]any) }

func TestLoadDirRejectsBrokenFiles(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		field string // must appear in the error, with car.json
	}{
		{"missing version", func(m map[string]any) { delete(m, "speed_model_version") }, "field speed_model_version"},
		{"missing doc", func(m map[string]any) { delete(m, "doc") }, "field doc"},
		{"missing access", func(m map[string]any) { delete(m, "access") }, "field access"},
		{"missing restrictions.plain", func(m map[string]any) { delete(obj(m, "restrictions"), "plain") }, "field restrictions.plain"},
		{"unknown top-level field", func(m map[string]any) { m["speed"] = 3 }, "field speed: unknown field"},
		{"unknown nested field", func(m map[string]any) { obj(obj(m, "highways"), "track")["sped_kmh"] = 3 }, "field sped_kmh: unknown field"},
		{"negative speed", func(m map[string]any) { obj(obj(m, "highways"), "track")["speed_kmh"] = -3 }, "field highways.track.speed_kmh"},
		{"zero speed", func(m map[string]any) { obj(obj(m, "highways"), "primary")["speed_kmh"] = 0 }, "field highways.primary.speed_kmh"},
		{"absurd speed", func(m map[string]any) { m["max_speed_kmh"] = 1300 }, "field max_speed_kmh"},
		{"wrong type", func(m map[string]any) { m["max_speed_kmh"] = "fast" }, "field max_speed_kmh"},
		{"zero factor", func(m map[string]any) { obj(obj(m, "speed_factors"), "surface")["asphalt"] = 0 }, "field speed_factors.surface.asphalt"},
		{"bad status", func(m map[string]any) { m["speed_model_status"] = "final" }, "field speed_model_status"},
		{"long version", func(m map[string]any) { m["speed_model_version"] = strings.Repeat("v", 101) }, "field speed_model_version"},
		{"bad verdict", func(m map[string]any) { obj(obj(m, "access"), "values")["yes"] = "maybe" }, "field access.values.yes"},
		{"push without pushing", func(m map[string]any) { obj(obj(m, "access"), "values")["dismount"] = "push" }, "field access.values.dismount"},
		{"explicit tag outside hierarchy", func(m map[string]any) { obj(m, "access")["explicit_tags"] = []any{"hgv"} }, "field access.explicit_tags"},
		{"duplicate access tag", func(m map[string]any) { obj(m, "access")["tags"] = []any{"motorcar", "motorcar"} }, "field access.tags[1]"},
		{"barrier in both lists", func(m map[string]any) { obj(m, "barriers")["pass"] = []any{"bollard"} }, "field barriers.pass"},
		{"bad barrier default", func(m map[string]any) { obj(m, "barriers")["default"] = "maybe" }, "field barriers.default"},
		{"empty highways", func(m map[string]any) { m["highways"] = map[string]any{} }, "field highways"},
		{"maxspeed without factor", func(m map[string]any) { delete(obj(m, "maxspeed"), "factor") }, "field maxspeed.factor"},
		{"negative vehicle height", func(m map[string]any) { m["vehicle"] = map[string]any{"height_m": -1} }, "field vehicle.height_m"},
		{"wrong name", func(m map[string]any) { m["name"] = "moto" }, "field name"},
		{"unknown grade model", func(m map[string]any) { m["grade"] = map[string]any{"model": "magic", "doc": "x"} }, "field grade.model"},
		{"tobler without params", func(m map[string]any) { m["grade"] = map[string]any{"model": "tobler", "doc": "x"} }, "field grade.params.a"},
		{"grade table not from 0", func(m map[string]any) {
			m["grade"] = map[string]any{"model": "table", "doc": "x",
				"uphill": []any{[]any{0.05, 0.9}}, "downhill": []any{[]any{0, 1}}}
		}, "field grade.uphill[0]"},
		{"grade table not increasing", func(m map[string]any) {
			m["grade"] = map[string]any{"model": "table", "doc": "x",
				"uphill": []any{[]any{0, 1}, []any{0.1, 0.8}, []any{0.1, 0.7}}, "downhill": []any{[]any{0, 1}}}
		}, "field grade.uphill[2]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := LoadDir(editCar(t, c.edit))
			if err == nil {
				t.Fatal("LoadDir accepted the broken file")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "car.json") || !strings.Contains(msg, c.field) {
				t.Errorf("error %q should name car.json and %q", msg, c.field)
			}
		})
	}
}

func TestLoadDirAcceptsAGradeTable(t *testing.T) {
	dir := editCar(t, func(m map[string]any) {
		m["grade"] = map[string]any{"model": "table", "doc": "test table",
			"params":   map[string]any{"max_downhill_kmh": 40},
			"uphill":   []any{[]any{0, 1}, []any{0.1, 0.6}},
			"downhill": []any{[]any{0, 1}, []any{0.15, 0.8}}}
	})
	ps, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g := ps[1].Grade; g == nil || g.Model != "table" || g.Uphill[1] != (GradePoint{0.1, 0.6}) {
		t.Errorf("grade = %+v", g)
	}
}

// A directory with some of the profiles loads those, in canonical order.
func TestLoadDirSubset(t *testing.T) {
	for _, keep := range [][]string{{"car"}, {"pedestrian_loaded", "moto"}, {"bicycle", "truck", "pedestrian"}} {
		dir := editCar(t, nil)
		for _, name := range Names() {
			if !slices.Contains(keep, name) {
				if err := os.Remove(filepath.Join(dir, name+".json")); err != nil {
					t.Fatal(err)
				}
			}
		}
		ps, err := LoadDir(dir)
		if err != nil {
			t.Fatalf("keep %v: %v", keep, err)
		}
		var got, want []string
		for _, p := range ps {
			got = append(got, p.Name)
		}
		for _, name := range Names() {
			if slices.Contains(keep, name) {
				want = append(want, name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("keep %v: loaded %v, want %v", keep, got, want)
		}
	}
}

func TestLoadDirRejectsEmptyAndStrangers(t *testing.T) {
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "README.md"), []byte("notes"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDir(empty); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "car.json") {
		t.Errorf("a directory without profiles: err = %v, want a not-exist error naming car.json", err)
	}
	if _, err := LoadDir(filepath.Join(empty, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing directory: err = %v, want a not-exist error", err)
	}
	dir := editCar(t, nil)
	if err := os.Rename(filepath.Join(dir, "bicycle.json"), filepath.Join(dir, "bicyle.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "bicyle.json is not a profile") {
		t.Errorf("a misspelt file: err = %v, want it named as not a profile", err)
	}
}

func TestParseRejectsMalformedJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `[]`, `{"name": "car"} {}`, `{"name": 3}`, "\x00"} {
		if _, err := Parse([]byte(in), "in.json"); !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) error = %v, want ErrInvalid", in, err)
		}
	}
}

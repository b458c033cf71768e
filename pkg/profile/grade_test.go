package profile

import (
	"math"
	"testing"
)

// realGrades loads the profiles in profiles/ and returns them by name.
func realGrades(t *testing.T) map[string]*Profile {
	t.Helper()
	ps, err := LoadDir(profilesDir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Profile{}
	for _, p := range ps {
		out[p.Name] = p
	}
	return out
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestToblerRatio checks the figure the pedestrian route test relies on: on
// an even slope steeper than 5 %, Tobler's function makes the climb take
// exp(b·2c) = exp(0.35) times as long as the descent, and below 5 % exp(2·b·s).
func TestToblerRatio(t *testing.T) {
	g := realGrades(t)["pedestrian"].Grade
	for _, s := range []float64{0.06, 0.1, 0.2} {
		up, down := g.Seconds(1000, 1000*s, 0, 5), g.Seconds(1000, 0, 1000*s, 5)
		if !near(up/down, math.Exp(0.35), 1e-9) {
			t.Errorf("grade %v: up/down %v, want exp(0.35)", s, up/down)
		}
	}
	if up, down := g.Seconds(1000, 30, 0, 5), g.Seconds(1000, 0, 30, 5); !near(up/down, math.Exp(7*0.03), 1e-9) {
		t.Errorf("grade 0.03: up/down %v, want exp(0.21)", up/down)
	}
	if v := g.Speed(5, -0.05); !near(v, 5*math.Exp(3.5*0.05), 1e-9) || v > 6 {
		t.Errorf("fastest descent %v km/h", v)
	}
}

// TestFlat: no climb, or no model, is length over speed.
func TestFlat(t *testing.T) {
	ps := realGrades(t)
	for name, p := range ps {
		if s := p.Grade.Seconds(1000, 0, 0, 36); !near(s, 100, 1e-9) {
			t.Errorf("%s: flat 1 km at 36 km/h takes %v s", name, s)
		}
	}
	if s := ps["car"].Grade.Seconds(1000, 80, 0, 36); s != 100 {
		t.Errorf("car (no grade model) on a climb: %v s", s)
	}
}

// TestDirectionMatters: every grade model prices the same edge differently
// up and down, and climbing a steep edge is slower than the flat.
func TestDirectionMatters(t *testing.T) {
	flat := map[string]float64{"moto": 90, "truck": 85, "bicycle": 18, "pedestrian": 5, "pedestrian_loaded": 4}
	for name, p := range realGrades(t) {
		kph, ok := flat[name]
		if !ok {
			continue
		}
		up, down, level := p.Grade.Seconds(1000, 100, 0, kph), p.Grade.Seconds(1000, 0, 100, kph), p.Grade.Seconds(1000, 0, 0, kph)
		if !(up > down && up > level*1.1) {
			t.Errorf("%s at 10 %%: up %.0f s, down %.0f s, flat %.0f s", name, up, down, level)
		}
	}
}

// TestModelFigures pins the figures the profiles' docs quote.
func TestModelFigures(t *testing.T) {
	ps := realGrades(t)
	cases := []struct {
		profile    string
		kph, grade float64
		want       float64
	}{
		{"truck", 85, 0.06, 43.7},
		{"truck", 85, 0.10, 28.2},
		{"truck", 30, 0.06, 30}, // the flat speed holds where it is lower
		{"truck", 85, -0.08, 85},
		{"moto", 110, 0.10, 56.9},
		{"moto", 110, 0.20, 36.8},
		{"pedestrian_loaded", 4, 0.10, 1.6},
		{"pedestrian_loaded", 4, 0.05, 2.42},
		{"pedestrian_loaded", 4, -0.05, 4}, // never faster downhill
		{"pedestrian_loaded", 4, -0.20, 4 * math.Exp(-3.5*0.15) / math.Exp(-3.5*0.05)},
		{"bicycle", 18, 0.10, 18 * 0.26},
		{"bicycle", 18, 0.05, 18 * (0.56 + 0.41) / 2},
		{"bicycle", 18, -0.04, 30}, // 1.8 × 18, capped at max_downhill_kmh
		{"bicycle", 10, -0.04, 18},
	}
	for _, c := range cases {
		if got := ps[c.profile].Grade.Speed(c.kph, c.grade); !near(got, c.want, 0.05) {
			t.Errorf("%s from %v km/h at grade %v: %.2f km/h, want %.2f", c.profile, c.kph, c.grade, got, c.want)
		}
	}
}

// TestLoadedMoreSensitive: the loaded walker loses a larger share of its
// flat speed than the unloaded one on every climb, and is slower everywhere.
func TestLoadedMoreSensitive(t *testing.T) {
	ps := realGrades(t)
	walk, loaded := ps["pedestrian"].Grade, ps["pedestrian_loaded"].Grade
	for s := 0.01; s <= 0.5; s += 0.01 {
		if fw, fl := walk.Speed(5, s)/5, loaded.Speed(4, s)/4; !(fl < fw) {
			t.Errorf("grade %.2f: loaded factor %.3f, unloaded %.3f", s, fl, fw)
		}
	}
	for s := -0.5; s <= 0.5; s += 0.01 {
		if loaded.Speed(4, s) >= walk.Speed(5, s) {
			t.Errorf("grade %.2f: loaded %.2f km/h, unloaded %.2f", s, loaded.Speed(4, s), walk.Speed(5, s))
		}
	}
}

// TestSecondsSplitsTheClimb: an edge that climbs and descends the same
// height takes the same time both ways, and a steeper share costs more.
func TestSecondsSplitsTheClimb(t *testing.T) {
	g := realGrades(t)["pedestrian"].Grade
	if a, b := g.Seconds(1000, 40, 40, 5), g.Seconds(1000, 40, 40, 5); a != b {
		t.Fatalf("not deterministic: %v %v", a, b)
	}
	if a, b := g.Seconds(1000, 40, 10, 5), g.Seconds(1000, 10, 40, 5); !(a > b) {
		t.Errorf("mostly up %v s, mostly down %v s", a, b)
	}
	if s := g.Seconds(10, 500, 0, 5); math.IsInf(s, 0) || math.IsNaN(s) || s <= 0 {
		t.Errorf("absurd grade gives %v s", s)
	}
}

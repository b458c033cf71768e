package roadops

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// envalira is the Envalira tunnel (CG-2a), the example.
const envalira = 6176755

func pt(lon, lat float64) *[2]float64 { return &[2]float64{lon, lat} }

func square(lon, lat, d float64) [][2]float64 {
	return [][2]float64{{lon, lat}, {lon + d, lat}, {lon + d, lat + d}, {lon, lat + d}, {lon, lat}}
}

func TestValidate(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	closure := func(edit func(*Operation)) Operation {
		op := Operation{Kind: KindClosure, Way: envalira, Reason: "accident"}
		edit(&op)
		return op
	}
	slowdown := func(edit func(*Operation)) Operation {
		op := Operation{Kind: KindSlowdown, Way: envalira, Factor: 2, Reason: "roadworks"}
		edit(&op)
		return op
	}
	bigRing := make([][2]float64, 0, MaxVertices+1)
	for i := range MaxVertices {
		a := 2 * math.Pi * float64(i) / MaxVertices
		bigRing = append(bigRing, [2]float64{1.5 + 0.01*math.Cos(a), 42.5 + 0.01*math.Sin(a)})
	}
	bigRing = append(bigRing, bigRing[0])
	tests := []struct {
		name  string
		op    Operation
		field string // "" = valid
	}{
		{"closure of a way", closure(func(*Operation) {}), ""},
		{"closure of part of a way", closure(func(o *Operation) { o.From, o.To = pt(1.70, 42.53), pt(1.72, 42.54) }), ""},
		{"closure forward", closure(func(o *Operation) { o.Direction = DirForward }), ""},
		{"slowdown by factor", slowdown(func(*Operation) {}), ""},
		{"slowdown factor 100", slowdown(func(o *Operation) { o.Factor = 100 }), ""},
		{"slowdown by speed", slowdown(func(o *Operation) { o.Factor, o.SpeedKPH = 0, 30 }), ""},
		{"line", closure(func(o *Operation) { o.Way, o.Line = 0, [][2]float64{{1.5, 42.5}, {1.51, 42.51}} }), ""},
		{"polygon", closure(func(o *Operation) { o.Way, o.Polygon = 0, [][][2]float64{square(1.5, 42.5, 0.01)} }), ""},
		{"polygon with a hole", closure(func(o *Operation) {
			o.Way, o.Polygon = 0, [][][2]float64{square(1.5, 42.5, 0.1), square(1.52, 42.52, 0.01)}
		}), ""},
		{"polygon of 1000 vertices", closure(func(o *Operation) {
			o.Way, o.Polygon = 0, [][][2]float64{append(bigRing[:MaxVertices-1:MaxVertices-1], bigRing[0])}
		}), ""},
		{"polygon of 1001 vertices", closure(func(o *Operation) { o.Way, o.Polygon = 0, [][][2]float64{bigRing} }), "polygon"},
		{"profiles", closure(func(o *Operation) { o.Profiles = []string{"car", "truck"} }), ""},
		{"window", closure(func(o *Operation) { o.ValidFrom, o.ValidUntil = &t0, &t1 }), ""},
		{"open-ended window", closure(func(o *Operation) { o.ValidFrom = &t0 }), ""},

		{"no kind", closure(func(o *Operation) { o.Kind = "" }), "kind"},
		{"kind typo", closure(func(o *Operation) { o.Kind = "closed" }), "kind"},
		{"bad state", closure(func(o *Operation) { o.State = "published" }), "state"},
		{"nowhere", closure(func(o *Operation) { o.Way = 0 }), "way"},
		{"way and line", closure(func(o *Operation) { o.Line = [][2]float64{{1.5, 42.5}, {1.51, 42.51}} }), "line"},
		{"way and polygon", closure(func(o *Operation) { o.Polygon = [][][2]float64{square(1.5, 42.5, 0.01)} }), "polygon"},
		{"negative way", closure(func(o *Operation) { o.Way = -5 }), "way"},
		{"from without to", closure(func(o *Operation) { o.From = pt(1.7, 42.5) }), "from"},
		{"to without from", closure(func(o *Operation) { o.To = pt(1.7, 42.5) }), "from"},
		{"from and to on a line", closure(func(o *Operation) {
			o.Way, o.Line, o.From, o.To = 0, [][2]float64{{1.5, 42.5}, {1.51, 42.51}}, pt(1.5, 42.5), pt(1.51, 42.51)
		}), "from"},
		{"from equals to", closure(func(o *Operation) { o.From, o.To = pt(1.7, 42.5), pt(1.7, 42.5) }), "to"},
		{"from out of range", closure(func(o *Operation) { o.From, o.To = pt(181, 42.5), pt(1.7, 42.5) }), "from"},
		{"to latitude out of range", closure(func(o *Operation) { o.From, o.To = pt(1.7, 42.5), pt(1.7, 91) }), "to"},
		{"NaN in a line", closure(func(o *Operation) { o.Way, o.Line = 0, [][2]float64{{1.5, 42.5}, {math.NaN(), 42.51}} }), "line[1]"},
		{"one-point line", closure(func(o *Operation) { o.Way, o.Line = 0, [][2]float64{{1.5, 42.5}} }), "line"},
		{"empty line", closure(func(o *Operation) { o.Way, o.Line = 0, [][2]float64{} }), "line"},
		{"open ring", closure(func(o *Operation) {
			o.Way, o.Polygon = 0, [][][2]float64{square(1.5, 42.5, 0.01)[:4]}
		}), "polygon[0]"},
		{"ring of 3 points", closure(func(o *Operation) {
			o.Way, o.Polygon = 0, [][][2]float64{{{1.5, 42.5}, {1.6, 42.5}, {1.5, 42.5}}}
		}), "polygon[0]"},
		{"no ring", closure(func(o *Operation) { o.Way, o.Polygon = 0, [][][2]float64{} }), "polygon"},
		{"polygon forward", closure(func(o *Operation) {
			o.Way, o.Polygon, o.Direction = 0, [][][2]float64{square(1.5, 42.5, 0.01)}, DirForward
		}), "direction"},
		{"direction typo", closure(func(o *Operation) { o.Direction = "fwd" }), "direction"},
		{"closure with factor", closure(func(o *Operation) { o.Factor = 2 }), "factor"},
		{"closure with speed", closure(func(o *Operation) { o.SpeedKPH = 20 }), "speed_kph"},
		{"slowdown with nothing", slowdown(func(o *Operation) { o.Factor = 0 }), "factor"},
		{"slowdown with both", slowdown(func(o *Operation) { o.SpeedKPH = 30 }), "factor"},
		{"factor 1", slowdown(func(o *Operation) { o.Factor = 1 }), "factor"},
		{"factor below 1 (faster)", slowdown(func(o *Operation) { o.Factor = 0.5 }), "factor"},
		{"factor above 100", slowdown(func(o *Operation) { o.Factor = 100.5 }), "factor"},
		{"factor NaN", slowdown(func(o *Operation) { o.Factor = math.NaN() }), "factor"},
		{"negative speed", slowdown(func(o *Operation) { o.Factor, o.SpeedKPH = 0, -30 }), "speed_kph"},
		{"speed 200", slowdown(func(o *Operation) { o.Factor, o.SpeedKPH = 0, 200 }), "speed_kph"},
		{"speed +Inf", slowdown(func(o *Operation) { o.Factor, o.SpeedKPH = 0, math.Inf(1) }), "speed_kph"},
		{"unknown profile", closure(func(o *Operation) { o.Profiles = []string{"car", "bus"} }), "profiles"},
		{"profile twice", closure(func(o *Operation) { o.Profiles = []string{"car", "car"} }), "profiles"},
		{"until before from", closure(func(o *Operation) { o.ValidFrom, o.ValidUntil = &t1, &t0 }), "valid_until"},
		{"until equals from", closure(func(o *Operation) { o.ValidFrom, o.ValidUntil = &t0, &t0 }), "valid_until"},
		{"no reason", closure(func(o *Operation) { o.Reason = "" }), "reason"},
		{"blank reason", closure(func(o *Operation) { o.Reason = "  \t" }), "reason"},
		{"long reference", closure(func(o *Operation) { o.Reference = strings.Repeat("x", MaxTextLen+1) }), "reference"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.op.Validate()
			if tc.field == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want a *FieldError about %s", err, tc.field)
			}
			if fe.Field != tc.field {
				t.Errorf("Validate = %v: field %q, want %q", err, fe.Field, tc.field)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("the message %q does not name the field %q", err, tc.field)
			}
		})
	}
}

func TestActive(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	op := Operation{Kind: KindClosure, Way: envalira, Reason: "x", State: ReviewReviewed, ValidFrom: &t0, ValidUntil: &t1}
	for _, tc := range []struct {
		state Review
		at    time.Time
		want  bool
	}{
		{ReviewReviewed, t0.Add(-time.Nanosecond), false},
		{ReviewReviewed, t0, true},
		{ReviewReviewed, t1.Add(-time.Nanosecond), true},
		{ReviewReviewed, t1, false},
		{ReviewDraft, t0, false},
		{ReviewWithdrawn, t0, false},
	} {
		op.State = tc.state
		if got := op.Active(tc.at); got != tc.want {
			t.Errorf("%s at %s: Active = %v, want %v", tc.state, tc.at, got, tc.want)
		}
	}
	open := Operation{State: ReviewReviewed}
	if !open.Active(time.Time{}) || !open.Active(t1.AddDate(100, 0, 0)) {
		t.Error("an operation without a window is not active at every time")
	}
}

func TestForProfile(t *testing.T) {
	all := Operation{}
	some := Operation{Profiles: []string{"car", "truck"}}
	for _, p := range Profiles {
		if !all.ForProfile(p) {
			t.Errorf("an operation for all profiles does not apply to %s", p)
		}
		if want := p == "car" || p == "truck"; some.ForProfile(p) != want {
			t.Errorf("car,truck: ForProfile(%s) = %v", p, !want)
		}
	}
}

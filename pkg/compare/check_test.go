package compare

import (
	"math"
	"testing"
)

func TestCheck(t *testing.T) {
	one := Num(1)
	same := Spread{N: 100, Min: 1, P5: 1, Median: 1, P95: 1, P99: 1, Max: 1}
	calm := func() *Report {
		return &Report{
			Routes:     []RouteSummary{{Profile: "car", Pairs: 100, RoutableBoth: 100, DurationRatio: same, DistanceRatio: same}},
			Snaps:      []SnapSummary{{Profile: "car", Drawn: 200, Kept: 200, MovedM: Spread{N: 200}}},
			Matrices:   []MatrixSummary{{Profile: "car", Points: 10, Cells: 100, DurationRatio: same}},
			Isochrones: &IsochroneSummary{Origins: 10, AreaRatio: same},
			Elevation:  &ElevationSummary{OldDEM: true, NewDEM: true, Points: 50, AbsDiffM: Spread{N: 50}},
			Counts:     []CountRow{{Name: "nodes", Old: ptr(1000), New: ptr(1010), Change: new(Num(0.01)), Gated: true}},
			Landmarks:  []PairChange{{Name: "pass", Profile: "car", Status: Unchanged, DurationRatio: &one, DistanceRatio: &one}},
		}
	}
	off := DefaultThresholds()
	for _, l := range off.fields() {
		*l = Limit{Off: true}
	}
	for _, c := range []struct {
		name   string
		edit   func(*Report)
		th     Thresholds
		want   string // the threshold crossed, "" for none
		wantIn string // its profile
	}{
		{"calm", func(*Report) {}, DefaultThresholds(), "", ""},
		{"a route lost", func(r *Report) { r.Routes[0].BecameUnroutable = 1 }, DefaultThresholds(), "newly_unroutable_fraction", "car"},
		{"a route lost, check off", func(r *Report) { r.Routes[0].BecameUnroutable = 1 }, off, "", ""},
		{"one detour", func(r *Report) { r.Routes[0].DurationRatio.Max = 1.6 }, DefaultThresholds(), "duration_ratio_max", "car"},
		{"one shortcut", func(r *Report) { r.Routes[0].DurationRatio.Min = 0.5 }, DefaultThresholds(), "duration_ratio_min", "car"},
		{"slower overall", func(r *Report) { r.Routes[0].DurationRatio.P95 = 1.06 }, DefaultThresholds(), "duration_ratio_p95", "car"},
		{"shorter overall", func(r *Report) { r.Routes[0].DistanceRatio.P5 = 0.9 }, DefaultThresholds(), "distance_ratio_p5", "car"},
		{"many small changes", func(r *Report) { r.Routes[0].ChangedOver1Pct = 11 }, DefaultThresholds(), "changed_fraction", "car"},
		{"roads gone", func(r *Report) { r.Snaps[0].MovedM.P99 = Num(math.Inf(1)) }, DefaultThresholds(), "snap_moved_p99_m", "car"},
		{"matrix nulls", func(r *Report) { r.Matrices[0].BecameNull = 11 }, DefaultThresholds(), "matrix_changed_fraction", "car"},
		{"isochrone shrank", func(r *Report) { r.Isochrones.AreaRatio.Min = 0.7 }, DefaultThresholds(), "isochrone_area_ratio_min", ""},
		{"isochrone lost", func(r *Report) { r.Isochrones.Failed = 1 }, DefaultThresholds(), "isochrone_area_ratio_min", ""},
		{"DEM lost", func(r *Report) { r.Elevation.CoverageLost, r.Elevation.NewDEM = 50, false }, DefaultThresholds(), "elevation_diff_max_m", ""},
		{"nodes halved", func(r *Report) { r.Counts[0].Change = new(Num(-0.5)) }, DefaultThresholds(), "count_change_fraction", ""},
		{"ungated count", func(r *Report) { r.Counts[0].Change, r.Counts[0].Gated = new(Num(-0.5)), false }, DefaultThresholds(), "", ""},
		{"landmark lost", func(r *Report) {
			r.Landmarks[0] = PairChange{Name: "pass", Profile: "car", Status: BecameUnroutable, NewError: "no_route"}
		}, DefaultThresholds(), "newly_unroutable_fraction", ""},
		{"landmark detour", func(r *Report) { r.Landmarks[0].DurationRatio = new(Num(3)) }, DefaultThresholds(), "duration_ratio_max", "car"},
		{"profile missing, whatever the thresholds", func(r *Report) { r.Missing = []string{"truck"} }, off, "profile_missing", "truck"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := calm()
			c.edit(r)
			v := r.Check(c.th)
			if c.want == "" {
				if len(v) != 0 || !r.Passed() {
					t.Fatalf("violations %v, want none", v)
				}
				return
			}
			if len(v) != 1 || v[0].Threshold != c.want || v[0].Profile != c.wantIn {
				t.Fatalf("violations %v, want only %s for %q", v, c.want, c.wantIn)
			}
		})
	}
}

func ptr(v int64) *int64 { return &v }

func TestSpreadMatchesSortedRanks(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	s := spreadOf(v)
	if s.N != 10 || s.Min != 1 || s.Max != 10 || s.Median != 5 || s.P95 != 10 || s.P5 != 1 {
		t.Errorf("spread %+v", s)
	}
	if b, _ := Num(math.Inf(1)).MarshalJSON(); string(b) != "null" {
		t.Errorf("+Inf encodes as %s, want null", b)
	}
	if (spreadOf(nil) != Spread{}) {
		t.Error("spread of nothing should be zero")
	}
}

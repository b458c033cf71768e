package compare

import (
	"fmt"
	"math"

	"github.com/mapsco/maps/pkg/route"
)

// Violation is one threshold crossed.
type Violation struct {
	Threshold string `json:"threshold"` // a Thresholds JSON name, or "profile_missing"
	Profile   string `json:"profile,omitempty"`
	Value     Num    `json:"value"`
	Limit     Num    `json:"limit"`
	Detail    string `json:"detail"` // what crossed it, with coordinates
}

// Check records in the report which of th it crosses (replacing any
// earlier check) and returns them.
func (r *Report) Check(th Thresholds) []Violation {
	c := checker{th: th}
	for _, p := range r.Missing {
		c.add(Violation{Threshold: "profile_missing", Profile: p, Detail: "the new release has no " + p + " profile"})
	}
	for _, s := range r.Routes {
		c.routes(s)
	}
	c.landmarks(r.Landmarks)
	for _, s := range r.Snaps {
		c.max("snap_moved_p99_m", th.SnapMovedP99M, s.Profile, float64(s.MovedM.P99),
			fmt.Sprintf("%d of %d points drawn on old roads snap elsewhere in new (%d unsnappable)", len(s.Worst), s.Drawn, s.Unsnappable))
	}
	for _, m := range r.Matrices {
		if m.Cells > 0 {
			c.max("matrix_changed_fraction", th.MatrixChangedFraction, m.Profile, float64(m.BecameNull+m.ChangedOver1Pct)/float64(m.Cells),
				fmt.Sprintf("%d of %d cells became null, %d changed by more than 1 %%", m.BecameNull, m.Cells, m.ChangedOver1Pct))
		}
	}
	c.isochrones(r.Isochrones)
	c.elevation(r.Elevation)
	for _, row := range r.Counts {
		if row.Gated && row.Change != nil {
			c.max("count_change_fraction", th.CountChangeFraction, "", math.Abs(float64(*row.Change)),
				fmt.Sprintf("%s: %d → %d", row.Name, *row.Old, *row.New))
		}
	}
	r.Violations, r.Thresholds = c.out, &th
	if r.Violations == nil {
		r.Violations = []Violation{}
	}
	return r.Violations
}

type checker struct {
	th  Thresholds
	out []Violation
}

func (c *checker) add(v Violation) { c.out = append(c.out, v) }

// max records a violation when v exceeds l.
func (c *checker) max(name string, l Limit, profile string, v float64, detail string) {
	if !l.Off && v > l.Value {
		c.add(Violation{Threshold: name, Profile: profile, Value: Num(v), Limit: Num(l.Value), Detail: detail})
	}
}

// min records a violation when v falls below l.
func (c *checker) min(name string, l Limit, profile string, v float64, detail string) {
	if !l.Off && v < l.Value {
		c.add(Violation{Threshold: name, Profile: profile, Value: Num(v), Limit: Num(l.Value), Detail: detail})
	}
}

func (c *checker) routes(s RouteSummary) {
	th, p := c.th, s.Profile
	if s.Pairs > 0 {
		c.max("newly_unroutable_fraction", th.NewlyUnroutable, p, float64(s.BecameUnroutable)/float64(s.Pairs),
			fmt.Sprintf("%d of %d routes lost%s", s.BecameUnroutable, s.Pairs, example(s.Worst, BecameUnroutable)))
		c.max("newly_routable_fraction", th.NewlyRoutable, p, float64(s.BecameRoutable)/float64(s.Pairs),
			fmt.Sprintf("%d of %d routes gained%s", s.BecameRoutable, s.Pairs, example(s.Worst, BecameRoutable)))
	}
	if s.RoutableBoth == 0 {
		return
	}
	d, l := s.DurationRatio, s.DistanceRatio
	c.max("duration_ratio_max", th.DurationRatioMax, p, float64(d.Max), "slowest change"+exampleRatio(s.Worst, float64(d.Max)))
	c.min("duration_ratio_min", th.DurationRatioMin, p, float64(d.Min), "fastest change"+exampleRatio(s.Worst, float64(d.Min)))
	c.max("duration_ratio_p95", th.DurationRatioP95, p, float64(d.P95), fmt.Sprintf("over %d routes", s.RoutableBoth))
	c.min("duration_ratio_p5", th.DurationRatioP5, p, float64(d.P5), fmt.Sprintf("over %d routes", s.RoutableBoth))
	c.max("distance_ratio_p95", th.DistanceRatioP95, p, float64(l.P95), fmt.Sprintf("over %d routes", s.RoutableBoth))
	c.min("distance_ratio_p5", th.DistanceRatioP5, p, float64(l.P5), fmt.Sprintf("over %d routes", s.RoutableBoth))
	c.max("changed_fraction", th.ChangedFraction, p, float64(s.ChangedOver1Pct)/float64(s.RoutableBoth),
		fmt.Sprintf("%d of %d routes changed by more than 1 %%", s.ChangedOver1Pct, s.RoutableBoth))
}

// landmarks applies the single-route thresholds to each landmark.
func (c *checker) landmarks(ls []PairChange) {
	lost := 0
	for _, l := range ls {
		if l.Status == BecameUnroutable {
			lost++
		}
	}
	if len(ls) > 0 {
		c.max("newly_unroutable_fraction", c.th.NewlyUnroutable, "", float64(lost)/float64(len(ls)),
			fmt.Sprintf("%d of %d landmark routes lost%s", lost, len(ls), example(ls, BecameUnroutable)))
	}
	for _, l := range ls {
		if l.DurationRatio == nil {
			continue
		}
		what := fmt.Sprintf("landmark %q (%s)", l.Name, describe(l))
		c.max("duration_ratio_max", c.th.DurationRatioMax, l.Profile, float64(*l.DurationRatio), what)
		c.min("duration_ratio_min", c.th.DurationRatioMin, l.Profile, float64(*l.DurationRatio), what)
	}
}

func (c *checker) isochrones(s *IsochroneSummary) {
	if s == nil {
		return
	}
	worst := ""
	if len(s.Worst) > 0 {
		w := s.Worst[0]
		worst = fmt.Sprintf("; worst: %s from %s", w.Profile, coord(w.Origin))
	}
	if s.AreaRatio.N > 0 {
		c.max("isochrone_area_ratio_max", c.th.IsochroneAreaRatioMax, "", float64(s.AreaRatio.Max), fmt.Sprintf("over %d origins%s", s.AreaRatio.N, worst))
		c.min("isochrone_area_ratio_min", c.th.IsochroneAreaRatioMin, "", float64(s.AreaRatio.Min), fmt.Sprintf("over %d origins%s", s.AreaRatio.N, worst))
	}
	if s.Failed > 0 {
		c.min("isochrone_area_ratio_min", c.th.IsochroneAreaRatioMin, "", 0, fmt.Sprintf("%d origins have an isochrone on one release only%s", s.Failed, worst))
	}
}

func (c *checker) elevation(s *ElevationSummary) {
	if s == nil {
		return
	}
	if s.AbsDiffM.N > 0 {
		c.max("elevation_diff_max_m", c.th.ElevationDiffM, "", float64(s.AbsDiffM.Max), fmt.Sprintf("over %d points", s.AbsDiffM.N))
	}
	if s.CoverageLost > 0 && !c.th.ElevationDiffM.Off {
		c.add(Violation{Threshold: "elevation_diff_max_m", Value: Num(math.Inf(1)), Limit: Num(c.th.ElevationDiffM.Value),
			Detail: fmt.Sprintf("%d of %d points lost their height (new DEM: %v)", s.CoverageLost, s.Points, s.NewDEM)})
	}
}

// example names the first change of that status, for a violation's detail.
func example(cs []PairChange, status string) string {
	for _, c := range cs {
		if c.Status == status {
			return "; e.g. " + describe(c)
		}
	}
	return ""
}

// exampleRatio names the change whose time ratio is r.
func exampleRatio(cs []PairChange, r float64) string {
	for _, c := range cs {
		if c.DurationRatio != nil && float64(*c.DurationRatio) == r {
			return ": " + describe(c)
		}
	}
	return ""
}

// describe is one line about a route: where, and what became of it.
func describe(c PairChange) string {
	s := fmt.Sprintf("%s from %s to %s: ", c.Profile, coord(c.From), coord(c.To))
	return s + tripChange(c) + roadsChanged(c)
}

func tripChange(c PairChange) string {
	show := func(t *Trip, why string) string {
		if t == nil {
			return "no route (" + why + ")"
		}
		return fmt.Sprintf("%.0f s, %.0f m", float64(t.DurationS), float64(t.DistanceM))
	}
	return show(c.Old, c.OldError) + " → " + show(c.New, c.NewError)
}

func coord(p route.Point) string { return fmt.Sprintf("[%.6f, %.6f]", p[0], p[1]) }

package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// summaryChanges is how many of the worst route changes the terminal
// summary lists (the JSON and HTML reports have them all).
const summaryChanges = 5

// WriteSummary writes the short human summary: per profile what changed,
// the worst few routes, the other comparisons in a line each, and the
// verdict with every threshold crossed.
func WriteSummary(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "compare %s → %s  (%d pairs per profile, seed %d, %.1f s)\n",
		r.Old.DataVersion, r.New.DataVersion, r.Options.Pairs, r.Options.Seed, r.ElapsedS)
	if len(r.Missing)+len(r.Added) > 0 {
		fmt.Fprintf(&b, "profiles missing in new: %v; added in new: %v\n", r.Missing, r.Added)
	}
	writeRouteTable(&b, r)
	if changes := r.mapChanges(summaryChanges); len(changes) > 0 {
		b.WriteString("worst route changes:\n")
		for i, c := range changes {
			fmt.Fprintf(&b, "  %d. %s%s\n", i+1, landmarkName(c), describe(c))
		}
	}
	for _, l := range r.Landmarks {
		fmt.Fprintf(&b, "landmark %q %s: %s%s\n", l.Name, l.Status, describe(l), snapsMoved(l))
	}
	writeOthers(&b, r)
	writeVerdict(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// snapsMoved says how far a route's waypoints' snaps moved, when one moved
// more than a metre.
func snapsMoved(c PairChange) string {
	for _, m := range c.SnapMovedM {
		if m > 1 {
			return fmt.Sprintf(" (snaps moved %.0f m)", c.SnapMovedM)
		}
	}
	return ""
}

func landmarkName(c PairChange) string {
	if c.Name == "" {
		return ""
	}
	return fmt.Sprintf("landmark %q: ", c.Name)
}

func writeRouteTable(b *strings.Builder, r *Report) {
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profile\troutable\tchanged\t>1%\tlost\tgained\ttime p5\tmedian\tp95\tmax\tlength p95\tsnaps moved\t")
	for i, s := range r.Routes {
		moved := 0
		if i < len(r.Snaps) {
			moved = len(r.Snaps[i].Worst)
		}
		d := s.DurationRatio
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t\n", s.Profile, s.RoutableBoth, s.Changed,
			s.ChangedOver1Pct, s.BecameUnroutable, s.BecameRoutable, d.P5, d.Median, d.P95, d.Max, s.DistanceRatio.P95, moved)
	}
	tw.Flush()
}

// writeOthers gives the matrices, isochrones, elevation, counts and speed
// models a line each, or a line per change.
func writeOthers(b *strings.Builder, r *Report) {
	for _, m := range r.Matrices {
		if m.Changed+m.BecameNull+m.BecameReachable > 0 {
			fmt.Fprintf(b, "matrix %s: %d of %d cells changed (%d by >1 %%), %d became null, %d reachable\n",
				m.Profile, m.Changed, m.Cells, m.ChangedOver1Pct, m.BecameNull, m.BecameReachable)
		}
	}
	if len(r.Matrices) > 0 {
		fmt.Fprintf(b, "matrices: %d profiles × %d points compared\n", len(r.Matrices), r.Matrices[0].Points)
	}
	if s := r.Isochrones; s != nil {
		fmt.Fprintf(b, "isochrones: %d origins, %g min: %d changed, %d on one release only; area ratio %.3f to %.3f\n",
			s.Origins, s.Minutes, s.Changed, s.Failed, s.AreaRatio.Min, s.AreaRatio.Max)
	}
	if s := r.Elevation; s != nil {
		fmt.Fprintf(b, "elevation: %d points, DEM old %v new %v: %d changed, %d lost, %d gained; max difference %.2f m\n",
			s.Points, s.OldDEM, s.NewDEM, s.Changed, s.CoverageLost, s.CoverageGained, s.AbsDiffM.Max)
	}
	for _, c := range r.Counts {
		if c.Old == nil || c.New == nil || *c.Old != *c.New {
			fmt.Fprintf(b, "count %s: %s → %s\n", c.Name, count(c.Old), count(c.New))
		}
	}
	for _, m := range r.Models {
		if m.Changed {
			fmt.Fprintf(b, "speed model %s: %q → %q\n", m.Profile, m.Old, m.New)
		}
	}
}

func count(v *int64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}

func writeVerdict(b *strings.Builder, r *Report) {
	if r.Thresholds == nil {
		return
	}
	if r.Passed() {
		b.WriteString("PASS: no threshold crossed\n")
		return
	}
	fmt.Fprintf(b, "FAIL: %d thresholds crossed\n", len(r.Violations))
	for _, v := range r.Violations {
		fmt.Fprintf(b, "  %s\n", v.String())
	}
}

// String is one line: the threshold, the profile, value against limit, and
// what crossed it.
func (v Violation) String() string {
	p := ""
	if v.Profile != "" {
		p = " " + v.Profile
	}
	return fmt.Sprintf("%s%s: %.4g (limit %.4g): %s", v.Threshold, p, float64(v.Value), float64(v.Limit), v.Detail)
}

package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/route"
)

// SnapSummary says how far the points drawn on one profile's old roads
// snap from where they lie once the new release snaps them: 0 for a road
// that is still there, the distance to the next road for one removed or
// moved, null (+Inf) when no usable road is left within the snapping
// radius.
type SnapSummary struct {
	Profile     string     `json:"profile"`
	Drawn       int        `json:"drawn"`
	Kept        int        `json:"kept"`        // present in both: moved at most the presence radius
	Unsnappable int        `json:"unsnappable"` // no usable road within the radius in new
	MovedM      Spread     `json:"moved_m"`
	Worst       []SnapDiff `json:"worst"`
}

// SnapDiff is one drawn point and where the new release snaps it.
type SnapDiff struct {
	At     route.Point  `json:"at"`
	To     *route.Point `json:"to"` // null: unsnappable
	MovedM Num          `json:"moved_m"`
}

func summarizeSnaps(s sample, worst int) SnapSummary {
	sum := SnapSummary{Profile: s.profile, Drawn: len(s.moves), Kept: len(s.kept)}
	moved := make([]float64, len(s.moves))
	var diffs []SnapDiff
	for i, m := range s.moves {
		moved[i] = m.moved
		d := SnapDiff{At: m.at, MovedM: Num(m.moved)}
		if math.IsInf(m.moved, 1) {
			sum.Unsnappable++
		} else {
			d.To = &m.to
		}
		if m.moved > 0.01 {
			diffs = append(diffs, d)
		}
	}
	sum.MovedM = spreadOf(moved)
	slices.SortStableFunc(diffs, func(a, b SnapDiff) int { return cmp.Compare(b.MovedM, a.MovedM) })
	sum.Worst = diffs[:min(worst, len(diffs))]
	return sum
}

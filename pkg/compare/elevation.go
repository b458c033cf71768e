package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/route"
)

// ElevationSummary compares the DEM's height at sample points. OldDEM and
// NewDEM say whether each release has one; without both there is nothing
// to compare and only the coverage counts say what was lost.
type ElevationSummary struct {
	OldDEM bool `json:"old_dem"`
	NewDEM bool `json:"new_dem"`
	Points int  `json:"points"`
	// CoverageLost counts points with a height in old only, CoverageGained
	// in new only.
	CoverageLost   int             `json:"coverage_lost"`
	CoverageGained int             `json:"coverage_gained"`
	Changed        int             `json:"changed"`    // |difference| > 0.01 m
	AbsDiffM       Spread          `json:"abs_diff_m"` // over points covered by both
	Worst          []ElevationDiff `json:"worst"`
}

// ElevationDiff is one point's height on both releases (null: no height).
type ElevationDiff struct {
	At   route.Point `json:"at"`
	OldM *Num        `json:"old_m"`
	NewM *Num        `json:"new_m"`
}

// compareElevation samples both DEMs at pts (either may be nil).
func compareElevation(oldDEM, newDEM *elevation.DEM, pts []route.Point, worst int) ElevationSummary {
	s := ElevationSummary{OldDEM: oldDEM != nil, NewDEM: newDEM != nil, Points: len(pts)}
	var diffs []float64
	var changed []ElevationDiff
	for _, p := range pts {
		d := ElevationDiff{At: p, OldM: height(oldDEM, p), NewM: height(newDEM, p)}
		switch {
		case d.OldM != nil && d.NewM != nil:
			diff := math.Abs(float64(*d.NewM - *d.OldM))
			diffs = append(diffs, diff)
			if diff <= 0.01 {
				continue
			}
			s.Changed++
		case d.OldM != nil:
			s.CoverageLost++
		case d.NewM != nil:
			s.CoverageGained++
		default:
			continue
		}
		changed = append(changed, d)
	}
	s.AbsDiffM = spreadOf(diffs)
	slices.SortStableFunc(changed, func(a, b ElevationDiff) int { return cmp.Compare(heightChange(b), heightChange(a)) })
	s.Worst = changed[:min(worst, len(changed))]
	return s
}

func height(d *elevation.DEM, p route.Point) *Num {
	if d == nil {
		return nil
	}
	h, ok := d.At(p[0], p[1])
	if !ok {
		return nil
	}
	return new(Num(h))
}

// heightChange orders diffs: lost coverage first, then by the difference.
func heightChange(d ElevationDiff) float64 {
	if d.OldM == nil || d.NewM == nil {
		return math.Inf(1)
	}
	return math.Abs(float64(*d.NewM - *d.OldM))
}

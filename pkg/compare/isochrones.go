package compare

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/isochrone"
	"github.com/mapsco/maps/pkg/route"
)

// IsochroneSummary compares the area reachable from sample origins within
// one budget.
type IsochroneSummary struct {
	Origins int     `json:"origins"`
	Minutes float64 `json:"minutes"`
	// Changed counts origins whose area changed by more than 0.1 %;
	// Failed those with an isochrone on one release only (the origin no
	// longer on a road, say).
	Changed   int             `json:"changed"`
	Failed    int             `json:"failed"`
	AreaRatio Spread          `json:"area_ratio"` // new/old, over origins with both
	Worst     []IsochroneDiff `json:"worst"`
}

// IsochroneDiff is one origin's reachable area on both releases, in km²
// (null when the release has no isochrone there).
type IsochroneDiff struct {
	Profile   string      `json:"profile"`
	Origin    route.Point `json:"origin"`
	OldKm2    *Num        `json:"old_km2"`
	NewKm2    *Num        `json:"new_km2"`
	AreaRatio *Num        `json:"area_ratio,omitempty"`
}

// isoJob is one origin to compare.
type isoJob struct {
	pr     pairRouters
	origin route.Point
}

// compareIsochrones computes each origin's isochrone on both releases.
func compareIsochrones(ctx context.Context, jobs []isoJob, minutes float64, departure time.Time, workers, worst int) (IsochroneSummary, error) {
	s := IsochroneSummary{Origins: len(jobs), Minutes: minutes}
	diffs := make([]IsochroneDiff, len(jobs))
	var oldEngine, newEngine isochrone.Engine
	budget := isochrone.Request{Budgets: []isochrone.Budget{{Value: minutes, Unit: isochrone.Minutes}}, Departure: departure}
	err := forEach(ctx, workers, len(jobs), func(i int) error {
		j := jobs[i]
		d := IsochroneDiff{Profile: j.pr.profile, Origin: j.origin}
		var err error
		if d.OldKm2, err = reachableKm2(ctx, &oldEngine, j.pr.old, j.origin, budget); err != nil {
			return err
		}
		if d.NewKm2, err = reachableKm2(ctx, &newEngine, j.pr.new, j.origin, budget); err != nil {
			return err
		}
		if d.OldKm2 != nil && d.NewKm2 != nil {
			d.AreaRatio = new(Num(ratio(float64(*d.OldKm2), float64(*d.NewKm2), 1e-6)))
		}
		diffs[i] = d
		return nil
	})
	if err != nil {
		return s, err
	}
	var ratios []float64
	var changed []IsochroneDiff
	for _, d := range diffs {
		switch {
		case d.AreaRatio != nil:
			ratios = append(ratios, float64(*d.AreaRatio))
			if severity(float64(*d.AreaRatio)) > math.Log(1.001) {
				s.Changed++
				changed = append(changed, d)
			}
		case (d.OldKm2 == nil) != (d.NewKm2 == nil):
			s.Failed++
			changed = append(changed, d)
		}
	}
	s.AreaRatio = spreadOf(ratios)
	slices.SortStableFunc(changed, func(a, b IsochroneDiff) int { return cmp.Compare(isoSeverity(b), isoSeverity(a)) })
	s.Worst = changed[:min(worst, len(changed))]
	return s, nil
}

func isoSeverity(d IsochroneDiff) float64 {
	if d.AreaRatio == nil {
		return math.Inf(1)
	}
	return severity(float64(*d.AreaRatio))
}

// reachableKm2 is the area of origin's isochrone on r's release, nil when
// the origin does not snap or lies on no arc the profile may leave by.
func reachableKm2(ctx context.Context, e *isochrone.Engine, r *route.Router, origin route.Point, req isochrone.Request) (*Num, error) {
	snapped, err := r.Snap([]route.Point{origin})
	if err != nil {
		return nil, nil
	}
	cs, err := e.Compute(ctx, r.Graph(), snapped[0], req)
	if errors.Is(err, isochrone.ErrNotOnRoad) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	a := 0.0
	for _, p := range cs[0].Polygons {
		a += polygonArea(p)
	}
	return new(Num(a / 1e6)), nil
}

// polygonArea is the area of an exterior ring less its holes, in m², on a
// local equirectangular projection: isochrones span tens of kilometres, where
// its error is far below what a contour's shape means.
func polygonArea(p isochrone.Polygon) float64 {
	if len(p) == 0 || len(p[0]) == 0 {
		return 0
	}
	kx := geo.MetresPerDegreeLat * geo.LonScale(p[0][0][1])
	a := math.Abs(ringArea(p[0], kx))
	for _, hole := range p[1:] {
		a -= math.Abs(ringArea(hole, kx))
	}
	return a
}

// ringArea is the shoelace formula, relative to the ring's first point to
// keep the products small.
func ringArea(r isochrone.Ring, kx float64) float64 {
	o := r[0]
	s := 0.0
	for i := 1; i+1 < len(r); i++ {
		ax, ay := (r[i][0]-o[0])*kx, (r[i][1]-o[1])*geo.MetresPerDegreeLat
		bx, by := (r[i+1][0]-o[0])*kx, (r[i+1][1]-o[1])*geo.MetresPerDegreeLat
		s += ax*by - bx*ay
	}
	return s / 2
}

package compare

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// Trip is a route's totals on one release.
type Trip struct {
	DistanceM Num `json:"distance_m"`
	DurationS Num `json:"duration_s"`
}

// Route statuses.
const (
	Unchanged        = "unchanged"
	Changed          = "changed"           // routable in both; time or way differ
	BecameUnroutable = "became_unroutable" // routable in old only
	BecameRoutable   = "became_routable"   // routable in new only
	Unroutable       = "unroutable"        // in neither
)

// PairChange is one route asked of both releases.
type PairChange struct {
	Profile string      `json:"profile"`
	Name    string      `json:"name,omitempty"` // a landmark's
	From    route.Point `json:"from"`
	To      route.Point `json:"to"`
	Status  string      `json:"status"`
	Old     *Trip       `json:"old"` // null when there is no route
	New     *Trip       `json:"new"`
	// OldError and NewError say why there is no route: "no_route" (the
	// points are on roads no path joins) or "unsnappable" (a point is not
	// near a usable road).
	OldError string `json:"old_error,omitempty"`
	NewError string `json:"new_error,omitempty"`
	// Ratios are new/old, over values floored at 1 s and 1 m; null unless
	// routable in both.
	DurationRatio *Num `json:"duration_ratio,omitempty"`
	DistanceRatio *Num `json:"distance_ratio,omitempty"`
	// SnapMovedM is, per waypoint, how far apart its snaps on the two
	// releases lie, in metres; absent when either release cannot snap it.
	SnapMovedM []Num `json:"snap_moved_m,omitempty"`
	// RoadsLeft and RoadsTaken name, for the worst changes and the
	// landmarks, the roads the old route used that the new one does not,
	// and the other way (roads.go).
	RoadsLeft  []RoadChange `json:"roads_left,omitempty"`
	RoadsTaken []RoadChange `json:"roads_taken,omitempty"`
}

// RouteSummary is one profile's sampled routes.
type RouteSummary struct {
	Profile          string `json:"profile"`
	Pairs            int    `json:"pairs"`
	RoutableBoth     int    `json:"routable_both"`
	BecameUnroutable int    `json:"became_unroutable"`
	BecameRoutable   int    `json:"became_routable"`
	UnroutableBoth   int    `json:"unroutable_both"`
	// Changed counts routes routable in both whose time changed at all or
	// whose length changed by more than 1 m; ChangedOver1Pct those whose
	// time or length changed by more than 1 %.
	Changed         int `json:"changed"`
	ChangedOver1Pct int `json:"changed_over_1pct"`
	// Ratios of new to old over the routes routable in both.
	DurationRatio Spread       `json:"duration_ratio"`
	DistanceRatio Spread       `json:"distance_ratio"`
	Worst         []PairChange `json:"worst"` // the largest changes, largest first
}

// pairRouters are one profile's routers on both releases and the
// conditions each is routed under.
type pairRouters struct {
	profile      string
	old, new     *route.Router
	oldSt, newSt *graph.State
}

// comparePair routes a to b on both releases.
func (pr pairRouters) comparePair(ctx context.Context, a, b route.Point) (PairChange, error) {
	c := PairChange{Profile: pr.profile, From: a, To: b}
	var err error
	var oldSnaps, newSnaps []snap.Result
	if c.Old, c.OldError, oldSnaps, err = trip(ctx, pr.old, pr.oldSt, a, b); err != nil {
		return c, err
	}
	if c.New, c.NewError, newSnaps, err = trip(ctx, pr.new, pr.newSt, a, b); err != nil {
		return c, err
	}
	c.Status = status(c.Old, c.New)
	if oldSnaps != nil && newSnaps != nil {
		c.SnapMovedM = make([]Num, len(oldSnaps))
		for i, o := range oldSnaps {
			c.SnapMovedM[i] = Num(geo.Distance(o.Lon, o.Lat, newSnaps[i].Lon, newSnaps[i].Lat))
		}
	}
	if c.Old != nil && c.New != nil {
		d := Num(ratio(float64(c.Old.DurationS), float64(c.New.DurationS), floorSeconds))
		l := Num(ratio(float64(c.Old.DistanceM), float64(c.New.DistanceM), floorMetres))
		c.DurationRatio, c.DistanceRatio = &d, &l
	}
	return c, nil
}

// trip routes a to b and returns the waypoints' snaps (nil when one does
// not snap); a route that does not exist is no error, only a reason.
func trip(ctx context.Context, r *route.Router, st *graph.State, a, b route.Point) (*Trip, string, []snap.Result, error) {
	rt, err := r.Route(ctx, []route.Point{a, b}, st)
	switch {
	case errors.Is(err, route.ErrNoRoute):
		snaps, _ := r.Snap([]route.Point{a, b}) // Route does not return them with the error
		return nil, "no_route", snaps, nil
	case errors.Is(err, route.ErrUnsnappable):
		return nil, "unsnappable", nil, nil
	case err != nil:
		return nil, "", nil, err
	}
	return &Trip{DistanceM: Num(rt.DistanceM), DurationS: Num(rt.DurationS)}, "", rt.Snapped, nil
}

func status(old, new *Trip) string {
	switch {
	case old == nil && new == nil:
		return Unroutable
	case new == nil:
		return BecameUnroutable
	case old == nil:
		return BecameRoutable
	case old.DurationS != new.DurationS || math.Abs(float64(new.DistanceM-old.DistanceM)) > 1:
		return Changed
	}
	return Unchanged
}

// routePairs routes consecutive kept points of the sample as pairs.
func routePairs(ctx context.Context, pr pairRouters, pts []route.Point, workers int) ([]PairChange, error) {
	out := make([]PairChange, len(pts)/2)
	err := forEach(ctx, workers, len(out), func(i int) error {
		var err error
		out[i], err = pr.comparePair(ctx, pts[2*i], pts[2*i+1])
		return err
	})
	return out, err
}

// summarizeRoutes counts the outcomes and keeps the worst changes.
func summarizeRoutes(profile string, pairs []PairChange, worst int) RouteSummary {
	s := RouteSummary{Profile: profile, Pairs: len(pairs)}
	var dur, dist []float64
	var changed []PairChange
	for _, c := range pairs {
		switch c.Status {
		case BecameUnroutable:
			s.BecameUnroutable++
		case BecameRoutable:
			s.BecameRoutable++
		case Unroutable:
			s.UnroutableBoth++
		}
		if c.DurationRatio != nil {
			s.RoutableBoth++
			dur, dist = append(dur, float64(*c.DurationRatio)), append(dist, float64(*c.DistanceRatio))
		}
		if c.Status == Changed {
			s.Changed++
			if changeSeverity(c) > math.Log(1.01) {
				s.ChangedOver1Pct++
			}
		}
		if c.Status != Unchanged && c.Status != Unroutable {
			changed = append(changed, c)
		}
	}
	s.DurationRatio, s.DistanceRatio = spreadOf(dur), spreadOf(dist)
	s.Worst = worstPairs(changed, worst)
	return s
}

// worstPairs sorts changes by severity, routes lost first, then routes
// gained, then by how far the time or length ratio is from 1; it keeps n.
func worstPairs(cs []PairChange, n int) []PairChange {
	rank := func(c PairChange) int {
		switch c.Status {
		case BecameUnroutable:
			return 0
		case BecameRoutable:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(cs, func(a, b PairChange) int {
		if r := cmp.Compare(rank(a), rank(b)); r != 0 {
			return r
		}
		return cmp.Compare(changeSeverity(b), changeSeverity(a))
	})
	return cs[:min(n, len(cs))]
}

// changeSeverity is the larger of the time and length ratios' distances
// from 1 (0 when either release has no route).
func changeSeverity(c PairChange) float64 {
	if c.DurationRatio == nil {
		return 0
	}
	return max(severity(float64(*c.DurationRatio)), severity(float64(*c.DistanceRatio)))
}

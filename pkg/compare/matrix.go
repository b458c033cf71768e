package compare

import (
	"cmp"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// MatrixSummary compares one profile's square matrix over the first kept
// points of its sample, cell by cell (the diagonal included: a point to
// itself must stay 0).
type MatrixSummary struct {
	Profile string `json:"profile"`
	Points  int    `json:"points"`
	Cells   int    `json:"cells"`
	// Changed counts cells whose time changed at all or whose length
	// changed by more than 1 m; ChangedOver1Pct by more than 1 %.
	Changed         int        `json:"changed"`
	ChangedOver1Pct int        `json:"changed_over_1pct"`
	BecameNull      int        `json:"became_null"`      // reachable in old only
	BecameReachable int        `json:"became_reachable"` // reachable in new only
	DurationRatio   Spread     `json:"duration_ratio"`   // over cells reachable in both
	Worst           []CellDiff `json:"worst"`
}

// CellDiff is one matrix cell that changed.
type CellDiff struct {
	From          route.Point `json:"from"`
	To            route.Point `json:"to"`
	Old           *Trip       `json:"old"` // null: unreachable
	New           *Trip       `json:"new"`
	DurationRatio *Num        `json:"duration_ratio,omitempty"`
}

// compareMatrix computes the table on both releases and compares it.
func compareMatrix(pr pairRouters, pts []route.Point, worst int) MatrixSummary {
	s := MatrixSummary{Profile: pr.profile, Points: len(pts), Cells: len(pts) * len(pts)}
	oldT, newT := table(pr.old, pr.oldSt, pts), table(pr.new, pr.newSt, pts)
	var ratios []float64
	var diffs []CellDiff
	for i := range pts {
		for j := range pts {
			o, n := cellTrip(oldT, i, j), cellTrip(newT, i, j)
			d := CellDiff{From: pts[i], To: pts[j], Old: o, New: n}
			switch {
			case o == nil && n == nil:
				continue
			case n == nil:
				s.BecameNull++
			case o == nil:
				s.BecameReachable++
			default:
				r := ratio(float64(o.DurationS), float64(n.DurationS), floorSeconds)
				ratios = append(ratios, r)
				if o.DurationS == n.DurationS && math.Abs(float64(n.DistanceM-o.DistanceM)) <= 1 {
					continue
				}
				s.Changed++
				l := ratio(float64(o.DistanceM), float64(n.DistanceM), floorMetres)
				if max(severity(r), severity(l)) > math.Log(1.01) {
					s.ChangedOver1Pct++
				}
				d.DurationRatio = new(Num(r))
			}
			diffs = append(diffs, d)
		}
	}
	s.DurationRatio = spreadOf(ratios)
	s.Worst = worstCells(diffs, worst)
	return s
}

// table computes the matrix under st with a query from r's pool.
func table(r *route.Router, st *graph.State, pts []route.Point) matrix.Table {
	q := r.Query()
	defer r.PutQuery(q)
	q.SetState(st)
	return matrix.Compute(r, q, pts, pts)
}

func cellTrip(t matrix.Table, i, j int) *Trip {
	d := t.Durations[i][j]
	if math.IsNaN(d) {
		return nil
	}
	return &Trip{DurationS: Num(d), DistanceM: Num(t.Distances[i][j])}
}

// worstCells puts cells that lost their route first, then gained ones, then
// by how far the time ratio is from 1.
func worstCells(ds []CellDiff, n int) []CellDiff {
	key := func(d CellDiff) float64 {
		switch {
		case d.New == nil:
			return math.Inf(1)
		case d.DurationRatio == nil:
			return math.MaxFloat64
		}
		return severity(float64(*d.DurationRatio))
	}
	slices.SortStableFunc(ds, func(a, b CellDiff) int { return cmp.Compare(key(b), key(a)) })
	return ds[:min(n, len(ds))]
}

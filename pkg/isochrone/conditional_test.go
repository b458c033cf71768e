package isochrone

import (
	"context"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
)

// TestDepartureTime draws a car isochrone in the demonstration town from
// the west end of Carrer Major, whose block from column 2 to 3 is closed to
// motor vehicles Mo-Fr 07:00-09:00. At 08:00 and 10:00 on a Tuesday the
// truth test's rules hold against a time-aware Dijkstra: every road point
// reached within 0.9 × budget is inside, and at least 95% of those over
// 1.1 × budget (or closed) are outside; the part of Carrer Major beyond the
// closure that 10:00 reaches drops out at 08:00.
func TestDepartureTime(t *testing.T) {
	town := compiletest.TimedTown{W: 7, H: 4}
	rel := town.Open(t)
	r := rel.Routers["car"]
	g := r.Graph()
	origin, err := r.Snap([]route.Point{town.Corner(0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	zone, _ := time.LoadLocation("Europe/Andorra")
	budget := Budget{Value: 1, Unit: Minutes}
	var e Engine
	inside := map[int]int{}
	for _, hour := range []int{8, 10} {
		at := time.Date(2026, 11, 24, hour, 0, 0, 0, zone) // a Tuesday
		cs, err := e.Compute(context.Background(), g, origin[0], Request{Budgets: []Budget{budget}, Departure: at})
		if err != nil {
			t.Fatal(err)
		}
		st := g.StateAt(at)
		ref := search.DijkstraAt(g, st, route.Sources(g, st, origin[0]))
		limit := float64(budget.cost())
		var n truthCount
		for s := range uint32(g.Net.NumSegments()) {
			for _, f := range []float64{0.1, 0.3, 0.5, 0.7, 0.9} {
				c := timedPointCost(g, st, ref, s, f)
				lon, lat := pointAt(g.Net, s, f)
				in := insideContour(cs[0], lon, lat)
				switch {
				case c < 0.9*limit:
					n.inner++
					if !in {
						n.innerMiss++
						t.Errorf("%02d:00: point %.5f,%.5f reached in %.0f ms is outside the %.0f ms contour", hour, lon, lat, c, limit)
					}
				case c > 1.1*limit:
					n.outer++
					if in {
						n.outerMiss++
					}
				}
				if in {
					inside[hour]++
				}
			}
		}
		if n.outerPct() < 95 {
			t.Errorf("%02d:00: %.1f%% of points over 1.1× budget outside, want ≥ 95%%", hour, n.outerPct())
		}
		beyond := route.Point{(town.Corner(0, 3)[0] + town.Corner(0, 4)[0]) / 2, town.Corner(0, 3)[1]}
		in := insideContour(cs[0], beyond[0], beyond[1])
		t.Logf("%02d:00: %d/%d inner points inside, %.1f%% of outer outside; Carrer Major beyond the closure inside=%v",
			hour, n.inner-n.innerMiss, n.inner, n.outerPct(), in)
		if in != (hour == 10) {
			t.Errorf("%02d:00: Carrer Major beyond the closure inside=%v", hour, in)
		}
	}
	if inside[8] >= inside[10] {
		t.Errorf("the closure should shrink the 08:00 contour: %d points inside at 08:00, %d at 10:00", inside[8], inside[10])
	}
}

// timedPointCost is pointCost under st: arcs closed now do not count.
func timedPointCost(g *graph.Graph, st *graph.State, cost []uint32, s uint32, f float64) float64 {
	best := 1e18
	for rev := range 2 {
		a := g.ArcOf[graph.SegRef(s, rev == 1)]
		if a == graph.NoArc || cost[a] == search.Unreached {
			continue
		}
		w := float64(st.ArcTime(g, a))
		along := f
		if rev == 1 {
			along = 1 - f
		}
		best = min(best, float64(cost[a])-w+along*w)
	}
	return best
}

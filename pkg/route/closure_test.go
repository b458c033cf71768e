package route_test

import (
	"context"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// TestClosedTrackReachedAroundIt is issue 36's item 4: Liechtenstein track
// w152786348 (access:conditional=no @ (mar 15-Sep 15)) from its south end to
// its north end on foot on 1 June. Its ends snap to the open tracks beside
// it, on the main network at other times but cut off by the closure then:
// the answer was a 422. The waypoints now move to the nearest road on the
// main network of that time and the route goes round, on roads open then.
func TestClosedTrackReachedAroundIt(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := compiletest.Extract(t, "liechtenstein.osm.pbf")
	r := rel.Routers["pedestrian"]
	g := r.Graph()
	june := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	st := r.StateAt(june)
	for _, pts := range [][]route.Point{
		{{9.5450974, 47.258769}, {9.5419244, 47.2642357}},
		{{9.5450974, 47.257}, {9.5419244, 47.2642357}}, // 200 m south of the south end
	} {
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Departure: june})
		if err != nil {
			t.Errorf("%v on 1 June: %v", pts, err)
			continue
		}
		rt := d.Routes[0]
		t.Logf("%v on 1 June: %.0f m, %.0f s; waypoints %.0f m and %.0f m from the points", pts, rt.DistanceM, rt.DurationS,
			d.Waypoints[0].DistanceM, d.Waypoints[1].DistanceM)
		for _, leg := range rt.Legs {
			for _, a := range leg.Arcs {
				if st.ArcTime(g, a) == graph.NoWay {
					s, _ := g.ArcSegment(a)
					t.Errorf("%v: the route uses segment %d, closed on 1 June", pts, s)
				}
			}
		}
	}
}

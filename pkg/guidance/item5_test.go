package guidance_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// TestSharpTurnWhereTheRefGoesOn: at OSM node 51581574 in La Massana the
// CG-3 turns about 118 degrees right from Avinguda el Travès onto its
// unnamed section; the only other way there is one-way towards the node,
// so there is no other way on, yet a driver must turn: the turn is a step,
// at the node.
func TestSharpTurnWhereTheRefGoesOn(t *testing.T) {
	rel := openAndorra(t)
	d, err := rel.Routers["car"].Directions(context.Background(), route.Request{
		Points: []route.Point{{1.5150, 42.5474}, {1.5134, 42.5484}}, Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	steps := d.Routes[0].Steps[0]
	node := [2]float64{1.5142617, 42.5470878} // OSM node 51581574
	for _, s := range steps {
		if s.Location == node {
			if s.Maneuver != guidance.Turn || s.Modifier != "right" || s.RoadRef != "CG-3" || angleBetween(s.BearingBefore, s.BearingAfter) < 100 {
				t.Errorf("at node 51581574: %+v", s)
			}
			return
		}
	}
	t.Errorf("no step at node 51581574:\n%s", itinerary(steps))
}

// TestWaypointArrival: a stop on the way reads as one, numbered as the
// request's coordinates are (the origin is 0); the last leg arrives at the
// destination.
func TestWaypointArrival(t *testing.T) {
	rel := openAndorra(t)
	pts := []route.Point{{1.5218, 42.5063}, {1.5340, 42.5100}, {1.5800, 42.5340}, {1.5980, 42.5670}}
	d, err := rel.Routers["car"].Directions(context.Background(), route.Request{Points: pts, Steps: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, leg := range d.Routes[0].Steps {
		last := leg[len(leg)-1]
		want := "You have arrived at your destination"
		if i < len(pts)-2 {
			want = "You have reached waypoint " + string(rune('1'+i))
		}
		if last.Maneuver != guidance.Arrive || !strings.HasPrefix(last.Instruction, want) {
			t.Errorf("leg %d ends %q, want %q", i, last.Instruction, want)
		}
		if leg[0].DistanceM == 0 {
			t.Errorf("leg %d departs with no length: %q", i, leg[0].Instruction)
		}
	}
}

package route_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// TestVehicleAvoidExcludeTogether (issue 35): a truck request carrying
// exclude, vehicle and avoid options at once gets one overlay closing the
// union of the arcs each closes alone; with an avoid area that overlay is
// the request's own (short-lived, made anew each time), without one it is
// kept and shared; a default vehicle adds nothing. Legs under the union
// cost exactly what a plain Dijkstra finds with those arcs closed and use
// none of them.
func TestVehicleAvoidExcludeTogether(t *testing.T) {
	t.Parallel() // changes no shared release
	rel := openAndorra(t)
	r := rel.Routers["truck"]
	if ov := r.StateWith(time.Time{}, 0, route.Vehicle{}, route.Avoid{}).Overlay(); ov != nil {
		t.Errorf("no option: an overlay of %d arcs, want none", len(ov.Arcs()))
	}
	pairs := 60
	if testing.Short() {
		pairs = 20
	}
	rng := rand.New(rand.NewPCG(35, 3))
	vehicles := []route.Vehicle{{HeightM: 4.4}, {HeightM: 4.31, Hazmat: true, WeightT: 40}, {}}
	for i, v := range vehicles {
		x := route.ExcludeToll
		a := route.Avoid{Areas: randomArea(rng)}
		byVehicle := r.StateFor(time.Time{}, 0, v).Overlay()
		if v.IsZero() != (byVehicle == nil) {
			t.Fatalf("vehicle %+v: an overlay %v, want one for a vehicle Andorra's limits bind", v, byVehicle != nil)
		}
		want := unionArcs(r.StateExcluding(time.Time{}, x).Overlay(), byVehicle, r.StateAvoiding(time.Time{}, 0, a).Overlay())
		st := r.StateWith(time.Time{}, x, v, a)
		ov := st.Overlay()
		if got := ov.Arcs(); !slices.Equal(got, want) {
			t.Fatalf("vehicle %+v, toll, an area: %d arcs closed, want the union of each option's %d", v, len(got), len(want))
		}
		if !ov.ShortLived() {
			t.Errorf("vehicle %+v with an area: the overlay is kept for others", v)
		}
		if again := r.StateWith(time.Time{}, x, v, a).Overlay(); again == ov {
			t.Errorf("vehicle %+v with an area: the same overlay twice, want one per request", v)
		}
		kept := r.StateWith(time.Time{}, x, v, route.Avoid{Steps: true}).Overlay()
		if kept.ShortLived() || r.StateWith(time.Time{}, x, v, route.Avoid{Steps: true}).Overlay() != kept {
			t.Errorf("vehicle %+v, toll, steps: the overlay is not kept", v)
		}
		changed := unionPairs(t, r, st, ov.Arcs(), rand.New(rand.NewPCG(uint64(i), 35)), pairs)
		t.Logf("vehicle %+v, toll, an area: %d arcs closed, %d pairs equal Dijkstra, %d changed", v, len(want), pairs, changed)
	}
}

// unionArcs is the ascending union of the overlays' arcs.
func unionArcs(ovs ...*graph.Overlay) []uint32 {
	var all []uint32
	for _, ov := range ovs {
		all = append(all, ov.Arcs()...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// unionPairs checks legs between random points placed under st against a
// plain Dijkstra under st and that they use no arc of closed; it returns
// how many differ from the answer without options.
func unionPairs(t *testing.T, r *route.Router, st *graph.State, closed []uint32, rng *rand.Rand, pairs int) int {
	t.Helper()
	q := ch.NewQuery(r.Hierarchy())
	changed := 0
	for range pairs {
		from, to := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
		if _, diff := optionLeg(t, r, q, st, closed, from, to, "vehicle, toll and area"); diff {
			changed++
		}
	}
	return changed
}

// TestExcludedErrorReason: the reason a leg has no route names every
// option the request carried, exclusions and vehicle first, as before
// avoid options existed.
func TestExcludedErrorReason(t *testing.T) {
	area := geo.NewArea([][][][2]float64{{{{1.52, 42.5}, {1.53, 42.5}, {1.53, 42.51}, {1.52, 42.5}}}})
	cases := []struct {
		err  route.ExcludedError
		want string
	}{
		{route.ExcludedError{Exclude: route.ExcludeToll}, "without toll roads"},
		{route.ExcludedError{Vehicle: route.Vehicle{HeightM: 4.4}}, "for a vehicle 4.4 m high"},
		{route.ExcludedError{Avoid: route.Avoid{Areas: area}}, "outside avoid_areas"},
		{route.ExcludedError{Exclude: route.ExcludeToll, Vehicle: route.Vehicle{HeightM: 4.4}, Avoid: route.Avoid{Areas: area, Steps: true}},
			"without toll roads for a vehicle 4.4 m high, outside avoid_areas, without steps"},
		{route.ExcludedError{Vehicle: route.Vehicle{Hazmat: true}, Avoid: route.Avoid{MaxHiking: 3}},
			"for a vehicle carrying dangerous goods, on trails no harder than T3"},
	}
	for _, c := range cases {
		if got := c.err.Reason(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
}

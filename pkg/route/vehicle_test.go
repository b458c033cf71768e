package route_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/route"
)

// TestTruckVehicleEnvalira (issue 35): the Envalira tunnel's approaches
// carry height restrictors posted 4.30 m. A truck from Grau Roig to Pas de
// la Casa goes through the tunnel with the profile's own vehicle, stated
// or not (4.0 m), and with a 4.3 m one (equal passes); a 4.4 m truck is
// refused there and goes over the Port d'Envalira, longer; a 3.5 m truck
// routes as the profile's own.
func TestTruckVehicleEnvalira(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	const tunnel = 6176755
	rel := openAndorra(t)
	r := rel.Routers["truck"]
	pts := []route.Point{{1.686162, 42.552528}, {1.733594, 42.543642}}
	cases := []struct {
		v       route.Vehicle
		through bool
	}{
		{route.Vehicle{}, true},
		{route.Vehicle{HeightM: 4.0, WidthM: 2.55, LengthM: 12, WeightT: 18}, true},
		{route.Vehicle{HeightM: 4.3}, true},
		{route.Vehicle{HeightM: 3.5}, true},
		{route.Vehicle{HeightM: 4.4}, false},
	}
	var first *route.Route
	for _, c := range cases {
		d, err := r.Directions(context.Background(), route.Request{Points: pts, Vehicle: c.v})
		if err != nil {
			t.Fatalf("vehicle %+v: %v", c.v, err)
		}
		rt := d.Routes[0]
		in := false
		for _, a := range rt.Legs[0].Arcs {
			s, _ := r.Graph().ArcSegment(a)
			in = in || rel.Network.SegWay[s] == tunnel
		}
		t.Logf("vehicle %+v: %.0f m, %.0f s, through the tunnel %v", c.v, rt.DistanceM, rt.DurationS, in)
		if in != c.through {
			t.Errorf("vehicle %+v: through the tunnel %v, want %v", c.v, in, c.through)
		}
		if first == nil {
			first = rt
			continue
		}
		same := rt.DurationS == first.DurationS && slices.Equal(rt.Legs[0].Arcs, first.Legs[0].Arcs)
		if same != c.through {
			t.Errorf("vehicle %+v: %.0f s, the profile's own vehicle %.0f s; want the same route: %v", c.v, rt.DurationS, first.DurationS, c.through)
		}
		if !c.through && rt.DurationS <= first.DurationS {
			t.Errorf("vehicle %+v: %.0f s over the pass, not longer than %.0f s through the tunnel", c.v, rt.DurationS, first.DurationS)
		}
		if rt.OperationsApplied() {
			t.Errorf("vehicle %+v: operations_applied with no operation in force", c.v)
		}
	}
}

// TestVehicleMatchesDijkstra is the exactness property of a request's
// vehicle: legs between random points placed under it cost exactly what a
// plain Dijkstra finds on the truck graph with the arcs its limits refuse
// closed, never use such an arc, and some answers changed for the
// vehicles Andorra's limits bind (or the vehicle proves nothing there).
func TestVehicleMatchesDijkstra(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := openAndorra(t)
	r := rel.Routers["truck"]
	pairs := 300
	if testing.Short() {
		pairs = 60
	}
	vehicles := []route.Vehicle{{HeightM: 4.4}, {HeightM: 5.5, WeightT: 40}, {WeightT: 44, AxleLoadT: 11.5},
		{WidthM: 3, LengthM: 18.75}, {Hazmat: true}, {HeightM: 3.5, WeightT: 7.5}}
	for i, v := range vehicles {
		st := r.StateFor(time.Time{}, 0, v)
		closed := st.Overlay().Arcs()
		rng := rand.New(rand.NewPCG(uint64(i), 35))
		q := ch.NewQuery(r.Hierarchy())
		changed := 0
		for range pairs {
			a, b := placedUnder(t, rng, r, st), placedUnder(t, rng, r, st)
			if _, diff := optionLeg(t, r, q, st, closed, a, b, fmt.Sprintf("vehicle %+v", v)); diff {
				changed++
			}
		}
		t.Logf("vehicle %+v: %d arcs closed, %d pairs equal Dijkstra, %d changed", v, len(closed), pairs, changed)
		if len(closed) == 0 {
			if !v.IsZero() && v.HeightM > 4 {
				t.Errorf("vehicle %+v closes no arc; Andorra has limits above the profile's 4.0 m", v)
			}
			if changed > 0 {
				t.Errorf("vehicle %+v closes nothing but changed %d answers", v, changed)
			}
		}
	}
}

// TestLimitsInRelease: the compiled Andorra release keeps the truck's
// limits (issue 35): the Envalira tunnel (CG-2a) and its approaches are
// posted 4.30 m; every record is a limit the profile's own vehicle (4.0 m,
// 2.55 m, 12 m, 18 t) fits under, since roads below it have no arc; the
// car, without a vehicle, keeps none.
func TestLimitsInRelease(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	const tunnel = 6176755
	rel := openAndorra(t)
	g := rel.Routers["truck"].Graph()
	if n := rel.Routers["car"].Graph().NumLimited(); n != 0 {
		t.Errorf("car: %d limit records, want none", n)
	}
	tunnelArcs := 0
	for i := range g.NumLimited() {
		a, l := g.Limited(i)
		if l.Height != 0 && l.Height < 400 || l.Width != 0 && l.Width < 255 || l.Length != 0 && l.Length < 1200 ||
			l.Weight != 0 && l.Weight < 1800 {
			t.Errorf("arc %d: limits %+v below the profile's own vehicle", a, l)
		}
		if s, _ := g.ArcSegment(a); rel.Network.SegWay[s] == tunnel {
			tunnelArcs++
			if l.Height != 430 {
				t.Errorf("tunnel arc %d: limits %+v, want 4.30 m", a, l)
			}
		}
	}
	t.Logf("truck: %d of %d arcs have limits, %d of them the tunnel's", g.NumLimited(), g.NumArcs(), tunnelArcs)
	if tunnelArcs == 0 {
		t.Error("no limit kept on the Envalira tunnel")
	}
}

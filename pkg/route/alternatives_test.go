package route_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/route"
)

// TestAlternativesProperties asks every profile for 1, 2 and 3 alternatives
// on thousands of random trips and checks every answer from the outside
// (overlap measured here, see footprintOf): no route returned repeats
// another (each pair shares at most MaxShare of the shorter), every
// alternative takes between 1 and MaxStretch times the best route's time,
// its time is what its own turns and arcs add up to, it has a shape, and
// no more are returned than asked for. It also checks that alternatives
// are found at all. Every other trip takes its candidates from the search
// spaces, as routes longer than Andorra's do.
func TestAlternativesProperties(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	rel := openAndorra(t)
	trips := 2000
	if testing.Short() {
		trips = 200
	}
	profiles := make([]string, 0, len(rel.Routers))
	for name := range rel.Routers {
		profiles = append(profiles, name)
	}
	slices.Sort(profiles)
	for _, profile := range profiles {
		r := rel.Routers[profile]
		rng := rand.New(rand.NewPCG(21, uint64(len(profile))))
		found := 0
		for i := 0; i < trips; {
			pts := []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}
			rt, err := r.Route(context.Background(), pts, nil)
			if err != nil {
				continue
			}
			i++
			n := 1 + i%3
			alternatives := r.Alternatives
			if i%2 == 1 {
				alternatives = r.AlternativesFromSpaces
			}
			alts := alternatives(context.Background(), rt, n)
			if len(alts) > n {
				t.Fatalf("%s %v: %d alternatives for %d asked", profile, pts, len(alts), n)
			}
			if len(alts) > 0 {
				found++
			}
			checkAlternatives(t, profile, pts, r, rt, alts)
		}
		t.Logf("%s: alternatives on %d of %d trips", profile, found, trips)
		if found < trips/20 {
			t.Errorf("%s: alternatives on only %d of %d trips", profile, found, trips)
		}
	}
}

func checkAlternatives(t *testing.T, profile string, pts []route.Point, r *route.Router, best *route.Route, alts []*route.Route) {
	t.Helper()
	g := r.Graph()
	all := append([]*route.Route{best}, alts...)
	prints := make([]footprint, len(all))
	for i, rt := range all {
		prints[i] = footprintOf(g, rt)
	}
	for i, alt := range alts {
		stretch := alt.DurationS / best.DurationS
		if stretch < 1-1e-9 || stretch > route.MaxStretch+1e-6 {
			t.Fatalf("%s %v: alternative %d takes %.3f s, %.3f times the best route's", profile, pts, i+1, alt.DurationS, stretch)
		}
		if len(alt.Shape()) < 2 || len(alt.Legs) != 1 || alt.DistanceM <= 0 {
			t.Fatalf("%s %v: alternative %d has no shape or leg", profile, pts, i+1)
		}
		var sum float64
		for _, p := range r.Pieces(alt.Legs[0], alt.Snapped[0], alt.Snapped[1]) {
			sum += p.DurationS
		}
		if math.Abs(sum-alt.DurationS) > 0.0015 {
			t.Fatalf("%s %v: alternative %d says %.3f s, its turns and arcs add up to %.3f s", profile, pts, i+1, alt.DurationS, sum)
		}
	}
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if s := sharing(prints[i], prints[j]); s > route.MaxShare+1e-6 {
				t.Fatalf("%s %v: routes %d and %d share %.3f of the shorter", profile, pts, i, j, s)
			}
		}
	}
}

// TestAlternativesAskedDuplicates: the two trips of the issue that were
// answered with copies of the best route (four copies of a 4,140.8 m route
// for three alternatives; the 7,846.5 m best route twice) now get distinct
// routes or none.
func TestAlternativesAskedDuplicates(t *testing.T) {
	rel := openAndorra(t)
	r := rel.Routers["car"]
	for _, pts := range [][]route.Point{{{1.5268, 42.5135}, {1.5190, 42.5398}}, {{1.49473, 42.49083}, {1.45341, 42.47908}}} {
		best, err := r.Route(context.Background(), pts, nil)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 3; n++ {
			checkAlternatives(t, "car", pts, r, best, r.Alternatives(context.Background(), best, n))
		}
	}
}

func randomRoadPoint(rng *rand.Rand, r *route.Router) route.Point {
	g := r.Graph()
	for {
		s := uint32(rng.IntN(g.Net.NumSegments()))
		if g.Big[s] == 1 {
			begin, _ := g.Net.Points(s)
			lon, lat := g.Net.Point(begin)
			return route.Point{lon, lat}
		}
	}
}

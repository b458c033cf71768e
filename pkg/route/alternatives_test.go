package route_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/route"
)

// TestAlternatives looks for three alternatives on many random long car
// and moto trips in Andorra, reports how often 0-3 are found with their
// share and stretch, and checks that none breaks the bounds.
func TestAlternatives(t *testing.T) {
	rel := openAndorra(t)
	trips := 150
	if testing.Short() {
		trips = 40
	}
	for _, profile := range []string{"car", "moto"} {
		r := rel.Routers[profile]
		rng := rand.New(rand.NewPCG(21, 22))
		found := make([]int, 4)
		var shares, stretches []float64
		for done := 0; done < trips; {
			rt, err := r.Route(context.Background(), []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}, nil)
			if err != nil || rt.DistanceM < 5000 {
				continue
			}
			done++
			alts := r.Alternatives(context.Background(), rt, 3)
			found[len(alts)]++
			for i, alt := range alts {
				share := r.Share(rt, alt)
				stretch := alt.DurationS / rt.DurationS
				shares, stretches = append(shares, share), append(stretches, stretch)
				if share > route.MaxShare+1e-9 || stretch > route.MaxStretch+1e-6 || stretch < 1-1e-9 {
					t.Fatalf("%s alternative %d shares %.2f, stretch %.3f", profile, i+1, share, stretch)
				}
				if len(alt.Shape) < 2 || alt.Legs[0].DistanceM <= 0 {
					t.Fatalf("%s alternative %d has no shape", profile, i+1)
				}
			}
		}
		t.Logf("%s, %d trips over 5 km: alternatives found 0:%d 1:%d 2:%d 3:%d; share %s; stretch %s",
			profile, trips, found[0], found[1], found[2], found[3], quantiles(shares), quantiles(stretches))
		if found[0] == trips {
			t.Errorf("%s: no alternative on any of %d trips", profile, trips)
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

// quantiles formats the minimum, median, 90th percentile and maximum.
func quantiles(v []float64) string {
	if len(v) == 0 {
		return "none"
	}
	s := slices.Clone(v)
	slices.Sort(s)
	q := func(p float64) float64 { return s[int(p*float64(len(s)-1))] }
	return fmt.Sprintf("min %.2f median %.2f p90 %.2f max %.2f", s[0], q(0.5), q(0.9), s[len(s)-1])
}

package match_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/match"
)

// setting is one way of recording a trace: a fix every Every seconds with
// Gaussian noise of Sigma metres on each axis, and 2 % outliers.
type setting struct {
	Every, Sigma float64
	Floor        float64 // the share of the true route's length that must be matched
}

// settings are the nine; the floor is the 95 % at 5 s /
// 15 m and, elsewhere, what the method gives with a margin (at 30 m and
// a fix every 15 s, parallel roads 30 m apart cannot be told apart).
var settings = []setting{
	{1, 5, 0.95}, {1, 15, 0.93}, {1, 30, 0.85},
	{5, 5, 0.95}, {5, 15, 0.95}, {5, 30, 0.85},
	{15, 5, 0.93}, {15, 15, 0.90}, {15, 30, 0.80},
}

// TestGeneratedTraces is the property test: traces drawn from random car
// routes on Andorra, sampled and blurred as the settings say, are matched
// back to the route they came from. The share of the true route's length
// (by directed segment) that the matchings travel must reach each
// setting's floor.
func TestGeneratedTraces(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	routes := 40
	if testing.Short() {
		routes = 12
	}
	for _, s := range settings {
		t.Run(fmt.Sprintf("%gs/%gm", s.Every, s.Sigma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(38, uint64(s.Every*100+s.Sigma)))
			var good, total float64
			points, matchings := 0, 0
			for range routes {
				tr := randomRoute(t, rng, r, 1000)
				fixes := sample(rng, tr, s.Every, s.Sigma, 0.02)
				res, err := m.Match(context.Background(), traceOf(fixes))
				if err != nil {
					t.Fatalf("%d fixes: %v", len(fixes), err)
				}
				g, tot := score(r.Graph(), tr, res)
				good, total = good+g, total+tot
				points += len(fixes)
				matchings += len(res.Matchings)
			}
			share := good / total
			t.Logf("%d routes, %.0f km, %d fixes, %d matchings: %.2f %% of the length matched", routes, total/1000, points, matchings, 100*share)
			if share < s.Floor {
				t.Errorf("matched %.2f %% of the true routes' length, want at least %.0f %%", 100*share, 100*s.Floor)
			}
		})
	}
}

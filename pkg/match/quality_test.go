package match_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/match"
	"github.com/mapsco/maps/pkg/route"
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
	r := compiletest.OpenAndorra(t).Routers["car"]
	generatedTraces(t, r, func(rng *rand.Rand) truth { return randomRoute(t, rng, r, 1000) })
}

// TestSynthGeneratedTraces is TestGeneratedTraces on the ~3M-node
// synthetic country (a release of `mapc synth --nodes 3000000` in
// MAPS_SYNTH_RELEASE), on drives of 1 to 25 km as the crow flies: random
// points across the country would make drives of hundreds of kilometres.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run TestSynthGeneratedTraces -v ./pkg/match
func TestSynthGeneratedTraces(t *testing.T) {
	r := compiletest.OpenSynth(t).Routers["car"]
	generatedTraces(t, r, func(rng *rand.Rand) truth { return nearbyRoute(t, rng, r, 1000, 25000) })
}

// generatedTraces matches, per setting, traces sampled from the routes
// drive draws, and holds the share of their length matched to the
// setting's floor.
func generatedTraces(t *testing.T, r *route.Router, drive func(*rand.Rand) truth) {
	m := match.New(r, match.Options{})
	routes := 40
	if testing.Short() {
		routes = 12
	}
	if n, _ := strconv.Atoi(os.Getenv("MAPS_MATCH_ROUTES")); n > 0 {
		routes = n // to measure on more: 112 per setting is the 1,000 routes
	}
	for _, s := range settings {
		t.Run(fmt.Sprintf("%gs/%gm", s.Every, s.Sigma), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(38, uint64(s.Every*100+s.Sigma)))
			var good, total float64
			points, matchings := 0, 0
			var cpu time.Duration // Match's alone: CPU per 100 fixes, logged
			for range routes {
				tr := drive(rng)
				fixes := sample(rng, tr, s.Every, s.Sigma, 0.02)
				c := cpuTime()
				res, err := m.Match(context.Background(), traceOf(fixes))
				cpu += cpuTime() - c
				if err != nil {
					t.Fatalf("%d fixes: %v", len(fixes), err)
				}
				g, tot := score(r.Graph(), tr, res)
				good, total = good+g, total+tot
				points += len(fixes)
				matchings += len(res.Matchings)
			}
			share := good / total
			t.Logf("%d routes, %.0f km, %d fixes, %d matchings: %.2f %% of the length matched; %.2f ms CPU per 100 fixes",
				routes, total/1000, points, matchings, 100*share, float64(cpu.Microseconds())/10/float64(points))
			if share < s.Floor {
				t.Errorf("matched %.2f %% of the true routes' length, want at least %.0f %%", 100*share, 100*s.Floor)
			}
		})
	}
}

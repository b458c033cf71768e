package matrix_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/matrix"
	"github.com/mapsco/maps/pkg/route"
)

// TestTimedCellsEqualDirections: on a town with random time conditions, a
// table computed at a departure time equals directions at that time, cell
// by cell, and the conditions change some cells between times.
func TestTimedCellsEqualDirections(t *testing.T) {
	rel := compiletest.TimedTown{W: 16, H: 16, Random: 6, Seed: 5}.Open(t)
	zone, _ := time.LoadLocation("Europe/Andorra")
	rng := rand.New(rand.NewPCG(8, 9))
	n := 20
	if testing.Short() {
		n = 8
	}
	for _, profile := range []string{"car", "bicycle", "pedestrian"} {
		r := rel.Routers[profile]
		q := ch.NewQuery(r.Hierarchy())
		src, dst := randomPoints(rng, r, n), randomPoints(rng, r, n)
		var first matrix.Table
		changed := 0
		for k, at := range []time.Time{
			time.Date(2026, 11, 24, 8, 0, 0, 0, zone),  // Tuesday morning
			time.Date(2026, 11, 28, 11, 0, 0, 0, zone), // Saturday
			time.Date(2026, 11, 24, 23, 0, 0, 0, zone), // Tuesday night
		} {
			st := r.StateAt(at)
			q.SetState(st)
			tab := matrix.Compute(r, q, src, dst)
			for i := range src {
				for j := range dst {
					got := tab.Durations[i][j]
					rt, err := r.Route(context.Background(), []route.Point{src[i], dst[j]}, st)
					switch {
					case err != nil && !math.IsNaN(got):
						t.Fatalf("%s at %s [%d][%d]: table %.3f s, directions: %v", profile, at, i, j, got, err)
					case err == nil && math.Abs(got-rt.DurationS) > 0.0005:
						t.Fatalf("%s at %s [%d][%d]: table %.3f s, directions %.3f s", profile, at, i, j, got, rt.DurationS)
					}
					if k > 0 && !(got == first.Durations[i][j] || math.IsNaN(got) && math.IsNaN(first.Durations[i][j])) {
						changed++
					}
				}
			}
			if k == 0 {
				first = tab
			}
		}
		t.Logf("%s: %d×%d at three times, every cell equal to directions; %d cells differ from Tuesday 08:00", profile, n, n, changed)
		if profile == "car" && changed == 0 {
			t.Errorf("car: no cell changed with the time: the test proves nothing")
		}
	}
}

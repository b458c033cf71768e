package api

import (
	"testing"

	"github.com/mapsco/maps/pkg/elevation"
)

// TestElevationCost: 1 credit per started 100 points (spec §4).
func TestElevationCost(t *testing.T) {
	for n, want := range map[int]int64{1: 1, 99: 1, 100: 1, 101: 2, 250: 3, 999: 10, 1000: 10} {
		if got := elevationOp.cost(ElevationRequest{Coordinates: make([]Coordinate, n)}); got != want {
			t.Errorf("%d points cost %d credits, want %d", n, got, want)
		}
	}
}

// TestAppendClimb writes the spec's ElevationProfile.
func TestAppendClimb(t *testing.T) {
	got := string(appendClimb(nil, climbOf(1142.65, 53.52, 0.18218)))
	if want := `{"ascent_m":1142.7,"descent_m":53.5,"max_grade":0.1822}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func climbOf(up, down, grade float64) (c elevation.Climb) {
	c.AscentM, c.DescentM, c.MaxGrade = up, down, grade
	return c
}

package route

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
)

// TestE7To6 checks the integer rounding of stored coordinates against the
// float expression polyline6 encoding applies to them, on every value
// around each multiple of ten in a band, at the ends of the range, and on
// random ones.
func TestE7To6(t *testing.T) {
	check := func(x int32) {
		if got, want := e7To6(x), int64(math.Round(geo.Degrees(x)*1e6)); got != want {
			t.Fatalf("e7To6(%d) = %d, want %d", x, got, want)
		}
	}
	for x := int32(-200_000); x <= 200_000; x++ {
		check(x)
	}
	for _, base := range []int32{1_800_000_000, -1_800_000_000, 900_000_000, -900_000_000, math.MaxInt32 - 20, math.MinInt32 + 20} {
		for d := int32(-20); d <= 20; d++ {
			check(base + d)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5_000_000 {
		check(int32(rng.Uint32()))
	}
}

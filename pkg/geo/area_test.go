package geo

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAreaMatchesScan: the banded index answers Contains and Touches as a
// scan of every edge does, over random star-shaped polygons of up to
// 1,000 vertices (with a hole) and random points and pieces near them.
func TestAreaMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inside, touched := 0, 0
	for round := range 40 {
		var polys [][][][2]float64
		for range 1 + rng.IntN(3) {
			cx, cy := 1.5+rng.Float64()*0.2, 42.5+rng.Float64()*0.1
			n := 3 + rng.IntN(1000/(1+round%3))
			outer := star(rng, cx, cy, 0.05, n)
			hole := star(rng, cx, cy, 0.01, 3+rng.IntN(20))
			polys = append(polys, [][][2]float64{outer, hole})
		}
		a := NewArea(polys)
		for range 2000 {
			lon, lat := 1.4+rng.Float64()*0.45, 42.4+rng.Float64()*0.3
			i, in := a.Contains(lon, lat)
			wi, win := scanContains(polys, lon, lat)
			if in != win || i != wi {
				t.Fatalf("round %d: Contains(%v, %v) = %d %v, scan %d %v", round, lon, lat, i, in, wi, win)
			}
			if in {
				inside++
			}
			bLon, bLat := lon+(rng.Float64()-0.5)*0.02, lat+(rng.Float64()-0.5)*0.02
			for p := range polys {
				got, want := a.Touches(p, lon, lat, bLon, bLat), scanTouches(polys[p], lon, lat, bLon, bLat)
				if got != want {
					t.Fatalf("round %d: Touches(%d, %v %v -> %v %v) = %v, scan %v", round, p, lon, lat, bLon, bLat, got, want)
				}
				if got {
					touched++
				}
			}
		}
	}
	if inside == 0 || touched == 0 {
		t.Errorf("no point inside (%d) or piece touching (%d): the test proves nothing", inside, touched)
	}
}

// TestAreaSquareWithHole: a point in the hole is outside, a piece over the
// ring from outside touches, one wholly in the hole does not.
func TestAreaSquareWithHole(t *testing.T) {
	outer := [][2]float64{{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 0}}
	hole := [][2]float64{{1, 1}, {3, 1}, {3, 3}, {1, 3}, {1, 1}}
	a := NewArea([][][][2]float64{{outer, hole}})
	for _, c := range []struct {
		lon, lat float64
		in       bool
	}{{0.5, 0.5, true}, {2, 2, false}, {5, 2, false}, {3.5, 2, true}} {
		if _, in := a.Contains(c.lon, c.lat); in != c.in {
			t.Errorf("Contains(%v, %v) = %v", c.lon, c.lat, in)
		}
	}
	if !a.Touches(0, -1, 2, 5, 2) || a.Touches(0, 1.5, 2, 2.5, 2) || a.Touches(0, -1, -1, -1, 5) {
		t.Error("Touches: a crossing piece missed, or a piece in the hole or outside touched")
	}
}

// star is a closed ring of n vertices around (cx, cy) at random radii up
// to r: simple, since its angles increase.
func star(rng *rand.Rand, cx, cy, r float64, n int) [][2]float64 {
	ring := make([][2]float64, 0, n+1)
	for i := range n {
		ang := 2 * math.Pi * (float64(i) + rng.Float64()*0.5) / float64(n)
		rad := r * (0.3 + 0.7*rng.Float64())
		ring = append(ring, [2]float64{cx + rad*math.Cos(ang), cy + rad*math.Sin(ang)})
	}
	return append(ring, ring[0])
}

func scanContains(polys [][][][2]float64, lon, lat float64) (int, bool) {
	for i, rings := range polys {
		in := false
		for _, ring := range rings {
			for j := 0; j+1 < len(ring); j++ {
				a, b := ring[j], ring[j+1]
				if (a[1] > lat) != (b[1] > lat) && lon < a[0]+(lat-a[1])*(b[0]-a[0])/(b[1]-a[1]) {
					in = !in
				}
			}
		}
		if in {
			return i, true
		}
	}
	return -1, false
}

func scanTouches(rings [][][2]float64, aLon, aLat, bLon, bLat float64) bool {
	one := [][][][2]float64{rings}
	if _, in := scanContains(one, aLon, aLat); in {
		return true
	}
	if _, in := scanContains(one, bLon, bLat); in {
		return true
	}
	s := edge{[2]float64{aLon, aLat}, [2]float64{bLon, bLat}}
	for _, ring := range rings {
		for j := 0; j+1 < len(ring); j++ {
			if crosses(s, edge{ring[j], ring[j+1]}) {
				return true
			}
		}
	}
	return false
}

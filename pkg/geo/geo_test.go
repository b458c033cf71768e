package geo

import (
	"math"
	"testing"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		name                   string
		lon1, lat1, lon2, lat2 float64
		want, tol              float64
	}{
		{"same point", 1.5, 42.5, 1.5, 42.5, 0, 1e-9},
		{"one degree of latitude", 0, 0, 0, 1, 111195, 1},
		{"one degree of longitude at the equator", 0, 0, 1, 0, 111195, 1},
		{"Andorra la Vella to Pas de la Casa", 1.5218, 42.5063, 1.7333, 42.5425, 17750, 100},
		{"antipodes", 0, 0, 180, 0, math.Pi * EarthRadius, 1},
	}
	for _, c := range cases {
		if got := Distance(c.lon1, c.lat1, c.lon2, c.lat2); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: %.1f m, want %.1f±%.0f", c.name, got, c.want, c.tol)
		}
	}
}

func TestProject(t *testing.T) {
	k := LonScale(42.5)
	p := Project(1.5, 42.501, k, 1.49, 42.5, 1.51, 42.5)
	if math.Abs(p.T-0.5) > 1e-9 || math.Abs(p.Lat-42.5) > 1e-12 || math.Abs(p.Dist-111.2) > 0.5 {
		t.Fatalf("projection onto the middle: %+v", p)
	}
	if p := Project(1.6, 42.5, k, 1.49, 42.5, 1.51, 42.5); p.T != 1 || p.Lon != 1.51 {
		t.Fatalf("beyond b clamps to b: %+v", p)
	}
	if p := Project(1.5, 42.5, k, 1.5, 42.5, 1.5, 42.5); p.T != 0 || p.Dist != 0 {
		t.Fatalf("degenerate piece: %+v", p)
	}
	// The planar distance agrees with the great circle within 0.1% at 1 km.
	p = Project(1.5, 42.5, k, 1.51, 42.49, 1.51, 42.51)
	if want := Distance(1.5, 42.5, p.Lon, p.Lat); math.Abs(p.Dist-want) > want*1e-3 {
		t.Fatalf("planar %.2f m, great circle %.2f m", p.Dist, want)
	}
}

func TestFixedRoundTrip(t *testing.T) {
	for _, d := range []float64{0, 1.5218, -71.0665438, 179.9999999, -90} {
		if got := Degrees(Fixed(d)); math.Abs(got-d) > 0.5e-7 {
			t.Errorf("%v -> %v", d, got)
		}
	}
}

package elevation

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
)

// surface is a synthetic Sampler: height as a function of the distance north
// of 42.5°N along the meridian 1.5°E (exact for geo.Distance).
type surface func(northM float64) float64

func (f surface) At(lon, lat float64) (float64, bool) {
	return f((lat - 42.5) * math.Pi / 180 * geo.EarthRadius), true
}

// northLine returns a polyline along 1.5°E through the given distances north
// of 42.5°N.
func northLine(dists ...float64) [][2]float64 {
	pts := make([][2]float64, len(dists))
	for i, d := range dists {
		pts[i] = [2]float64{1.5, 42.5 + d/geo.EarthRadius*180/math.Pi}
	}
	return pts
}

func reversed(pts [][2]float64) [][2]float64 {
	r := slices.Clone(pts)
	slices.Reverse(r)
	return r
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestClimbRampIsExact(t *testing.T) {
	ramp := surface(func(d float64) float64 { return 1000 + 0.08*d })
	pts := northLine(0, 13, 250, 251, 900, 1700, 2000) // irregular vertices
	c := EdgeClimb(ramp, pts, Ground)
	if !c.Covered || !near(c.AscentM, 160, 1e-6) || c.DescentM > 1e-6 || !near(c.MaxGrade, 0.08, 1e-9) ||
		!near(c.StartM, 1000, 1e-6) || !near(c.EndM, 1160, 1e-6) || !near(c.LengthM, 2000, 1e-6) {
		t.Fatalf("ramp: %+v", c)
	}
	r := EdgeClimb(ramp, reversed(pts), Ground)
	if !near(r.DescentM, 160, 1e-6) || r.AscentM > 1e-6 || !near(r.MaxGrade, 0.08, 1e-9) {
		t.Fatalf("reversed ramp: %+v", r)
	}
	short := EdgeClimb(ramp, northLine(0, 40), Ground) // shorter than GradeWindowM
	if !near(short.AscentM, 3.2, 1e-9) || !near(short.MaxGrade, 0.08, 1e-9) {
		t.Fatalf("40 m ramp: %+v", short)
	}
}

// TestClimbIgnoresNoise puts 3 m of DSM-like bumps (a tree row every 120 m)
// on a flat road: raw samples would count metres of ascent.
func TestClimbIgnoresNoise(t *testing.T) {
	bumpy := surface(func(d float64) float64 {
		if math.Mod(d, 120) < 30 {
			return 800 + 3
		}
		return 800
	})
	c := EdgeClimb(bumpy, northLine(0, 3000), Ground)
	if c.AscentM > 1 || c.MaxGrade > 0.03 {
		t.Fatalf("flat road with 3 m bumps: %+v", c)
	}
	// A real hill 60 m high is kept.
	hill := surface(func(d float64) float64 { return 800 + 60*math.Exp(-math.Pow((d-1500)/300, 2)) })
	h := EdgeClimb(hill, northLine(0, 3000), Ground)
	if !near(h.AscentM, 60, 4) || !near(h.DescentM, h.AscentM, 1e-9) {
		t.Fatalf("60 m hill: %+v", h)
	}
}

func TestTunnelAndBridgeAreStraight(t *testing.T) {
	// A 600 m mountain over a road rising 50 m in 2 km.
	mountain := surface(func(d float64) float64 {
		return 1000 + 0.025*d + 600*math.Exp(-math.Pow((d-1000)/300, 2))
	})
	pts := northLine(0, 400, 1100, 2000)
	for _, st := range []Structure{Tunnel, Bridge} {
		c := EdgeClimb(mountain, pts, st)
		if !near(c.AscentM, 50, 1e-6) || c.DescentM > 1e-6 || !near(c.MaxGrade, 0.025, 1e-9) {
			t.Errorf("structure %d: %+v", st, c)
		}
	}
	if g := EdgeClimb(mountain, pts, Ground); g.AscentM < 500 {
		t.Errorf("ground over the mountain: %+v", g)
	}
	// Route: ground, then a tunnel of two segments, then ground; the join
	// inside the tunnel (at 1100 m, under the summit) is never read.
	// Ground at 0-200 m and 1800-2000 m is clear of the mountain.
	route := northLine(0, 200, 700, 1100, 1800, 2000)
	structs := []Structure{Ground, Tunnel, Tunnel, Tunnel, Ground}
	c := RouteClimb(mountain, route, structs)
	if !near(c.AscentM, 50, 2) || c.DescentM > 2 || c.MaxGrade > 0.03 {
		t.Errorf("route through the tunnel climbed: %+v", c)
	}
	between := Between(northLine(0, 1000), 1200, 1100)
	if !near(between.DescentM, 100, 1e-6) || between.AscentM > 1e-6 || !near(between.MaxGrade, 0.1, 1e-9) {
		t.Errorf("Between: %+v", between)
	}
}

// envalira is the Túnel d'Envalira on the CG-2a, OSM way 6176755
// (© OpenStreetMap contributors, ODbL), west portal first.
var envalira = [][2]float64{
	{1.6994742, 42.5467824}, {1.6998647, 42.5464220}, {1.7002778, 42.5459149}, {1.7006340, 42.5455982},
	{1.7014651, 42.5451733}, {1.7036920, 42.5446492}, {1.7058854, 42.5444461}, {1.7089920, 42.5442224},
	{1.7115932, 42.5440667}, {1.7156701, 42.5439719}, {1.7221933, 42.5437505}, {1.7239695, 42.5437639},
	{1.7256265, 42.5438770}, {1.7269735, 42.5440643}, {1.7281585, 42.5443829}, {1.7297929, 42.5449663},
	{1.7311197, 42.5456160}, {1.7322108, 42.5462209}, {1.7331049, 42.5467798},
}

func TestEnvaliraTunnel(t *testing.T) {
	d := openDEM(t, 0)
	tun := EdgeClimb(d, envalira, Tunnel)
	over := EdgeClimb(d, envalira, Ground)
	t.Logf("Envalira tunnel as tunnel: %+v", tun)
	t.Logf("same line over the mountain: %+v", over)
	rise := tun.EndM - tun.StartM
	if !near(tun.AscentM-tun.DescentM, rise, 1e-6) || !near(tun.MaxGrade, math.Abs(rise)/tun.LengthM, 1e-9) {
		t.Errorf("tunnel is not a straight line between its portals: %+v", tun)
	}
	if tun.MaxGrade > 0.08 || over.AscentM < 2*tun.AscentM+100 {
		t.Errorf("tunnel %+v vs mountain %+v", tun, over)
	}
	back := EdgeClimb(d, reversed(envalira), Tunnel)
	if !near(back.AscentM, tun.DescentM, 1e-6) || !near(back.DescentM, tun.AscentM, 1e-6) {
		t.Errorf("reversed tunnel %+v, forward %+v", back, tun)
	}
}

// randomLine is a random walk of 2 to 40 vertices inside Andorra, with steps
// from 1 m to 1.5 km, sometimes repeating a point.
func randomLine(rng *rand.Rand) [][2]float64 {
	n := 2 + rng.IntN(39)
	pts := make([][2]float64, n)
	pts[0] = [2]float64{1.42 + 0.36*rng.Float64(), 42.44 + 0.21*rng.Float64()}
	for i := 1; i < n; i++ {
		step := math.Exp(rng.Float64()*math.Log(1500)) / 111000
		if rng.IntN(20) == 0 {
			step = 0
		}
		a := rng.Float64() * 2 * math.Pi
		pts[i] = [2]float64{pts[i-1][0] + step*math.Cos(a)/0.737, pts[i-1][1] + step*math.Sin(a)}
	}
	return pts
}

// TestClimbProperties: for many random lines on the real DEM, ascent −
// descent is the DEM's end height minus its start height, reversing swaps
// ascent and descent and keeps the grade, and a Profiler reused across calls
// gives the same results as a fresh one.
func TestClimbProperties(t *testing.T) {
	d := openDEM(t, 0)
	rng := rand.New(rand.NewPCG(4, 2))
	var p Profiler
	for i := 0; i < 2000; i++ {
		pts := randomLine(rng)
		var structs []Structure
		if i%3 == 0 {
			structs = make([]Structure, len(pts)-1)
			for k := range structs {
				structs[k] = Structure(rng.IntN(3))
			}
		}
		c := p.Route(d, pts, structs)
		h0, _ := d.At(pts[0][0], pts[0][1])
		h1, _ := d.At(pts[len(pts)-1][0], pts[len(pts)-1][1])
		if !c.Covered || !near(c.AscentM-c.DescentM, h1-h0, 1e-6) || c.AscentM < 0 || c.DescentM < 0 {
			t.Fatalf("line %d %v: %+v; DEM end − start = %.3f", i, pts, c, h1-h0)
		}
		var rs []Structure
		if structs != nil {
			rs = slices.Clone(structs)
			slices.Reverse(rs)
		}
		r := p.Route(d, reversed(pts), rs)
		if !near(r.AscentM, c.DescentM, 1e-6) || !near(r.DescentM, c.AscentM, 1e-6) || !near(r.MaxGrade, c.MaxGrade, 1e-6) {
			t.Fatalf("line %d: forward %+v, reversed %+v", i, c, r)
		}
		if f := RouteClimb(d, pts, structs); f != c {
			t.Fatalf("line %d: reused Profiler %+v, fresh %+v", i, c, f)
		}
	}
}

func TestClimbOutsideCoverage(t *testing.T) {
	d := openDEM(t, 0)
	if c := EdgeClimb(d, [][2]float64{{5, 41.5}, {5.01, 41.5}}, Ground); c.Covered || c.AscentM != 0 || c.LengthM < 800 {
		t.Errorf("line at sea: %+v", c)
	}
	if c := EdgeClimb(d, nil, Ground); c != (Climb{}) {
		t.Errorf("empty line: %+v", c)
	}
	if c := EdgeClimb(d, [][2]float64{{1.5218, 42.5063}}, Ground); !c.Covered || c.StartM != c.EndM || c.AscentM != 0 {
		t.Errorf("single point: %+v", c)
	}
}

func TestProfilerDoesNotAllocate(t *testing.T) {
	d := openDEM(t, 0)
	var p Profiler
	p.Edge(d, envalira, Ground) // grow buffers, fill the cache
	if n := testing.AllocsPerRun(100, func() { p.Edge(d, envalira, Ground) }); n != 0 {
		t.Errorf("Profiler.Edge allocates %.0f times per call", n)
	}
}

package compile_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/compile"
	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/serving"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// openTerrain opens the shared Andorra release and its climbs section.
func openTerrain(t *testing.T) (*serving.Release, []float32) {
	t.Helper()
	dir := compiletest.Andorra(t)
	rel, err := serving.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rel.Close() })
	f, err := artifact.Open(filepath.Join(dir, release.GraphFile))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	climbs, err := artifact.SectionView[float32](f, compile.ClimbsSection)
	if err != nil {
		t.Fatal(err)
	}
	if rel.DEM == nil || len(climbs) != 3*rel.Network.NumSegments() {
		t.Fatalf("DEM %v, %d climb values for %d segments", rel.DEM != nil, len(climbs), rel.Network.NumSegments())
	}
	return rel, climbs
}

// TestClimbsSection: every ground segment's stored climb is pkg/elevation's
// profile of its shape, and the Envalira tunnel (2.9 km under a 400 m
// higher pass) climbs only the few metres between its portals.
func TestClimbsSection(t *testing.T) {
	rel, climbs := openTerrain(t)
	net := rel.Network
	rng := rand.New(rand.NewPCG(3, 3))
	for range 500 {
		s := uint32(rng.IntN(net.NumSegments()))
		if net.SegFlags[s]&(graph.FlagBridge|graph.FlagTunnel) != 0 {
			continue
		}
		c := elevation.EdgeClimb(rel.DEM, shape(net, s), elevation.Ground)
		got := [3]float32{climbs[3*s], climbs[3*s+1], climbs[3*s+2]}
		if want := [3]float32{float32(c.AscentM), float32(c.DescentM), float32(c.MaxGrade)}; got != want {
			t.Fatalf("segment %d: stored %v, profiled %v", s, got, want)
		}
	}
	found := false
	for s := range net.NumSegments() {
		if net.Name(uint32(s)) != "Túnel d'Envalira" || net.SegLength[s] < 1000 {
			continue
		}
		found = true
		up, down, grade := climbs[3*s], climbs[3*s+1], climbs[3*s+2]
		t.Logf("Envalira tunnel segment %d: %.0f m, ascent %.1f m, descent %.1f m, max grade %.4f", s, net.SegLength[s], up, down, grade)
		if up+down > 20 || grade > 0.01 {
			t.Errorf("the tunnel climbs the mountain: ascent %.1f, descent %.1f, max grade %.3f", up, down, grade)
		}
	}
	if !found {
		t.Fatal("no Envalira tunnel segment in the release")
	}
}

func shape(net *graph.Network, s uint32) [][2]float64 {
	var pts [][2]float64
	begin, end := net.Points(s)
	for i := begin; i < end; i++ {
		lon, lat := net.Point(i)
		pts = append(pts, [2]float64{lon, lat})
	}
	return pts
}

// TestUphillSlower: on steep two-way segments, walkers and bicycles always
// take longer uphill than downhill; motos and trucks never go faster uphill
// and slow down where their power, not the road, limits the speed; car has
// no grade model, so its times do not depend on the climb.
func TestUphillSlower(t *testing.T) {
	rel, climbs := openTerrain(t)
	net := rel.Network
	for name, r := range rel.Routers {
		g := r.Graph()
		steep, slower, faster := 0, 0, 0
		for s := range net.NumSegments() {
			up, down, length := float64(climbs[3*s]), float64(climbs[3*s+1]), float64(net.SegLength[s])
			if length < 100 || up < 0.12*length || down > 1 || g.WF[s] == graph.NoWay || g.WB[s] == graph.NoWay {
				continue
			}
			steep++
			if g.WF[s] > g.WB[s] {
				slower++
			} else if g.WF[s] < g.WB[s] {
				faster++
			}
		}
		t.Logf("%s: %d of %d steep two-way segments slower uphill, %d faster", name, slower, steep, faster)
		switch {
		case steep < 20:
			t.Errorf("%s: only %d steep segments", name, steep)
		case name == "car" && slower+faster > steep/10: // a few have per-direction maxspeed
			t.Errorf("car: %d of %d steep segments differ by direction without a grade model", slower+faster, steep)
		case (name == "moto" || name == "truck") && (faster > 0 || slower == 0):
			t.Errorf("%s: %d steep segments slower and %d faster uphill", name, slower, faster)
		case name != "car" && name != "moto" && name != "truck" && slower != steep:
			t.Errorf("%s: only %d of %d steep segments slower uphill", name, slower, steep)
		}
	}
}

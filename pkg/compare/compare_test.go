package compare

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/route"
)

// andorraLandmarks are routes a support desk would be asked about.
var andorraLandmarks = []Landmark{
	{Name: "Andorra la Vella to Pas de la Casa", Profile: "car", From: route.Point{1.5218, 42.5063}, To: route.Point{1.7333, 42.5425}},
	{Name: "La Massana to Escaldes", From: route.Point{1.5147, 42.5449}, To: route.Point{1.5340, 42.5096}},
}

func TestReleaseComparedWithItselfReportsNoChange(t *testing.T) {
	_, old, _ := fixture(t)
	o := smallOptions()
	o.Landmarks, o.Map = andorraLandmarks, true
	rep, err := Run(context.Background(), old, old, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Profiles) != 6 || len(rep.Missing)+len(rep.Added) != 0 {
		t.Fatalf("profiles %v, missing %v, added %v: want the six, none missing or added", rep.Profiles, rep.Missing, rep.Added)
	}
	for _, s := range rep.Routes {
		if s.Pairs != o.Pairs || s.RoutableBoth+s.UnroutableBoth != s.Pairs || s.Changed+s.BecameRoutable+s.BecameUnroutable != 0 || len(s.Worst) != 0 {
			t.Errorf("%s routes: %+v: want %d pairs, none changed", s.Profile, s, o.Pairs)
		}
		if s.DurationRatio.Min != 1 || s.DurationRatio.Max != 1 || s.DistanceRatio.Min != 1 || s.DistanceRatio.Max != 1 {
			t.Errorf("%s ratios %+v %+v: want 1 throughout", s.Profile, s.DurationRatio, s.DistanceRatio)
		}
	}
	for _, s := range rep.Snaps {
		if s.Kept != 2*o.Pairs || s.Drawn != s.Kept || s.MovedM.Max > 0.01 || len(s.Worst) != 0 {
			t.Errorf("%s snaps: %+v: want every drawn point kept where it is", s.Profile, s)
		}
	}
	for _, l := range rep.Landmarks {
		if l.Status != Unchanged || len(l.SnapMovedM) != 2 || l.SnapMovedM[0] != 0 || l.SnapMovedM[1] != 0 {
			t.Errorf("landmark %q %s: %s, snaps moved %v", l.Name, l.Profile, l.Status, l.SnapMovedM)
		}
	}
	if want := 1 + 6; len(rep.Landmarks) != want { // one car landmark, one on every profile
		t.Errorf("%d landmark routes, want %d", len(rep.Landmarks), want)
	}
	for _, m := range rep.Matrices {
		if m.Changed+m.BecameNull+m.BecameReachable != 0 || m.Cells != m.Points*m.Points || m.Points < 2 {
			t.Errorf("matrix %+v: want no change", m)
		}
	}
	if iso := rep.Isochrones; iso.Origins != o.Isochrones || iso.Changed+iso.Failed != 0 || iso.AreaRatio.Min != 1 || iso.AreaRatio.Max != 1 {
		t.Errorf("isochrones %+v: want %d origins, none changed", iso, o.Isochrones)
	}
	if el := rep.Elevation; !el.OldDEM || !el.NewDEM || el.Changed+el.CoverageLost+el.CoverageGained != 0 || el.AbsDiffM.N == 0 {
		t.Errorf("elevation %+v: want heights everywhere, none changed", el)
	}
	for _, c := range rep.Counts {
		if c.Old == nil || c.New == nil || *c.Old != *c.New {
			t.Errorf("count %s: %v → %v", c.Name, c.Old, c.New)
		}
	}
	if v := rep.Check(DefaultThresholds()); len(v) != 0 {
		t.Errorf("violations %v, want none", v)
	}
}

// TestEditedExtractNamesChangedRoutes compares Andorra with a copy in which
// one bridge was removed and one one-way tunnel reversed: every route whose
// time changed must run over or end beside one of the two edited ways, in
// the old release or the new, and both edits must show.
func TestEditedExtractNamesChangedRoutes(t *testing.T) {
	_, old, edited := fixture(t)
	nodes := wayNodes(t, removedWay, flippedWay)
	bridge := emptyBox()
	for p := range nodes[removedWay] {
		bridge.add(route.Point{geo.Degrees(p[0]), geo.Degrees(p[1])})
	}
	onBridge := route.Point{(bridge.minLon + bridge.maxLon) / 2, (bridge.minLat + bridge.maxLat) / 2}
	o := smallOptions()
	o.Worst = 2 * o.Pairs // every change, not just the worst
	o.Landmarks = []Landmark{{Name: "from the bridge", Profile: "car", From: onBridge, To: andorraLandmarks[1].To}}
	rep, err := Run(context.Background(), old, edited, o)
	if err != nil {
		t.Fatal(err)
	}
	if l := rep.Landmarks[0]; l.Status != Changed || len(l.SnapMovedM) != 2 || l.SnapMovedM[0] <= 1 || l.SnapMovedM[1] != 0 {
		t.Errorf("a landmark starting on the removed bridge: %s, snaps moved %v: want changed, its start moved", l.Status, l.SnapMovedM)
	}
	oldS, newS := openTestSide(t, old), openTestSide(t, edited)
	seen := map[int64]int{}
	for _, s := range rep.Routes {
		for _, c := range s.Worst {
			if c.Status == Changed && c.Old.DurationS == c.New.DurationS {
				continue // an equal-time way: the hierarchy may pick another of several
			}
			hit := false
			for id, at := range nodes {
				if oldS.touches(t, c, at, rep.Options.Departure) || newS.touches(t, c, at, rep.Options.Departure) {
					seen[id]++
					hit = true
				}
			}
			if !hit {
				t.Errorf("%s changed without touching an edited way", describe(c))
			}
		}
	}
	if seen[removedWay] == 0 || seen[flippedWay] == 0 {
		t.Errorf("changed routes over the removed bridge: %d, over the reversed tunnel: %d; want both", seen[removedWay], seen[flippedWay])
	}
	// The changes name the edited roads, not only coordinates, and the
	// reversed tunnel by its OSM way id (the removed bridge is shorter than
	// the 50 m a road must differ by to be listed).
	named, byID := map[string]int{}, 0
	for _, s := range rep.Routes {
		for _, c := range s.Worst {
			for _, r := range c.RoadsLeft {
				for _, edited := range []string{"Santa Caterina", "dos Valires"} {
					if strings.Contains(r.Road, edited) {
						named[edited]++
					}
				}
				if slices.Contains(r.Ways, flippedWay) {
					byID++
				}
			}
		}
	}
	if byID == 0 {
		t.Errorf("no change names the reversed way %d among the ways its route left", flippedWay)
	}
	if named["Santa Caterina"] == 0 || named["dos Valires"] == 0 {
		t.Errorf("changes naming the removed bridge as a road left: %d, the reversed tunnel: %d; want both", named["Santa Caterina"], named["dos Valires"])
	}
	car := rep.Routes[slices.Index(rep.Profiles, "car")]
	if car.Changed == 0 || float64(car.DurationRatio.Max) <= 1.5 {
		t.Errorf("car: %d changed, worst time ratio %g: want a detour over 1.5×", car.Changed, car.DurationRatio.Max)
	}
	checkSnapsMovedOffBridge(t, rep, nodes[removedWay])
	checkCounts(t, rep)
	v := rep.Check(DefaultThresholds())
	if !hasViolation(v, "duration_ratio_max", "car") {
		t.Errorf("violations %v: want duration_ratio_max for car", v)
	}
}

// checkSnapsMovedOffBridge: points drawn on the removed bridge must snap
// elsewhere in the new release, and be left out of the pairs.
func checkSnapsMovedOffBridge(t *testing.T, rep *Report, bridge map[[2]int32]bool) {
	t.Helper()
	box := emptyBox()
	for p := range bridge {
		box.add(route.Point{geo.Degrees(p[0]), geo.Degrees(p[1])})
	}
	moved := 0
	for _, s := range rep.Snaps {
		for _, d := range s.Worst {
			if d.At[0] >= box.minLon-1e-6 && d.At[0] <= box.maxLon+1e-6 && d.At[1] >= box.minLat-1e-6 && d.At[1] <= box.maxLat+1e-6 {
				moved++
				if float64(d.MovedM) <= rep.Options.PresenceM {
					t.Errorf("%s: a point on the removed bridge at %v moved %g m, within the presence radius", s.Profile, d.At, d.MovedM)
				}
			}
		}
	}
	// Whether any of the drawn points lands on the bridge is the sampler's
	// luck (truck.json's height-restrictor rule changed the truck's roads,
	// hence its draws, and the last one that did no longer does): the
	// landmark starting on the bridge asserts that such a start moves.
	t.Logf("%d drawn points on the removed bridge among the worst moves", moved)
}

func checkCounts(t *testing.T, rep *Report) {
	t.Helper()
	for _, c := range rep.Counts {
		if c.Name == "routable_ways" && *c.New != *c.Old-1 {
			t.Errorf("routable ways %d → %d: want one fewer", *c.Old, *c.New)
		}
		if c.Name == "segments" && *c.New >= *c.Old {
			t.Errorf("segments %d → %d: want fewer", *c.Old, *c.New)
		}
	}
}

// testSide is a release opened by the test, to re-route a reported change.
type testSide struct{ *side }

func openTestSide(t *testing.T, dir string) testSide {
	t.Helper()
	s, err := openSide(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.close() })
	return testSide{s}
}

// touches reports whether c's route on this release passes a node of the
// way (nodes: its positions), or starts or ends on a segment that has one:
// a segment that met the removed way at a junction is merged with its
// neighbour once the way is gone, which changes its times by rounding.
func (s testSide) touches(t *testing.T, c PairChange, nodes map[[2]int32]bool, departure time.Time) bool {
	t.Helper()
	r := s.router(c.Profile)
	rt, err := r.Route(context.Background(), []route.Point{c.From, c.To}, r.StateAt(departure))
	if err != nil {
		return false
	}
	for _, p := range rt.Shape() {
		if nodes[[2]int32{geo.Fixed(p[0]), geo.Fixed(p[1])}] {
			return true
		}
	}
	net := r.Graph().Net
	for _, sn := range rt.Snapped {
		begin, end := net.Points(sn.Seg)
		for i := begin; i < end; i++ {
			if nodes[[2]int32{net.GeomCoord[2*i], net.GeomCoord[2*i+1]}] {
				return true
			}
		}
	}
	return false
}

func hasViolation(vs []Violation, threshold, profile string) bool {
	for _, v := range vs {
		if v.Threshold == threshold && v.Profile == profile {
			return true
		}
	}
	return false
}

// TestSampleDependsOnSeedAndOldReleaseOnly: successive nightly gates
// against one old release must compare like with like, whatever the new
// release holds.
func TestSampleDependsOnSeedAndOldReleaseOnly(t *testing.T) {
	_, old, edited := fixture(t)
	oldS, newS := openTestSide(t, old), openTestSide(t, edited)
	draw := func(against testSide, seed uint64) sample {
		pr := pairRouters{profile: "car", old: oldS.router("car"), new: against.router("car")}
		smp, err := drawSamples(context.Background(), []pairRouters{pr}, Options{Seed: seed, Pairs: 300, PresenceM: 5, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		return smp[0]
	}
	self, vsEdited, otherSeed := draw(oldS, 3), draw(newS, 3), draw(oldS, 4)
	for i := range min(len(self.moves), len(vsEdited.moves)) {
		if self.moves[i].at != vsEdited.moves[i].at {
			t.Fatalf("draw %d: %v against itself, %v against the edited release", i, self.moves[i].at, vsEdited.moves[i].at)
		}
	}
	if self.moves[0].at == otherSeed.moves[0].at {
		t.Errorf("seeds 3 and 4 drew the same first point %v", self.moves[0].at)
	}
}

func TestRunIsDeterministic(t *testing.T) {
	_, old, edited := fixture(t)
	o := Options{Pairs: 60, MatrixPoints: 6, Isochrones: 4, ElevationPoints: 20, Departure: time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)}
	var reports [2][]byte
	for i := range reports {
		rep, err := Run(context.Background(), old, edited, o)
		if err != nil {
			t.Fatal(err)
		}
		rep.ElapsedS = 0
		rep.Check(DefaultThresholds())
		var b bytes.Buffer
		if err := WriteJSON(&b, rep); err != nil {
			t.Fatal(err)
		}
		reports[i] = b.Bytes()
	}
	if !bytes.Equal(reports[0], reports[1]) {
		t.Error("two runs with the same options gave different reports")
	}
}

func TestRatioFloors(t *testing.T) {
	for _, c := range []struct{ old, new, want float64 }{
		{100, 150, 1.5}, {0, 0, 1}, {0.2, 0.7, 1}, {0, 2, 2}, {2, 0, 0.5},
	} {
		if got := ratio(c.old, c.new, 1); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ratio(%g, %g) = %g, want %g", c.old, c.new, got, c.want)
		}
	}
}

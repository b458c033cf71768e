package guidance_test

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

func openAndorra(t testing.TB) *serving.Release { return compiletest.OpenAndorra(t) }

func narrateIn(t *testing.T, r *route.Router, pts []route.Point, lang string) (*route.Route, [][]guidance.Step) {
	t.Helper()
	rt, err := r.Route(context.Background(), pts, nil)
	if err != nil {
		t.Fatalf("%v: %v", pts, err)
	}
	var legs [][]guidance.Step
	for i, leg := range rt.Legs {
		a, b := rt.Snapped[i], rt.Snapped[i+1]
		legs = append(legs, guidance.Steps(r.Graph(), guidance.Leg{Pieces: r.Pieces(leg, a, b), Start: [2]float64{a.Lon, a.Lat},
			Dest: pts[i+1], Snapped: [2]float64{b.Lon, b.Lat}, Language: lang}))
	}
	return rt, legs
}

func itinerary(steps []guidance.Step) string {
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%2d. %-75s %7.0f m %6.0f s\n", i+1, s.Instruction, s.DistanceM, s.DurationS)
	}
	return b.String()
}

var update = flag.Bool("update", false, "rewrite the golden itineraries in testdata/itineraries")

// TestGoldenItineraries narrates real Andorran routes in every language
// (English in testdata/itineraries, the others in a folder of their code
// there) and compares each itinerary, step by step (maneuver, instruction, metres, seconds, road
// name and reference), with its golden file in testdata/itineraries, read
// by eye when written: any change in wording, in where a step starts or in
// the route itself shows as a diff. go test -run TestGoldenItineraries
// ./pkg/guidance -update rewrites them (then read the diff). Each English
// case also checks a few maneuvers a person expects, in order, whatever the
// files say, and every language says each road's name and reference as the
// map spells them.
func TestGoldenItineraries(t *testing.T) {
	rel := openAndorra(t)
	cases := []struct {
		name, profile string
		from, to      route.Point
		want          []string // substrings that must appear, in order
	}{
		{"Andorra la Vella to Pas de la Casa", "car", route.Point{1.5218, 42.5063}, route.Point{1.7333, 42.5425},
			[]string{"Head", "At the roundabout, take the", "CG-2", "You have arrived"}},
		{"Andorra la Vella to Pas de la Casa by moto", "moto", route.Point{1.5218, 42.5063}, route.Point{1.7333, 42.5425},
			[]string{"Head", "roundabout", "CG-2", "arrived"}},
		{"Escaldes to Encamp", "car", route.Point{1.5340, 42.5100}, route.Point{1.5800, 42.5340},
			[]string{"Head", "CG-2", "arrived"}},
		{"Sant Julia to Andorra la Vella", "car", route.Point{1.4915, 42.4637}, route.Point{1.5218, 42.5063},
			[]string{"Head", "CG-1", "arrived"}},
		{"La Massana to Ordino", "car", route.Point{1.5150, 42.5450}, route.Point{1.5330, 42.5560},
			[]string{"Head", "arrived"}},
		{"Canillo to Soldeu", "car", route.Point{1.5980, 42.5670}, route.Point{1.6680, 42.5770},
			[]string{"Head", "CG-2", "arrived"}},
		{"a walk in Andorra la Vella", "pedestrian", route.Point{1.5218, 42.5063}, route.Point{1.5270, 42.5080},
			[]string{"Head", "arrived"}},
		{"Encamp to Pas de la Casa by truck", "truck", route.Point{1.5800, 42.5340}, route.Point{1.7333, 42.5425},
			[]string{"Head", "CG-2", "CG-2a", "arrived"}}, // through the Envalira tunnel since truck-2026.11-grade-3
		{"bicycle Escaldes to Andorra la Vella", "bicycle", route.Point{1.5340, 42.5100}, route.Point{1.5218, 42.5063},
			[]string{"Head", "arrived"}},
		{"Arinsal to Andorra la Vella", "car", route.Point{1.4840, 42.5720}, route.Point{1.5218, 42.5063},
			[]string{"Head", "CG-3", "arrived"}},
		{"El Tarter to Canillo", "car", route.Point{1.6500, 42.5790}, route.Point{1.5980, 42.5670},
			[]string{"Head", "CG-2", "arrived"}},
		{"Santa Coloma to Escaldes", "car", route.Point{1.4980, 42.4940}, route.Point{1.5340, 42.5100},
			[]string{"Head", "arrived"}},
		{"Andorra la Vella to the Carretera dels Vilars", "car", route.Point{1.5218, 42.5063}, route.Point{1.5390, 42.5158},
			[]string{"Head", "Carretera dels Vilars", "arrived"}},
		{"Pas de la Casa to Soldeu", "car", route.Point{1.7333, 42.5425}, route.Point{1.6680, 42.5770},
			[]string{"Head", "CG-2", "arrived"}},
		{"Ordino to Arinsal", "car", route.Point{1.5330, 42.5560}, route.Point{1.4840, 42.5720},
			[]string{"Head", "arrived"}},
		{"a walk up to Engolasters", "pedestrian", route.Point{1.5360, 42.5120}, route.Point{1.5660, 42.5190},
			[]string{"Head", "arrived"}},
	}
	for _, lang := range guidance.Languages {
		for _, c := range cases {
			t.Run(lang+"/"+c.name, func(t *testing.T) {
				rt, legs := narrateIn(t, rel.Routers[c.profile], []route.Point{c.from, c.to}, lang)
				got := golden(c.name, c.profile, c.from, c.to, rt, legs[0])
				namesKept(t, legs[0])
				file := filepath.Join("testdata", "itineraries", slug(c.name)+".txt")
				if lang != guidance.DefaultLanguage {
					file = filepath.Join("testdata", "itineraries", lang, slug(c.name)+".txt")
				} else {
					inOrder(t, got, c.want)
				}
				if *update {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (go test -run TestGoldenItineraries ./pkg/guidance -update writes it)", err)
				}
				if got != string(want) {
					t.Errorf("itinerary differs from %s (-update rewrites it):\n--- want\n%s--- got\n%s", file, want, got)
				}
			})
		}
	}
}

// inOrder checks that the English itinerary holds the substrings a person
// expects, in order.
func inOrder(t *testing.T, got string, want []string) {
	t.Helper()
	rest := got
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("itinerary lacks %q after the earlier expectations:\n%s", w, got)
		}
		rest = rest[i+len(w):]
	}
}

// namesKept checks that every step naming its road says the name and the
// reference as the map spells them, whatever the language.
func namesKept(t *testing.T, steps []guidance.Step) {
	t.Helper()
	for i, s := range steps {
		if s.Maneuver == guidance.Arrive {
			continue
		}
		if !strings.Contains(s.Instruction, s.RoadName) || !strings.Contains(s.Instruction, s.RoadRef) {
			t.Errorf("step %d %q does not say %q (%q)", i+1, s.Instruction, s.RoadName, s.RoadRef)
		}
	}
}

// golden writes an itinerary as its golden file holds it: metres and
// seconds rounded, so that only a change a person would notice shows.
func golden(name, profile string, from, to route.Point, rt *route.Route, steps []guidance.Step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, by %s, from %.4f,%.4f to %.4f,%.4f: %.0f m, %.0f s\n",
		name, profile, from[0], from[1], to[0], to[1], rt.DistanceM, rt.DurationS)
	for i, s := range steps {
		fmt.Fprintf(&b, "%2d. %-10s %-72s %6.0f m %5.0f s | %s | %s\n",
			i+1, s.Maneuver, s.Instruction, s.DistanceM, s.DurationS, s.RoadName, s.RoadRef)
	}
	return b.String()
}

func slug(name string) string {
	return strings.ReplaceAll(strings.ToLower(name), " ", "-")
}

// TestStepsProperties checks, over many random routes of every profile,
// that steps add up to their leg, every instruction is present and short,
// and no step merely repeats its predecessor's road going straight on.
func TestStepsProperties(t *testing.T) {
	rel := openAndorra(t)
	rng := rand.New(rand.NewPCG(11, 12))
	routes := 150
	if testing.Short() {
		routes = 40
	}
	for name, r := range rel.Routers {
		g := r.Graph()
		checked := 0
		for checked < routes {
			pts := []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r), randomRoadPoint(rng, r)}
			rt, err := r.Route(context.Background(), pts, nil)
			if err != nil {
				continue
			}
			checked++
			for i, leg := range rt.Legs {
				a, b := rt.Snapped[i], rt.Snapped[i+1]
				steps := guidance.Steps(g, guidance.Leg{Pieces: r.Pieces(leg, a, b), Dest: pts[i+1], Snapped: [2]float64{b.Lon, b.Lat}})
				checkSteps(t, name, leg, steps)
			}
		}
	}
}

func checkSteps(t *testing.T, profile string, leg route.Leg, steps []guidance.Step) {
	t.Helper()
	var d, s float64
	for i, st := range steps {
		d += st.DistanceM
		s += st.DurationS
		if st.Instruction == "" || len(st.Instruction) >= 1000 {
			t.Fatalf("%s: step %d instruction %q", profile, i, st.Instruction)
		}
		// A continue on the road of the step before is said only where
		// another way could be taken for it, and says so: "Continue
		// straight on".
		if i > 0 && st.Maneuver == guidance.Continue && sameRoad(steps[i-1], st) && (st.Modifier != "straight" || !strings.Contains(st.Instruction, "straight")) {
			t.Fatalf("%s: step %d repeats the road of step %d going straight:\n%s", profile, i, i-1, itinerary(steps))
		}
	}
	if math.Abs(d-leg.DistanceM) > 0.01 || math.Abs(s-leg.DurationS) > 0.001 {
		t.Fatalf("%s: steps add up to %.2f m %.3f s, the leg is %.2f m %.3f s", profile, d, s, leg.DistanceM, leg.DurationS)
	}
	if steps[0].Maneuver != guidance.Depart || steps[len(steps)-1].Maneuver != guidance.Arrive || len(steps) > 1000 {
		t.Fatalf("%s: %d steps from %s to %s", profile, len(steps), steps[0].Maneuver, steps[len(steps)-1].Maneuver)
	}
}

func randomRoadPoint(rng *rand.Rand, r *route.Router) route.Point {
	g := r.Graph()
	for {
		s := uint32(rng.IntN(g.Net.NumSegments()))
		if g.Big[s] == 1 {
			begin, end := g.Net.Points(s)
			lon, lat := g.Net.Point(begin + uint32(rng.IntN(int(end-begin))))
			return route.Point{lon + (rng.Float64()-0.5)*0.0004, lat + (rng.Float64()-0.5)*0.0004}
		}
	}
}

// sameRoad is the test's own reading of one road: both named alike
// (ignoring case), or, where either lacks a name, both with one reference.
func sameRoad(a, b guidance.Step) bool {
	switch {
	case a.RoadName != "" && b.RoadName != "":
		return strings.EqualFold(a.RoadName, b.RoadName)
	case a.RoadRef != "" && b.RoadRef != "":
		return strings.EqualFold(a.RoadRef, b.RoadRef)
	}
	return false
}

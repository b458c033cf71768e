package guidance_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
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

func narrate(t *testing.T, r *route.Router, pts []route.Point) (*route.Route, [][]guidance.Step) {
	t.Helper()
	rt, err := r.Route(context.Background(), pts, nil)
	if err != nil {
		t.Fatalf("%v: %v", pts, err)
	}
	var legs [][]guidance.Step
	for i, leg := range rt.Legs {
		a, b := rt.Snapped[i], rt.Snapped[i+1]
		legs = append(legs, guidance.Steps(r.Graph(), guidance.Leg{Pieces: r.Pieces(leg, a, b), Dest: pts[i+1], Snapped: [2]float64{b.Lon, b.Lat}}))
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

// TestItineraries narrates real Andorran routes and checks the maneuvers a
// person expects on each; the itineraries are printed for review.
func TestItineraries(t *testing.T) {
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
		{"Sant Julià to Andorra la Vella", "car", route.Point{1.4915, 42.4637}, route.Point{1.5218, 42.5063},
			[]string{"Head", "CG-1", "arrived"}},
		{"La Massana to Ordino", "car", route.Point{1.5150, 42.5450}, route.Point{1.5330, 42.5560},
			[]string{"Head", "arrived"}},
		{"Canillo to Soldeu", "car", route.Point{1.5980, 42.5670}, route.Point{1.6680, 42.5770},
			[]string{"Head", "CG-2", "arrived"}},
		{"a walk in Andorra la Vella", "pedestrian", route.Point{1.5218, 42.5063}, route.Point{1.5270, 42.5080},
			[]string{"Head", "arrived"}},
		{"Encamp to Pas de la Casa by truck", "truck", route.Point{1.5800, 42.5340}, route.Point{1.7333, 42.5425},
			[]string{"Head", "CG-2", "arrived"}},
		{"bicycle Escaldes to Andorra la Vella", "bicycle", route.Point{1.5340, 42.5100}, route.Point{1.5218, 42.5063},
			[]string{"Head", "arrived"}},
		{"Arinsal to Andorra la Vella", "car", route.Point{1.4840, 42.5720}, route.Point{1.5218, 42.5063},
			[]string{"Head", "CG-3", "arrived"}},
		{"El Tarter to Canillo", "car", route.Point{1.6500, 42.5790}, route.Point{1.5980, 42.5670},
			[]string{"Head", "CG-2", "arrived"}},
		{"Santa Coloma to Escaldes", "car", route.Point{1.4980, 42.4940}, route.Point{1.5340, 42.5100},
			[]string{"Head", "arrived"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, legs := narrate(t, rel.Routers[c.profile], []route.Point{c.from, c.to})
			text := itinerary(legs[0])
			t.Logf("%s (%s):\n%s", c.name, c.profile, text)
			rest := text
			for _, w := range c.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("itinerary lacks %q after the earlier expectations", w)
				}
				rest = rest[i+len(w):]
			}
		})
	}
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
		if i > 0 && st.Maneuver == guidance.Continue && steps[i-1].RoadName == st.RoadName && steps[i-1].RoadRef == st.RoadRef &&
			(st.RoadName != "" || st.RoadRef != "") {
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

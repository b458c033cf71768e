package guidance_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// longRunM is how long a driver stays on one road before the steps must
// have told him its name.
const longRunM = 500

// TestLongRoadsAreNamed drives car routes between uniform points over
// Andorra and Liechtenstein and checks that every road the route follows
// for longRunM metres or more without a change of name (read from the
// route's own arcs, as a driver reads the signs: by name, else by
// reference) is named by some step of the leg. A road that takes over from
// another where nothing else could be taken, as the Avinguda Consell
// d'Europa after the Carrer Bonaventura Armengol in Andorra la Vella, is
// said ("Continue onto ...", OSRM's "new name"), however straight the
// way goes on.
func TestLongRoadsAreNamed(t *testing.T) {
	for _, ex := range []struct {
		name string
		rel  func(testing.TB) *serving.Release
	}{
		{"andorra", func(tb testing.TB) *serving.Release { return compiletest.OpenAndorra(tb) }},
		{"liechtenstein", func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, "liechtenstein.osm.pbf") }},
	} {
		t.Run(ex.name, func(t *testing.T) {
			r := ex.rel(t).Routers["car"]
			rng := rand.New(rand.NewPCG(33, 5))
			box := bounds(r.Graph().Net)
			runs := 0
			for done := 0; done < 150; {
				pts := []route.Point{box.uniform(rng), box.uniform(rng)}
				rt, err := r.Route(context.Background(), pts, nil)
				if err != nil {
					continue
				}
				done++
				a, b := rt.Snapped[0], rt.Snapped[1]
				pieces := r.Pieces(rt.Legs[0], a, b)
				steps := guidance.Steps(r.Graph(), guidance.Leg{Pieces: pieces, Start: [2]float64{a.Lon, a.Lat}, Snapped: [2]float64{b.Lon, b.Lat}, Dest: pts[1]})
				for _, run := range namedRuns(r, pieces) {
					runs++
					if !named(steps, run) {
						t.Errorf("%v: %.0f m on %q (%s) and no step names it:\n%s", pts, run.metres, run.name, run.ref, itinerary(steps))
					}
				}
			}
			t.Logf("%d runs of %d m or more on one named road, each named by a step", runs, longRunM)
			if runs == 0 {
				t.Fatal("no long run of a named road checked")
			}
		})
	}
}

// run is a stretch of a route on one road as a driver reads its signs.
type run struct {
	name, ref string
	metres    float64
}

// namedRuns lists the stretches of longRunM or more along the leg's
// pieces on one named road: consecutive arcs whose names agree (or, when
// either lacks a name, whose references agree).
func namedRuns(r *route.Router, pieces []guidance.Piece) []run {
	var out []run
	var cur run
	flush := func() {
		if cur.metres >= longRunM && (cur.name != "" || cur.ref != "") {
			out = append(out, cur)
		}
	}
	for i, p := range pieces {
		s, _ := r.Graph().ArcSegment(p.Arc)
		next := run{name: signed(r.Graph().Net.Name(s)), ref: signed(r.Graph().Net.Ref(s)), metres: p.DistanceM}
		if i > 0 && sameLabel(cur, next) {
			cur.metres += p.DistanceM
			if cur.name == "" {
				cur.name = next.name
			}
			if cur.ref == "" {
				cur.ref = next.ref
			}
			continue
		}
		flush()
		cur = next
	}
	flush()
	return out
}

// signed is a label as a sign shows it: mappers' placeholders are none.
func signed(label string) string {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "fixme", "todo", "unknown":
		return ""
	}
	return label
}

func sameLabel(a, b run) bool {
	switch {
	case a.name != "" && b.name != "":
		return strings.EqualFold(a.name, b.name)
	case a.ref != "" && b.ref != "":
		return strings.EqualFold(a.ref, b.ref)
	}
	return a.name == "" && a.ref == "" && b.name == "" && b.ref == ""
}

// named reports whether a step of the leg names the run's road: by its
// name, or a name it only grows from (the Steg that goes on as the
// Stegertunnel, OSRM's rule: one road), else by its reference.
func named(steps []guidance.Step, r run) bool {
	grows := func(a, b string) bool {
		a, b = strings.ToLower(a), strings.ToLower(b)
		return a != "" && b != "" && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
	}
	for _, s := range steps {
		if r.name != "" && grows(s.RoadName, r.name) || r.ref != "" && strings.EqualFold(s.RoadRef, r.ref) {
			return true
		}
	}
	return false
}

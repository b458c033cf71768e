package route_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

// bearingTally counts what uniform requests with bearings came to.
type bearingTally struct {
	requests, routed, refused int
	violated                  int // ends whose geometry heads outside the tolerance
	zeroUTurns                int // U-turns of no length at a waypoint
	failures                  []string
}

func (t *bearingTally) String() string {
	return fmt.Sprintf("%d requests: %d routed, %d refused naming a waypoint or leg; %d ends outside the tolerance, %d U-turns of 0 m at a waypoint",
		t.requests, t.routed, t.refused, t.violated, t.zeroUTurns)
}

// bearingRequests routes n uniform random requests over the release's road
// box, cycling through its profiles, of two or three waypoints each with a
// random bearing of tolerance tol, and tallies them.
func bearingRequests(rel *serving.Release, n int, tol float64, seed uint64) *bearingTally {
	var names []string
	for name := range rel.Routers {
		names = append(names, name)
	}
	slices.Sort(names)
	lon0, lat0, lon1, lat1 := roadBox(rel.Routers[names[0]].Graph().Net)
	rng := rand.New(rand.NewPCG(seed, 36))
	tally := &bearingTally{}
	for i := range n {
		r := rel.Routers[names[i%len(names)]]
		k := 2 + i%2
		pts := make([]route.Point, k)
		opts := make([]snap.Options, k)
		for j := range k {
			pts[j] = route.Point{lon0 + rng.Float64()*(lon1-lon0), lat0 + rng.Float64()*(lat1-lat0)}
			opts[j].Bearing = &snap.Bearing{Degrees: math.Floor(rng.Float64() * 360), Tolerance: tol}
		}
		tally.requests++
		dirs, err := r.Directions(context.Background(), route.Request{Points: pts, Snapping: opts, Steps: true})
		var we *route.WaypointError
		if errors.As(err, &we) {
			tally.refused++
			continue
		}
		if err != nil {
			tally.failures = append(tally.failures, fmt.Sprintf("%s %v: %v", r.Graph().Profile, pts, err))
			continue
		}
		tally.routed++
		checkBearings(tally, r, dirs.Routes[0], pts, opts)
	}
	return tally
}

// checkBearings checks each leg's first and last heading against the
// bearings of its waypoints, and looks for U-turns of no length at them.
func checkBearings(tally *bearingTally, r *route.Router, rt *route.Route, pts []route.Point, opts []snap.Options) {
	where := fmt.Sprintf("%s %v bearings %v", r.Graph().Profile, pts, bearingList(opts))
	for i := range rt.Legs {
		shape := rt.LegShape(i)
		if len(shape) < 2 {
			continue // a leg of no length heads nowhere
		}
		ends := [2]struct {
			h  float64
			at int
		}{{heading(shape[0], shape[1]), i}, {heading(shape[len(shape)-2], shape[len(shape)-1]), i + 1}}
		for e, end := range ends {
			b := opts[end.at].Bearing
			if d := angleOff(end.h, b.Degrees); d > b.Tolerance+0.5 {
				tally.violated++
				tally.failures = append(tally.failures, fmt.Sprintf("%s: leg %d %s heading %.0f, waypoint %d asked %.0f±%.0f (snapped %+v)",
					where, i, [2]string{"leaves", "arrives"}[e], end.h, end.at, b.Degrees, b.Tolerance, rt.Snapped[end.at]))
			}
		}
		for _, s := range rt.Steps[i] {
			if s.Maneuver == guidance.UTurn && s.DistanceM < 1 {
				tally.zeroUTurns++
				tally.failures = append(tally.failures, fmt.Sprintf("%s: leg %d U-turn of %.1f m, %.0f s at %v", where, i, s.DistanceM, s.DurationS, s.Location))
			}
		}
	}
}

func bearingList(opts []snap.Options) []float64 {
	out := make([]float64, len(opts))
	for i, o := range opts {
		out[i] = o.Bearing.Degrees
	}
	return out
}

// heading is the compass bearing of travel from a to b, in degrees.
func heading(a, b route.Point) float64 {
	k := math.Cos(a[1] * math.Pi / 180)
	return math.Atan2((b[0]-a[0])*k, b[1]-a[1]) * 180 / math.Pi
}

// angleOff is how far, in degrees, heading h lies from bearing b.
func angleOff(h, b float64) float64 {
	d := math.Abs(math.Mod(h-b, 360))
	if d > 180 {
		d = 360 - d
	}
	return d
}

func TestBearingMeasure(t *testing.T) {
	for _, name := range []string{"andorra", "liechtenstein", "monaco"} {
		rel := compiletestExtract(t, name)
		tally := bearingRequests(rel, 600, 30, 1)
		t.Logf("%s: %v", name, tally)
		for _, f := range tally.failures[:min(len(tally.failures), 15)] {
			t.Log(f)
		}
	}
}

func compiletestExtract(t *testing.T, name string) *serving.Release {
	return compiletest.Extract(t, name+".osm.pbf")
}

package route_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
	"github.com/mapsco/maps/pkg/snap"
)

// bearingRequestsFlag sets how many requests per country
// TestBearingsMetByTheRoute draws: issue 36's measure is 600
// (go test -run TestBearingsMetByTheRoute -v ./pkg/route -args -bearing-requests 600).
var bearingRequestsFlag = flag.Int("bearing-requests", 0, "requests per country in TestBearingsMetByTheRoute (0: the test's own counts)")

// TestBearingsMetByTheRoute draws uniform random requests over the road box
// of Andorra, Liechtenstein and Monaco, cycling through every profile, of
// two or three waypoints, each with a random bearing of tolerance 30, and
// checks that the route meets every bearing (issue 36, item 2): each leg
// leaves its first waypoint and reaches its last heading within the
// tolerance (its geometry's first and last piece), no leg turns round at a
// waypoint (a U-turn whose node is the waypoint: the bearing met by turning
// on the spot, as one request in six did), and every U-turn of the route
// is at a place the profile may turn round (graph's U-turn rule). A
// request may be refused only naming the waypoint or leg that failed.
func TestBearingsMetByTheRoute(t *testing.T) {
	profiles, err := profile.LoadDir(compiletest.Root() + "/profiles")
	if err != nil {
		t.Fatal(err)
	}
	noUTurns := map[string]bool{}
	for _, p := range profiles {
		noUTurns[p.Name] = p.Turns.NoUTurns
	}
	for _, c := range []struct {
		name        string
		n, short    int
		openRelease func(testing.TB) *serving.Release
	}{
		{"andorra", 300, 60, compiletest.OpenAndorra},
		{"liechtenstein", 120, 30, extract("liechtenstein")},
		{"monaco", 120, 30, extract("monaco")},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := c.n
			switch {
			case *bearingRequestsFlag > 0:
				n = *bearingRequestsFlag
			case testing.Short():
				n = c.short
			}
			rel := c.openRelease(t)
			tally := &bearingTally{}
			for _, q := range issueBearings[c.name] {
				bearingRequest(tally, rel.Routers[q.profile], q.pts, q.opts, noUTurns)
			}
			bearingRequests(tally, rel, n, 30, noUTurns)
			t.Logf("%s: %v", c.name, tally)
			for _, r := range tally.refusals {
				t.Logf("refused: %s", r)
			}
			for _, f := range tally.failures[:min(len(tally.failures), 20)] {
				t.Error(f)
			}
			if tally.routed < n/2 {
				t.Errorf("only %d of %d requests routed: the check saw too little", tally.routed, n)
			}
		})
	}
}

func extract(name string) func(testing.TB) *serving.Release {
	return func(tb testing.TB) *serving.Release { return compiletest.Extract(tb, name+".osm.pbf") }
}

// bearingTally counts what uniform requests with bearings came to.
type bearingTally struct {
	requests, routed, refused int
	violated                  int // ends whose geometry heads outside the tolerance
	zeroUTurns                int // U-turns at a waypoint, on the spot
	besideUTurns              int // permitted U-turns within a few metres of a waypoint
	besideUnder1m             int // of which within a metre
	besideDeadEnd             int // of which where nothing else is possible
	forbiddenUTurns           int // U-turns where the profile may not turn round
	failures                  []string
	refusals                  []string
}

func (t *bearingTally) String() string {
	return fmt.Sprintf("%d requests: %d routed, %d refused naming a waypoint or leg; %d ends heading outside the tolerance, "+
		"%d U-turns of 0 m at a waypoint, %d U-turns at a permitted place within %d m of a waypoint (%d within 1 m, %d where nothing else is possible), %d U-turns where the profile may not turn",
		t.requests, t.routed, t.refused, t.violated, t.zeroUTurns, t.besideUTurns, 2*snap.BearingInset, t.besideUnder1m, t.besideDeadEnd, t.forbiddenUTurns)
}

func (t *bearingTally) fail(format string, args ...any) {
	t.failures = append(t.failures, fmt.Sprintf(format, args...))
}

// bearingRequests routes n uniform random requests over the release's road
// box, cycling through its profiles, of two or three waypoints each with a
// random bearing of tolerance tol, and tallies them.
func bearingRequests(tally *bearingTally, rel *serving.Release, n int, tol float64, noUTurns map[string]bool) {
	var names []string
	for name := range rel.Routers {
		names = append(names, name)
	}
	slices.Sort(names)
	lon0, lat0, lon1, lat1 := roadBox(rel.Routers[names[0]].Graph().Net)
	rng := rand.New(rand.NewPCG(36, 2))
	for i := range n {
		r := rel.Routers[names[i%len(names)]]
		k := 2 + i%2
		pts := make([]route.Point, k)
		opts := make([]snap.Options, k)
		for j := range k {
			pts[j] = route.Point{lon0 + rng.Float64()*(lon1-lon0), lat0 + rng.Float64()*(lat1-lat0)}
			opts[j].Bearing = &snap.Bearing{Degrees: math.Floor(rng.Float64() * 360), Tolerance: tol}
		}
		bearingRequest(tally, r, pts, opts, noUTurns)
	}
}

// bearingRequest routes one request with r and tallies it.
func bearingRequest(tally *bearingTally, r *route.Router, pts []route.Point, opts []snap.Options, noUTurns map[string]bool) {
	tally.requests++
	dirs, err := r.Directions(context.Background(), route.Request{Points: pts, Snapping: opts, Steps: true})
	var we *route.WaypointError
	switch {
	case errors.As(err, &we):
		tally.refused++
		tally.refusals = append(tally.refusals, fmt.Sprintf("%s %v bearings %v: %v", r.Graph().Profile, pts, bearingList(opts), err))
		return
	case err != nil:
		tally.fail("%s %v: %v, want a route or a refusal naming a waypoint", r.Graph().Profile, pts, err)
		return
	}
	tally.routed++
	checkBearings(tally, r, dirs.Routes[0], pts, opts, noUTurns[r.Graph().Profile])
}

// issueBearings are issue 36's examples, routed before the uniform
// requests: the moto that arrived heading 66 degrees and turned round.
var issueBearings = map[string][]struct {
	profile string
	pts     []route.Point
	opts    []snap.Options
}{
	"liechtenstein": {{"moto", []route.Point{{9.51712, 47.20328}, {9.56525, 47.26685}},
		[]snap.Options{{}, {Bearing: &snap.Bearing{Degrees: 230, Tolerance: 30}}}}},
}

// checkBearings checks each leg's first and last heading against the
// bearings of its waypoints, and the route's U-turns.
func checkBearings(tally *bearingTally, r *route.Router, rt *route.Route, pts []route.Point, opts []snap.Options, noUTurns bool) {
	where := fmt.Sprintf("%s %v bearings %v", r.Graph().Profile, pts, bearingList(opts))
	for i, leg := range rt.Legs {
		shape := rt.LegShape(i)
		if len(shape) < 2 {
			continue // a leg of no length heads nowhere
		}
		ends := [2]struct {
			h  float64
			at int
		}{{heading(shape[0], shape[1]), i}, {heading(shape[len(shape)-2], shape[len(shape)-1]), i + 1}}
		for e, end := range ends {
			// Half a degree for the planes: snap measures at the point
			// sent, this at the road.
			if b := opts[end.at].Bearing; b != nil && angleOff(end.h, b.Degrees) > b.Tolerance+0.5 {
				tally.violated++
				tally.fail("%s: leg %d %s heading %.1f, waypoint %d asked %g±%g (placed %+v)", where, i,
					[2]string{"leaves", "reaches"}[e], end.h, end.at, b.Degrees, b.Tolerance, rt.Snapped[end.at])
			}
		}
		checkLegUTurns(tally, r.Graph(), leg, rt.Snapped[i], rt.Snapped[i+1], noUTurns, fmt.Sprintf("%s: leg %d", where, i))
		for _, s := range rt.Steps[i] {
			if s.Maneuver == guidance.UTurn && s.DistanceM < atWaypoint { // counted by checkLegUTurns
				tally.fail("%s: leg %d ends with a U-turn of %.2f m, %.0f s at %v", where, i, s.DistanceM, s.DurationS, s.Location)
			}
		}
	}
}

// atWaypoint is how near, in metres, a U-turn's node must lie to a
// waypoint to be the waypoint's own: turning round on the spot, as the
// issue's routes did (0 m). A waypoint placed with a bearing lies inside
// its piece (snap.BearingInset), so a U-turn beside it is one the route
// plans at a permitted place, counted apart; on a piece shorter than
// 2 x BearingInset that place may be nearer than a metre.
const atWaypoint = 0.01

// checkLegUTurns tallies the U-turns of a leg from a to b: each must be at
// a place the profile may turn round, and none at a or b themselves.
func checkLegUTurns(tally *bearingTally, g *graph.Graph, leg route.Leg, a, b snap.Result, noUTurns bool, where string) {
	for k := 1; k < len(leg.Arcs); k++ {
		sa, ra := g.ArcSegment(leg.Arcs[k-1])
		sb, rb := g.ArcSegment(leg.Arcs[k])
		if sa != sb || ra == rb {
			continue
		}
		lon, lat := g.Net.Node(g.ArcHead(leg.Arcs[k-1]))
		near := min(geo.Distance(lon, lat, a.Lon, a.Lat), geo.Distance(lon, lat, b.Lon, b.Lat))
		switch why := forbiddenUTurn(g, leg.Arcs[k-1], sa, noUTurns); {
		case why != "":
			tally.forbiddenUTurns++
			tally.fail("%s turns round at [%.7f, %.7f], %.1f m from a waypoint: %s", where, lon, lat, near, why)
		case near < atWaypoint:
			tally.zeroUTurns++
			tally.fail("%s turns round at its waypoint [%.7f, %.7f]", where, lon, lat)
		case near <= 2*snap.BearingInset:
			tally.besideUTurns++
			if near < 1 {
				tally.besideUnder1m++
			}
			if forbiddenUTurn(g, leg.Arcs[k-1], sa, true) == "" {
				tally.besideDeadEnd++ // or a barrier: nothing else possible
			}
		}
	}
}

func bearingList(opts []snap.Options) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = "null"
		if o.Bearing != nil {
			out[i] = fmt.Sprintf("[%g,%g]", o.Bearing.Degrees, o.Bearing.Tolerance)
		}
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

// TestStopsWithWideBearingsAreNotTurnedAt: a stop on the way whose bearing
// admits both directions of its road (tolerance 180: any heading) is left
// the way the leg before reached it, as turning round there is turning
// round in the road (throughLeg). Without a bearing a stop binds nothing,
// and some routes do leave it the other way: the uniform requests show
// both.
func TestStopsWithWideBearingsAreNotTurnedAt(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	n := 300
	if testing.Short() {
		n = 80
	}
	for _, profile := range []string{"car", "moto"} {
		r := rel.Routers[profile]
		lon0, lat0, lon1, lat1 := roadBox(r.Graph().Net)
		rng := rand.New(rand.NewPCG(36, 4))
		turned, turnedFree, checked := 0, 0, 0
		for range n {
			pts := make([]route.Point, 3)
			for j := range pts {
				pts[j] = route.Point{lon0 + rng.Float64()*(lon1-lon0), lat0 + rng.Float64()*(lat1-lat0)}
			}
			wide := []snap.Options{{}, {Bearing: &snap.Bearing{Degrees: 0, Tolerance: 180}}, {}}
			bound, err := r.Directions(context.Background(), route.Request{Points: pts, Snapping: wide})
			if err != nil {
				continue
			}
			free, err := r.Directions(context.Background(), route.Request{Points: pts})
			if err != nil {
				continue
			}
			checked++
			if turnsAtStop(bound.Routes[0]) {
				turned++
				t.Errorf("%s %v: the stop's bearing admits both ways, and the route turns round at it", profile, pts)
			}
			if turnsAtStop(free.Routes[0]) {
				turnedFree++
			}
		}
		t.Logf("%s: %d of %d routes turn round at a stop placed with any bearing, %d at a stop placed without", profile, turned, checked, turnedFree)
		if turnedFree == 0 {
			t.Errorf("%s: no route turns round at a stop without a bearing either: the test shows nothing", profile)
		}
	}
}

// turnsAtStop reports whether rt turns round on the spot at its second
// waypoint: the second leg's geometry retraces the first's last piece.
func turnsAtStop(rt *route.Route) bool {
	in, out := rt.LegShape(0), rt.LegShape(1)
	return len(in) >= 2 && len(out) >= 2 && out[1] == in[len(in)-2]
}

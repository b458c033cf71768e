package match_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/match"
	"github.com/mapsco/maps/pkg/route"
)

// checkResult checks what every answer must hold: confidences in [0, 1],
// waypoints in trace order and each a matched tracepoint of its matching,
// one route leg between consecutive waypoints, every placed point no
// farther from its fix than the search allows.
func checkResult(t *testing.T, trace match.Trace, res *match.Result) {
	t.Helper()
	if len(res.Tracepoints) != len(trace.Points) {
		t.Fatalf("%d tracepoints for %d points", len(res.Tracepoints), len(trace.Points))
	}
	prev := -1
	for id, m := range res.Matchings {
		if !(m.Confidence >= 0 && m.Confidence <= 1) {
			t.Errorf("matching %d: confidence %v", id, m.Confidence)
		}
		if len(m.Waypoints) < 2 || len(m.Route.Legs) != len(m.Waypoints)-1 {
			t.Fatalf("matching %d: %d waypoints, %d legs", id, len(m.Waypoints), len(m.Route.Legs))
		}
		for k, i := range m.Waypoints {
			tp := res.Tracepoints[i]
			if i <= prev || !tp.Matched || tp.Matching != id || tp.Waypoint != k {
				t.Fatalf("matching %d waypoint %d is point %d (previous %d), tracepoint %+v", id, k, i, prev, tp)
			}
			prev = i
		}
	}
	for i, tp := range res.Tracepoints {
		if !tp.Matched {
			continue
		}
		p := trace.Points[i]
		if d := geo.Distance(p[0], p[1], tp.Place.Lon, tp.Place.Lat); d > 3*max(res.Sigma, at(trace.Radiuses, i))+1 {
			t.Errorf("point %d placed %.0f m away, sigma %.1f", i, d, res.Sigma)
		}
	}
}

func at(s []float64, i int) float64 {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func matchFixes(t *testing.T, m *match.Matcher, fixes []fix) (match.Trace, *match.Result) {
	t.Helper()
	trace := traceOf(fixes)
	res, err := m.Match(context.Background(), trace)
	if err != nil {
		t.Fatalf("%d fixes: %v", len(fixes), err)
	}
	checkResult(t, trace, res)
	return trace, res
}

// TestTraceLeavesTheNetwork: a vehicle leaves the roads for a minute (a
// field, a private yard: 400 m off the route) and comes back. Its fixes
// out there are dropped, the trace splits there rather than inventing a
// road, and the rest is matched.
func TestTraceLeavesTheNetwork(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	rng := rand.New(rand.NewPCG(38, 2))
	for range 5 {
		tr := randomRoute(t, rng, r, 3000)
		fixes := sample(rng, tr, 5, 5, 0)
		lo, hi := len(fixes)*2/5, len(fixes)*2/5+12
		off := 0
		for i := lo; i < hi; i++ {
			fixes[i].p = offset(fixes[i].p, 400, 400)
			if c := r.Finder().Candidates(fixes[i].p[0], fixes[i].p[1], 100, 1, nil, nil); len(c) == 0 {
				off++
			}
		}
		_, res := matchFixes(t, m, fixes)
		matched := 0
		for i, tp := range res.Tracepoints {
			if tp.Matched {
				matched++
			}
			if i >= lo && i < hi && tp.Matched && tp.Place.Dist > 50 {
				t.Errorf("fix %d, 566 m off the route, placed %.0f m from a road", i, tp.Place.Dist)
			}
		}
		if off > match.DefaultMaxDrops && len(res.Matchings) < 2 {
			t.Errorf("%d fixes away from any road in a row, yet %d matching", off, len(res.Matchings))
		}
		// Besides those off the road, the fixes just before the split may
		// be dropped as unreachable from the last one kept.
		if want := len(fixes) - (hi - lo) - match.DefaultMaxDrops; matched < want {
			t.Errorf("%d of %d fixes matched, want at least %d", matched, len(fixes), want)
		}
		good, total := score(r.Graph(), tr, res)
		if good < 0.85*total {
			t.Errorf("%.1f %% of the route matched around the excursion", 100*good/total)
		}
		t.Logf("%d fixes, %d off-road, %d matchings, %d matched, %.1f %% of the length", len(fixes), off, len(res.Matchings), matched, 100*good/total)
	}
}

// TestTraceDoublesBack: out to a point and back the same way; each
// direction of every road is matched as driven.
func TestTraceDoublesBack(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	rng := rand.New(rand.NewPCG(38, 3))
	var good, total float64
	for range 8 {
		pts := compiletest.NearRoadPoints(rng, r.Graph(), 2)
		rt, err := r.Route(context.Background(), []route.Point{pts[0], pts[1], pts[0]}, nil)
		if err != nil || rt.DistanceM < 2000 {
			continue
		}
		tr := truth{rt: rt, shape: rt.Shape()}
		_, res := matchFixes(t, m, sample(rng, tr, 5, 10, 0.02))
		g, tot := score(r.Graph(), tr, res)
		good, total = good+g, total+tot
	}
	t.Logf("%.1f km out and back, %.2f %% matched", total/1000, 100*good/total)
	if good < 0.95*total {
		t.Errorf("%.2f %% of the length matched, want 95 %%", 100*good/total)
	}
}

// TestTraceStopsForMinutes: five minutes parked mid-route, a fix a second
// wandering about with the trace's noise (10 m), matched with and without
// the stop.
//
// Known limit, measured here: fixes that wander behind the vehicle are
// folded into its position only on its own road (viterbi.go, stay); by a
// junction, a wandering fix may still be matched to the road before it and
// the route goes round the block to come back (on these five routes 0.7 to
// 4.3 km more, one stop split in two). The bounds below hold what the
// method gives today, so that it does not get worse: the stop adds at most
// 5 km of loops, and three quarters of the stopped fixes, over all five
// stops, are placed within 30 m of the stop.
func TestTraceStopsForMinutes(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	r := rel.Routers["car"]
	m := match.New(r, match.Options{})
	rng := rand.New(rand.NewPCG(38, 4))
	astray := 0
	const stops = 5
	for range stops {
		tr := randomRoute(t, rng, r, 2000)
		fixes := sample(rng, tr, 1, 10, 0)
		_, moving := matchFixes(t, m, fixes)
		mid := len(fixes) / 2
		stop := make([]fix, 300)
		for i := range stop {
			stop[i] = fix{p: noisy(rng, fixes[mid].at, 10, 0), at: fixes[mid].at, t: fixes[mid].t + float64(i+1)}
		}
		rest := append([]fix{}, fixes[mid+1:]...)
		for i := range rest {
			rest[i].t += 300
		}
		all := append(append(fixes[:mid+1:mid+1], stop...), rest...)
		_, res := matchFixes(t, m, all)
		if len(res.Matchings) > len(moving.Matchings)+1 {
			t.Errorf("%d matchings with the stop, %d without", len(res.Matchings), len(moving.Matchings))
		}
		with, without := matchedLength(res), matchedLength(moving)
		if with > without+5000 {
			t.Errorf("matched %.0f m with the stop, %.0f m without: the stop made loops", with, without)
		}
		far := 0
		for i := mid + 1; i <= mid+len(stop); i++ {
			tp := res.Tracepoints[i]
			at := all[i].at
			if !tp.Matched || geo.Distance(tp.Place.Lon, tp.Place.Lat, at[0], at[1]) > 30 {
				far++
			}
		}
		astray += far
		t.Logf("route %.0f m; matched %.0f m with the stop, %.0f m without; %d stopped fixes astray", tr.rt.DistanceM, with, without, far)
	}
	if astray > stops*300/4 {
		t.Errorf("%d of %d stopped fixes unmatched or over 30 m from the stop", astray, stops*300)
	}
}

func matchedLength(res *match.Result) float64 {
	l := 0.0
	for _, m := range res.Matchings {
		l += m.Route.DistanceM
	}
	return l
}

// TestTraceThroughATunnel: no fix while the route is in a tunnel (GPS
// does not reach there). The matching goes through the tunnel, unsplit.
func TestTraceThroughATunnel(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	r := rel.Routers["car"]
	g := r.Graph()
	m := match.New(r, match.Options{})
	rng := rand.New(rand.NewPCG(38, 5))
	found := 0
	for tries := 0; found < 4 && tries < 400; tries++ {
		tr := randomRoute(t, rng, r, 3000)
		tunnel := tunnelLength(g, tr.rt)
		if tunnel < 300 {
			continue
		}
		found++
		var fixes []fix
		for _, f := range sample(rng, tr, 5, 10, 0) {
			if !inTunnel(r, f.at) {
				fixes = append(fixes, f)
			}
		}
		_, res := matchFixes(t, m, fixes)
		if len(res.Matchings) != 1 {
			t.Errorf("%d matchings, want 1", len(res.Matchings))
		}
		got := covered(g, res)
		var missed float64
		for ref, l := range travelled(g, tr.rt) {
			s, _ := graph.SplitSegRef(ref)
			if g.Net.SegFlags[s]&graph.FlagTunnel != 0 && !got[ref] {
				missed += l
			}
		}
		if missed > 0 {
			t.Errorf("%.0f m of %.0f m of tunnel not matched", missed, tunnel)
		}
		good, total := score(g, tr, res)
		t.Logf("%.0f m of tunnel, %d fixes, %.1f %% of the length matched", tunnel, len(fixes), 100*good/total)
	}
	if found == 0 {
		t.Fatal("no random route went through a tunnel")
	}
}

// tunnelLength is how far the route travels in tunnels, whole segments.
func tunnelLength(g *graph.Graph, rt *route.Route) float64 {
	l := 0.0
	for ref, length := range travelled(g, rt) {
		if s, _ := graph.SplitSegRef(ref); g.Net.SegFlags[s]&graph.FlagTunnel != 0 {
			l += length
		}
	}
	return l
}

// inTunnel reports whether p lies on a tunnel.
func inTunnel(r *route.Router, p route.Point) bool {
	for _, c := range r.Finder().Candidates(p[0], p[1], 1, 3, nil, nil) {
		if r.Graph().Net.SegFlags[c.Seg]&graph.FlagTunnel != 0 {
			return true
		}
	}
	return false
}

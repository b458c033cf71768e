package match_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/match"
	"github.com/mapsco/maps/pkg/route"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// truth is a route a generated trace was drawn from.
type truth struct {
	rt    *route.Route
	shape []route.Point
}

// randomRoute finds the car route between two random points near roads of
// the main network (compiletest.NearRoadPoints), through via when given.
func randomRoute(tb testing.TB, rng *rand.Rand, r *route.Router, minM float64) truth {
	tb.Helper()
	for {
		pts := compiletest.NearRoadPoints(rng, r.Graph(), 2)
		rt, err := r.Route(context.Background(), pts, nil)
		if err != nil || rt.DistanceM < minM {
			continue
		}
		return truth{rt: rt, shape: rt.Shape()}
	}
}

// nearbyRoute finds the car route from a random point near a road of the
// main network to a point minM to maxM metres from it as the crow flies,
// in a random direction (a country is too large for two random points).
func nearbyRoute(tb testing.TB, rng *rand.Rand, r *route.Router, minM, maxM float64) truth {
	tb.Helper()
	for {
		from := compiletest.NearRoadPoints(rng, r.Graph(), 1)[0]
		d, a := minM+(maxM-minM)*rng.Float64(), 2*math.Pi*rng.Float64()
		to := offset(from, d*math.Cos(a), d*math.Sin(a))
		rt, err := r.Route(context.Background(), []route.Point{from, to}, nil)
		if err != nil || rt.DistanceM < minM {
			continue
		}
		return truth{rt: rt, shape: rt.Shape()}
	}
}

// fix is one generated GPS fix: where it was recorded, when, and where
// the vehicle truly was.
type fix struct {
	p, at route.Point
	t     float64
}

// sample walks shape at the route's average speed and takes a fix every
// every seconds, with Gaussian noise of sigma metres on each axis; a
// share outliers of the fixes are thrown 100 to 500 m off instead.
func sample(rng *rand.Rand, tr truth, every, sigma, outliers float64) []fix {
	speed := tr.rt.DistanceM / max(tr.rt.DurationS, 1) // m/s
	var out []fix
	along, next, t := 0.0, 0.0, 0.0
	for i := 0; i+1 < len(tr.shape); i++ {
		a, b := tr.shape[i], tr.shape[i+1]
		d := geo.Distance(a[0], a[1], b[0], b[1])
		for next <= along+d {
			f := 0.0
			if d > 0 {
				f = (next - along) / d
			}
			at := route.Point{a[0] + f*(b[0]-a[0]), a[1] + f*(b[1]-a[1])}
			out = append(out, fix{p: noisy(rng, at, sigma, outliers), at: at, t: t})
			next += speed * every
			t += every
		}
		along += d
	}
	end := tr.shape[len(tr.shape)-1]
	return append(out, fix{p: noisy(rng, end, sigma, 0), at: end, t: t})
}

// noisy moves p by Gaussian noise, or, with probability outliers, 100 to
// 500 m in a random direction.
func noisy(rng *rand.Rand, p route.Point, sigma, outliers float64) route.Point {
	dx, dy := rng.NormFloat64()*sigma, rng.NormFloat64()*sigma
	if rng.Float64() < outliers {
		r, a := 100+400*rng.Float64(), 2*math.Pi*rng.Float64()
		dx, dy = r*math.Cos(a), r*math.Sin(a)
	}
	return offset(p, dx, dy)
}

// offset moves p by dx metres east and dy north.
func offset(p route.Point, dx, dy float64) route.Point {
	return route.Point{p[0] + dx/geo.MetresPerDegreeLat/geo.LonScale(p[1]), p[1] + dy/geo.MetresPerDegreeLat}
}

// traceOf is the request a list of fixes makes.
func traceOf(fixes []fix) match.Trace {
	t := match.Trace{Points: make([]route.Point, len(fixes)), Times: make([]float64, len(fixes))}
	for i, f := range fixes {
		t.Points[i], t.Times[i] = f.p, f.t
	}
	return t
}

// travelled is the length in metres of every directed segment a route
// travels whole (the first and last arc of each leg, travelled in part,
// are left out), by segment reference.
func travelled(g *graph.Graph, rt *route.Route) map[uint32]float64 {
	out := map[uint32]float64{}
	for _, leg := range rt.Legs {
		if len(leg.Arcs) < 3 {
			continue
		}
		for _, a := range leg.Arcs[1 : len(leg.Arcs)-1] {
			ref := g.ArcSegRef(a)
			s, _ := graph.SplitSegRef(ref)
			out[ref] = float64(g.Net.SegLength[s])
		}
	}
	return out
}

// covered is the set of directed segments the matchings travel, in whole
// or in part.
func covered(g *graph.Graph, res *match.Result) map[uint32]bool {
	out := map[uint32]bool{}
	for _, m := range res.Matchings {
		for k, leg := range m.Route.Legs {
			for _, a := range leg.Arcs {
				out[g.ArcSegRef(a)] = true
			}
			if leg.Direct {
				s := m.Route.Snapped[k].Seg
				out[graph.SegRef(s, false)], out[graph.SegRef(s, true)] = true, true
			}
		}
	}
	return out
}

// score is the length of the true route's segments the matchings
// travel in the same direction, and the true route's length so measured.
func score(g *graph.Graph, tr truth, res *match.Result) (good, total float64) {
	got := covered(g, res)
	for ref, l := range travelled(g, tr.rt) {
		total += l
		if got[ref] {
			good += l
		}
	}
	return good, total
}

// longTrace chains random routes, each starting where the last ended,
// and samples them until it has n fixes.
func longTrace(tb testing.TB, rng *rand.Rand, r *route.Router, n int, every, sigma float64) []fix {
	tb.Helper()
	var out []fix
	from := compiletest.NearRoadPoints(rng, r.Graph(), 1)[0]
	for len(out) < n {
		to := compiletest.NearRoadPoints(rng, r.Graph(), 1)[0]
		rt, err := r.Route(context.Background(), []route.Point{from, to}, nil)
		if err != nil || rt.DistanceM < 1000 {
			continue
		}
		t0 := 0.0
		if len(out) > 0 {
			t0 = out[len(out)-1].t + every
		}
		for _, f := range sample(rng, truth{rt: rt, shape: rt.Shape()}, every, sigma, 0.02) {
			f.t += t0
			out = append(out, f)
		}
		from = to
	}
	return out[:n]
}

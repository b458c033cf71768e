package isochrone

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// origins returns n snapped points at random positions of segments in
// the profile's largest component, repeatably.
func origins(t testing.TB, r *route.Router, n int, seed uint64) []snap.Result {
	t.Helper()
	g := r.Graph()
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []snap.Result
	for len(out) < n {
		s := rng.Uint32N(uint32(g.Net.NumSegments()))
		if g.Big[s] == 0 || g.Net.SegFlags[s]&(graph.FlagTunnel|graph.FlagFerry) != 0 {
			continue
		}
		lon, lat := pointAt(g.Net, s, rng.Float64())
		sn, err := r.Snap([]route.Point{{lon, lat}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sn[0])
	}
	return out
}

// pointAt returns the point at fraction f of segment s's length.
func pointAt(net *graph.Network, s uint32, f float64) (lon, lat float64) {
	begin, end := net.Points(s)
	total := 0.0
	for i := begin + 1; i < end; i++ {
		aLon, aLat := net.Point(i - 1)
		bLon, bLat := net.Point(i)
		total += geo.Distance(aLon, aLat, bLon, bLat)
	}
	want, done := f*total, 0.0
	for i := begin + 1; i < end; i++ {
		aLon, aLat := net.Point(i - 1)
		bLon, bLat := net.Point(i)
		l := geo.Distance(aLon, aLat, bLon, bLat)
		if done+l >= want && l > 0 {
			t := (want - done) / l
			return aLon + (bLon-aLon)*t, aLat + (bLat-aLat)*t
		}
		done += l
	}
	return net.Point(end - 1)
}

// referenceCosts returns every arc's end cost from the origin by plain
// Dijkstra over the whole graph: search.Dijkstra for time, and the same
// algorithm on lengths (centimetres) for distance.
func referenceCosts(g *graph.Graph, origin snap.Result, unit Unit) []uint32 {
	if unit == Minutes {
		return search.Dijkstra(g, route.Sources(g, nil, origin))
	}
	n := len(g.Turns.First) - 1
	cost := make([]uint32, n)
	for i := range cost {
		cost[i] = search.Unreached
	}
	var h search.Heap
	for rev := range 2 {
		a := g.ArcOf[graph.SegRef(origin.Seg, rev == 1)]
		if a == graph.NoArc {
			continue
		}
		w := weight(g, byDistance, a)
		f := origin.Frac
		if rev == 1 {
			f = 1 - f
		}
		cost[a] = w - min(w, uint32(math.Round(f*float64(w))))
		h.Push(cost[a], a)
	}
	for h.Len() > 0 {
		c, u := h.Pop()
		if c != cost[u] {
			continue
		}
		begin, end := g.Turns.Out(u)
		for i := begin; i < end; i++ {
			b, _, _ := g.Turn(i)
			if nc := search.Add(c, weight(g, byDistance, b)); nc < cost[b] {
				cost[b] = nc
				h.Push(nc, b)
			}
		}
	}
	return cost
}

// pointCost is the cost of reaching fraction f of segment s (not the
// origin's) given arc end costs.
func pointCost(g *graph.Graph, cost []uint32, unit Unit, s uint32, f float64) float64 {
	best := math.Inf(1)
	for rev := range 2 {
		a := g.ArcOf[graph.SegRef(s, rev == 1)]
		if a == graph.NoArc {
			continue
		}
		w := float64(weight(g, metric(unit), a))
		along := f
		if rev == 1 {
			along = 1 - f
		}
		begin, end := g.Duplicates(a) // a via-way restriction's copies are the same road
		for _, x := range append([]uint32{a}, seq(begin, end)...) {
			if cost[x] != search.Unreached {
				best = min(best, float64(cost[x])-w+along*w)
			}
		}
	}
	return best
}

// insideContour reports whether (lon, lat) is inside any polygon of c
// (even-odd over each polygon's rings).
func insideContour(c Contour, lon, lat float64) bool {
	for _, p := range c.Polygons {
		in := false
		for _, r := range p {
			for i := 1; i < len(r); i++ {
				a, b := r[i-1], r[i]
				if (a[1] > lat) != (b[1] > lat) && lon < a[0]+(lat-a[1])/(b[1]-a[1])*(b[0]-a[0]) {
					in = !in
				}
			}
		}
		if in {
			return true
		}
	}
	return false
}

// box is a contour's extent in degrees.
func box(c Contour) (minLon, minLat, maxLon, maxLat float64) {
	minLon, minLat, maxLon, maxLat = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range c.Polygons {
		for _, q := range p[0] {
			minLon, maxLon = min(minLon, q[0]), max(maxLon, q[0])
			minLat, maxLat = min(minLat, q[1]), max(maxLat, q[1])
		}
	}
	return
}

func compute(t testing.TB, e *Engine, g *graph.Graph, origin snap.Result, budgets ...Budget) []Contour {
	t.Helper()
	cs, err := e.Compute(context.Background(), g, origin, Request{Budgets: budgets})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// seq lists the integers in [begin, end).
func seq(begin, end uint32) []uint32 {
	var out []uint32
	for i := begin; i < end; i++ {
		out = append(out, i)
	}
	return out
}

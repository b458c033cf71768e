package isochrone

import (
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// The truth test: for many origins and budgets on Andorra, road points
// whose cost (by a reference Dijkstra over the whole graph) is below
// 0.9 × budget must lie inside the contour, and points costing more than
// 1.1 × budget (or unreachable) should lie outside it. Points are drawn
// uniformly by length from the roads the profile may use within the
// contour's box widened by a quarter on each side: the neighbourhood where
// the answer is in question. Tunnels and ferries are left out, as the
// contours leave them out (package doc).
func TestTruth(t *testing.T) {
	rel := openAndorra(t)
	cases := []struct {
		profile string
		budgets []Budget
	}{
		{"car", []Budget{{5, Minutes}, {15, Minutes}, {30, Minutes}}},
		{"car", []Budget{{2, Kilometers}, {10, Kilometers}}},
		{"bicycle", []Budget{{10, Minutes}, {30, Minutes}}},
		{"pedestrian", []Budget{{5, Minutes}, {20, Minutes}}},
		{"pedestrian", []Budget{{1, Kilometers}}},
	}
	var total truthCount
	var e Engine
	for _, c := range cases {
		r := rel.Routers[c.profile]
		g := r.Graph()
		var sum truthCount
		for i, o := range origins(t, r, 12, uint64(len(c.profile))) {
			ref := referenceCosts(g, o, c.budgets[0].Unit)
			rng := rand.New(rand.NewPCG(uint64(i), 2))
			for _, ct := range compute(t, &e, g, o, c.budgets...) {
				n := checkTruth(g, o, ref, ct, rng, 1500)
				sum.add(n)
				if n.innerMiss > 0 {
					t.Logf("%s %v from %.5f,%.5f: %d of %d points under 0.9× outside", c.profile, ct.Budget, o.Lon, o.Lat, n.innerMiss, n.inner)
				}
			}
		}
		t.Logf("%-10s %v: under 0.9×: %d/%d inside (%.2f%%); over 1.1×: %d/%d outside (%.2f%%)", c.profile, c.budgets,
			sum.inner-sum.innerMiss, sum.inner, sum.innerPct(), sum.outer-sum.outerMiss, sum.outer, sum.outerPct())
		if sum.outerPct() < 95 {
			t.Errorf("%s %v: only %.2f%% of road points over 1.1× budget lie outside, want ≥ 95%%", c.profile, c.budgets, sum.outerPct())
		}
		total.add(sum)
	}
	t.Logf("all: under 0.9×: %.3f%% inside of %d; over 1.1×: %.2f%% outside of %d", total.innerPct(), total.inner, total.outerPct(), total.outer)
	if total.innerMiss > 0 {
		t.Errorf("%d road points under 0.9× budget lie outside their contour", total.innerMiss)
	}
	if total.outerPct() < 95 {
		t.Errorf("only %.2f%% of road points over 1.1× budget lie outside, want ≥ 95%%", total.outerPct())
	}
}

type truthCount struct{ inner, innerMiss, outer, outerMiss int }

func (a *truthCount) add(b truthCount) {
	a.inner += b.inner
	a.innerMiss += b.innerMiss
	a.outer += b.outer
	a.outerMiss += b.outerMiss
}

func (a truthCount) innerPct() float64 {
	return 100 * float64(a.inner-a.innerMiss) / float64(max(1, a.inner))
}
func (a truthCount) outerPct() float64 {
	return 100 * float64(a.outer-a.outerMiss) / float64(max(1, a.outer))
}

// checkTruth samples n road points around contour ct and counts them.
func checkTruth(g *graph.Graph, o snap.Result, ref []uint32, ct Contour, rng *rand.Rand, n int) truthCount {
	minLon, minLat, maxLon, maxLat := box(ct)
	dLon, dLat := (maxLon-minLon)/4, (maxLat-minLat)/4
	minLon, maxLon, minLat, maxLat = minLon-dLon, maxLon+dLon, minLat-dLat, maxLat+dLat
	var segs []uint32
	var cum []float64
	total := 0.0
	net := g.Net
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) || s == o.Seg || net.SegFlags[s]&(graph.FlagTunnel|graph.FlagFerry) != 0 {
			continue
		}
		lon, lat := net.Node(net.SegFrom[s])
		if lon < minLon || lon > maxLon || lat < minLat || lat > maxLat {
			continue
		}
		total += float64(net.SegLength[s])
		segs = append(segs, s)
		cum = append(cum, total)
	}
	budget := float64(ct.Budget.cost())
	var c truthCount
	if len(segs) == 0 {
		return c // only the origin's own segment is near
	}
	for range n {
		x := rng.Float64() * total
		lo, hi := 0, len(cum)-1
		for lo < hi {
			if mid := (lo + hi) / 2; cum[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		s, f := segs[lo], rng.Float64()
		cost := pointCost(g, ref, ct.Budget.Unit, s, f)
		lon, lat := pointAt(net, s, f)
		switch {
		case cost < 0.9*budget:
			c.inner++
			if !insideContour(ct, lon, lat) {
				c.innerMiss++
			}
		case cost > 1.1*budget:
			c.outer++
			if insideContour(ct, lon, lat) {
				c.outerMiss++
			}
		}
	}
	return c
}

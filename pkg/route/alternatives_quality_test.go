package route_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// This file measures alternatives from the outside, through Route and
// Alternatives only, so that the same code measures any implementation:
// overlap is computed here from each route's arcs and snapped ends, not
// by the package.

// footprint is the metres a route travels on each segment.
type footprint struct {
	metres map[uint32]float64
	total  float64
}

func footprintOf(g *graph.Graph, rt *route.Route) footprint {
	fp := footprint{metres: map[uint32]float64{}}
	add := func(s uint32, m float64) { fp.metres[s] += m; fp.total += m }
	for i, leg := range rt.Legs {
		a, b := rt.Snapped[i], rt.Snapped[i+1]
		length := func(s uint32) float64 { return float64(g.Net.SegLength[s]) }
		if leg.Direct {
			add(a.Seg, abs(b.Frac-a.Frac)*length(a.Seg))
			continue
		}
		for j, arc := range leg.Arcs {
			s, rev := g.ArcSegment(arc)
			switch {
			case j == 0 && rev:
				add(s, a.Frac*length(s))
			case j == 0:
				add(s, (1-a.Frac)*length(s))
			case j == len(leg.Arcs)-1 && rev:
				add(s, (1-b.Frac)*length(s))
			case j == len(leg.Arcs)-1:
				add(s, b.Frac*length(s))
			default:
				add(s, length(s))
			}
		}
	}
	return fp
}

// sharing is the fraction of the shorter of two routes that the other
// travels too.
func sharing(x, y footprint) float64 {
	var m float64
	for s, mx := range x.metres {
		m += min(mx, y.metres[s])
	}
	if shorter := min(x.total, y.total); shorter > 0 {
		return min(m/shorter, 1)
	}
	return 1
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// pairs returns n random two-point trips of profile r whose best route is at
// least minM metres long, with their best routes; the same for a seed.
func pairs(tb testing.TB, r *route.Router, seed uint64, n int, minM float64) []*route.Route {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var out []*route.Route
	for len(out) < n {
		rt, err := r.Route(context.Background(), []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}, nil)
		if err == nil && rt.DistanceM >= minM {
			out = append(out, rt)
		}
	}
	return out
}

// quality is what Alternatives gave on a set of trips: how many trips got
// 0, 1, 2 and 3 alternatives, and every alternative's stretch (its time
// over the best route's) and sharing with the best route.
type quality struct {
	found              [4]int
	stretches, sharing []float64
}

func measureQuality(r *route.Router, trips []*route.Route, n int) quality {
	var q quality
	g := r.Graph()
	for _, rt := range trips {
		alts := r.Alternatives(context.Background(), rt, n)
		q.found[min(len(alts), 3)]++
		best := footprintOf(g, rt)
		for _, alt := range alts {
			q.stretches = append(q.stretches, alt.DurationS/rt.DurationS)
			q.sharing = append(q.sharing, sharing(best, footprintOf(g, alt)))
		}
	}
	return q
}

// percentile is the p-th percentile (0..1) of v, 0 when empty.
func percentile(v []float64, p float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(p*float64(len(s)-1)+0.5)]
}

// BenchmarkAlternativeQuality reports, per profile, on 1,000 random trips
// whose best route is over 5 km (the same trips for every run), asking for
// 1 and for 3 alternatives: the share of trips given 1, 2 and 3, the
// median and 95th percentile of the alternatives' stretch and sharing, and
// the CPU time of one Alternatives call:
//
//	go test -run X -bench AlternativeQuality -benchtime 1x ./pkg/route
func BenchmarkAlternativeQuality(b *testing.B) {
	rel := openAndorra(b)
	for _, profile := range []string{"car", "moto", "truck", "bicycle", "pedestrian"} {
		r := rel.Routers[profile]
		trips := pairs(b, r, 41, 1000, 5000)
		for _, n := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/n=%d", profile, n), func(b *testing.B) {
				q := measureQuality(r, trips, n)
				cpu := benchcpu.Now()
				calls := 0
				for b.Loop() {
					for _, rt := range trips {
						r.Alternatives(context.Background(), rt, n)
					}
					calls += len(trips)
				}
				b.ReportMetric(float64(benchcpu.Now()-cpu)/float64(calls), "cpu-ns/call")
				for k := 1; k <= n; k++ {
					b.ReportMetric(100*float64(q.found[k])/float64(len(trips)), fmt.Sprintf("%%with%d", k))
				}
				b.ReportMetric(percentile(q.stretches, 0.5), "stretch-p50")
				b.ReportMetric(percentile(q.stretches, 0.95), "stretch-p95")
				b.ReportMetric(percentile(q.sharing, 0.5), "sharing-p50")
				b.ReportMetric(percentile(q.sharing, 0.95), "sharing-p95")
			})
		}
	}
}

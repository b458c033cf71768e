package route_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkAlternatives measures Router.Alternatives alone (the best route
// is found before the timer) on 200 random car trips in Andorra, the same
// trips for every run, and reports their quality beside their speed:
// found/trip is the fraction of trips given at least one alternative, alts/trip the mean number returned, and
// share and stretch are medians over every alternative returned (share of
// the best route's length it travels too; its time over the best route's).
func BenchmarkAlternatives(b *testing.B) {
	rel := openAndorra(b)
	r := rel.Routers["car"]
	rng := rand.New(rand.NewPCG(31, 32))
	var trips []*route.Route
	for len(trips) < 200 {
		rt, err := r.Route(context.Background(), []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}, nil)
		if err == nil && !rt.Legs[0].Direct {
			trips = append(trips, rt)
		}
	}
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			// Quality over every trip once, so it does not depend on b.N.
			var found int
			var shares, stretches []float64
			for _, rt := range trips {
				alts := r.Alternatives(context.Background(), rt, n)
				if len(alts) > 0 {
					found++
				}
				for _, alt := range alts {
					shares = append(shares, r.Share(rt, alt))
					stretches = append(stretches, alt.DurationS/rt.DurationS)
				}
			}
			i := 0
			cpu := benchcpu.Now()
			for b.Loop() {
				r.Alternatives(context.Background(), trips[i%len(trips)], n)
				i++
			}
			b.ReportMetric(float64(benchcpu.Now()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(found)/float64(len(trips)), "found/trip")
			b.ReportMetric(float64(len(shares))/float64(len(trips)), "alts/trip")
			b.ReportMetric(median(shares), "share")
			b.ReportMetric(median(stretches), "stretch")
		})
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

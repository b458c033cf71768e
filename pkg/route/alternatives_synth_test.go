package route_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
)

// BenchmarkSynthAlternatives is one Alternatives call, asking for 1 (the
// default request) and for 3, after the best route between random car-road
// points anywhere in the ~3M-node synthetic country, so most routes cross
// it: CPU and memory allocated per call, the share of trips given an
// alternative and the route's length; and, as "route", the best route's
// own search and unpacking on the same trips (issue 37 asks the default
// request for about 3 times a plain route's CPU, so the alternatives for
// about twice the route's). It needs a release of `mapc synth --nodes
// 3000000` in MAPS_SYNTH_RELEASE:
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthAlternatives -benchtime 100x ./pkg/route
func BenchmarkSynthAlternatives(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["car"]
	trips := pairs(b, r, 21, 100, 0)
	for _, rt := range trips[:10] { // fault the hierarchy's pages in, as a warm server has
		r.Alternatives(context.Background(), rt, 3)
	}
	b.Run("route", func(b *testing.B) { // the best route's own search on the same trips, to compare with
		q := r.Query()
		defer r.PutQuery(q)
		i := 0
		defer benchcpu.Report(b)()
		for b.Loop() {
			rt := trips[i%len(trips)]
			i++
			if _, ok := r.Leg(q, rt.Snapped[0], rt.Snapped[1]); !ok {
				b.Fatal("no route")
			}
		}
	})
	for _, ask := range []int{1, 3} {
		b.Run(fmt.Sprintf("n=%d", ask), func(b *testing.B) {
			var km float64
			found, i := 0, 0
			b.ReportAllocs()
			defer benchcpu.Report(b)()
			for b.Loop() {
				rt := trips[i%len(trips)]
				i++
				if len(r.Alternatives(context.Background(), rt, ask)) > 0 {
					found++
				}
				km += rt.DistanceM / 1000
			}
			b.ReportMetric(km/float64(i), "km/route")
			b.ReportMetric(100*float64(found)/float64(i), "%found")
		})
	}
}

// TestSynthAlternativesProperties checks, on 60 trips across the ~3M-node
// synthetic country (most over 100 km, so their candidates come from the
// search spaces), what TestAlternativesProperties checks on Andorra: no
// route returned repeats another, every alternative takes between 1 and
// MaxStretch times the best route's time, its time is what its turns and
// arcs add up to, and no more are returned than asked for. It needs a
// release of `mapc synth --nodes 3000000` in MAPS_SYNTH_RELEASE:
//
//	MAPS_SYNTH_RELEASE=DIR go test -run SynthAlternativesProperties ./pkg/route
func TestSynthAlternativesProperties(t *testing.T) {
	r := compiletest.OpenSynth(t).Routers["car"]
	found := 0
	for i, rt := range pairs(t, r, 37, 60, 0) {
		n := 1 + i%3
		alts := r.Alternatives(context.Background(), rt, n)
		if len(alts) > n {
			t.Fatalf("trip %d: %d alternatives for %d asked", i, len(alts), n)
		}
		if len(alts) > 0 {
			found++
		}
		checkAlternatives(t, "car", nil, r, rt, alts)
	}
	t.Logf("alternatives on %d of 60 trips", found)
	if found < 60/4 {
		t.Errorf("alternatives on only %d of 60 trips", found)
	}
}

package route_test

import (
	"context"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/internal/benchcpu"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkTruckVehicle is truck directions on Andorra without a vehicle and
// with a 4.4 m one (issue 35's measure, server CPU per request), alternated
// in one run: between random road points (few of which meet a limit), and
// from Grau Roig to Pas de la Casa, whose fastest path is the Envalira
// tunnel a 4.4 m truck is refused (every request repaired).
//
//	go test -run X -bench TruckVehicle -count 6 ./pkg/route
func BenchmarkTruckVehicle(b *testing.B) {
	r := openAndorra(b).Routers["truck"]
	var random [][]route.Point
	for _, p := range legPairs(r, 1000) {
		random = append(random, []route.Point{{p[0].Lon, p[0].Lat}, {p[1].Lon, p[1].Lat}})
	}
	envalira := [][]route.Point{{{1.686162, 42.552528}, {1.733594, 42.543642}}}
	for _, trips := range []struct {
		name  string
		pairs [][]route.Point
	}{{"random", random}, {"envalira", envalira}} {
		for _, v := range []struct {
			name string
			v    route.Vehicle
		}{{"none", route.Vehicle{}}, {"height=4.4", route.Vehicle{HeightM: 4.4}}} {
			b.Run(trips.name+"/"+v.name, func(b *testing.B) {
				ctx := context.Background()
				i, failed := 0, 0
				defer benchcpu.Report(b)()
				for b.Loop() {
					if _, err := r.Directions(ctx, route.Request{Points: trips.pairs[i%len(trips.pairs)], Vehicle: v.v}); err != nil {
						failed++
					}
					i++
				}
				b.ReportMetric(float64(failed)/float64(i), "failed/op")
			})
		}
	}
}

// BenchmarkSynthTruckVehicle is issue 35's measure on the ~3M-node
// synthetic country (a release compiled with the truck profile): truck
// directions between random road points without a vehicle and with a
// 4.4 m one, repaired on the compiled hierarchy and, once asked for as a
// fleet asks, on the one customized under it, alternated in one run.
//
//	MAPS_SYNTH_RELEASE=DIR go test -run X -bench SynthTruckVehicle -count 3 ./pkg/route
func BenchmarkSynthTruckVehicle(b *testing.B) {
	r := compiletest.OpenSynth(b).Routers["truck"]
	if r == nil {
		b.Skip("the release has no truck profile")
	}
	var random [][]route.Point
	for _, p := range legPairs(r, 1000) {
		random = append(random, []route.Point{{p[0].Lon, p[0].Lat}, {p[1].Lon, p[1].Lat}})
	}
	tall := route.Vehicle{HeightM: 4.4}
	for _, c := range []struct {
		name      string
		v         route.Vehicle
		customize bool
	}{{"none", route.Vehicle{}, true}, {"height=4.4/repaired", tall, false}, {"height=4.4/customized", tall, true}} {
		b.Run(c.name, func(b *testing.B) {
			r.SetCustomizing(c.customize)
			defer r.SetCustomizing(true)
			if c.customize && c.v != (route.Vehicle{}) {
				compiletest.Customized(b, r, func() *graph.State { return r.StateFor(time.Time{}, 0, c.v) })
			}
			ctx := context.Background()
			i, failed := 0, 0
			defer benchcpu.Report(b)()
			for b.Loop() {
				if _, err := r.Directions(ctx, route.Request{Points: random[i%len(random)], Vehicle: c.v}); err != nil {
					failed++
				}
				i++
			}
			b.ReportMetric(float64(failed)/float64(i), "failed/op")
		})
	}
}

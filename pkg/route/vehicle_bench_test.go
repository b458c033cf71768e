package route_test

import (
	"context"
	"testing"

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

package guidance_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/route"
)

// BenchmarkSteps narrates car legs between 100 random road points of
// Andorra (the routes searched once, outside the loop): what guidance
// alone costs a directions request with steps.
//
//	go test -run X -bench Steps -count 6 ./pkg/guidance
func BenchmarkSteps(b *testing.B) {
	r := openAndorra(b).Routers["car"]
	rng := rand.New(rand.NewPCG(5, 6))
	var legs []guidance.Leg
	for len(legs) < 100 {
		pts := []route.Point{randomRoadPoint(rng, r), randomRoadPoint(rng, r)}
		rt, err := r.Route(context.Background(), pts, nil)
		if err != nil {
			continue
		}
		a, c := rt.Snapped[0], rt.Snapped[1]
		legs = append(legs, guidance.Leg{Pieces: r.Pieces(rt.Legs[0], a, c), Start: [2]float64{a.Lon, a.Lat},
			Snapped: [2]float64{c.Lon, c.Lat}, Dest: pts[1]})
	}
	g := r.Graph()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		guidance.Steps(g, legs[i%len(legs)])
		i++
	}
}

package compiletest

import (
	"math/rand/v2"

	"github.com/mapsco/maps/pkg/graph"
)

// NearRoadPoints draws n points as the table tests and benchmarks place a
// table's sources or targets: each within about 30 m of a random shape
// point of g's main network, except every fifth, which lies within about
// 30 m of the point before it (two users a street apart).
func NearRoadPoints(rng *rand.Rand, g *graph.Graph, n int) [][2]float64 {
	pts := make([][2]float64, n)
	jitter := func() float64 { return (rng.Float64() - 0.5) * 0.0006 }
	for i := range pts {
		if i > 0 && i%5 == 0 {
			p := pts[i-1]
			pts[i] = [2]float64{p[0] + jitter(), p[1] + jitter()}
			continue
		}
		for {
			s := uint32(rng.IntN(g.Net.NumSegments()))
			if g.Big[s] == 0 {
				continue
			}
			begin, end := g.Net.Points(s)
			lon, lat := g.Net.Point(begin + uint32(rng.IntN(int(end-begin))))
			pts[i] = [2]float64{lon + jitter(), lat + jitter()}
			break
		}
	}
	return pts
}

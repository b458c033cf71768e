package route_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// uniformPairs draws n pairs of points uniformly in Andorra's bounding box
// (lon 1.46-1.74, lat 42.44-42.63), as a new user clicking on a map does.
func uniformPairs(n int) [][2]route.Point {
	rng := rand.New(rand.NewPCG(18, 1000))
	point := func() route.Point { return route.Point{1.46 + rng.Float64()*0.28, 42.44 + rng.Float64()*0.19} }
	out := make([][2]route.Point, n)
	for i := range out {
		out[i] = [2]route.Point{point(), point()}
	}
	return out
}

// BenchmarkUniformPairs routes 1,000 pairs drawn uniformly in Andorra's
// bounding box, by car and on foot, with the default snapping rule, and
// reports the share routed (routed-%) and how far waypoints lay from the
// road they met (snap-m-median, snap-m-max). Each refusal is logged with
// its reason. One iteration is the whole set, so run it with -benchtime 1x:
//
//	go test -run X -bench UniformPairs -benchtime 1x -v ./pkg/route
func BenchmarkUniformPairs(b *testing.B) {
	rel := openAndorra(b)
	pairs := uniformPairs(1000)
	for _, profile := range []string{"car", "pedestrian"} {
		r := rel.Routers[profile]
		b.Run(profile, func(b *testing.B) {
			for b.Loop() {
				routed, fellBack := 0, 0
				var dists []float64
				for i, p := range pairs {
					d, err := r.Directions(context.Background(), route.Request{Points: p[:]})
					if err != nil {
						b.Logf("pair %d %v -> %v: %s", i, p[0], p[1], explain(r, p, err))
						continue
					}
					routed++
					for k, w := range d.Waypoints {
						dists = append(dists, w.DistanceM)
						if placed, _ := r.PlaceOne(p[k], snap.Options{}, nil); placed.Seg != d.Routes[0].Snapped[k].Seg {
							fellBack++
						}
					}
				}
				b.ReportMetric(100*float64(routed)/float64(len(pairs)), "routed-%")
				b.ReportMetric(float64(fellBack), "fallbacks")
				b.ReportMetric(median(dists), "snap-m-median")
				b.ReportMetric(maxOf(dists), "snap-m-max")
			}
		})
	}
}

// explain says why a pair was refused: which waypoint could not be placed
// and why, or between which roads no path exists.
func explain(r *route.Router, p [2]route.Point, err error) string {
	var we *route.WaypointError
	if !errors.As(err, &we) {
		return err.Error()
	}
	if errors.Is(err, route.ErrUnsnappable) {
		return fmt.Sprintf("waypoint %d not placed: %v", we.Index, err)
	}
	var ends [2]string
	for k := range 2 {
		s, _ := r.PlaceOne(p[k], snap.Options{}, nil)
		ends[k] = fmt.Sprintf("%s (%s, segment %d, %.0f m away, main component %v, fallback %v)",
			r.Graph().Net.Name(s.Seg), r.Graph().Net.Class(s.Seg), s.Seg, s.Dist, s.Main, s.HasFallback)
	}
	return fmt.Sprintf("no path from %s to %s", ends[0], ends[1])
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return slices.Sorted(slices.Values(v))[len(v)/2]
}

func maxOf(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	return slices.Max(v)
}

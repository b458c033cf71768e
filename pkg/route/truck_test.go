package route_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/route"
)

// TestTruckThroughEnvalira (issue 35): the Envalira tunnel (way 6176755,
// CG-2a) is 4.30 m high, its approaches marked by height restrictors that
// say so (maxheight=4.30). The 4.0 m truck fits: from Grau Roig to Pas de
// la Casa it drives through the tunnel, as the car does, instead of over
// the Port d'Envalira (10.8 km, 1,033 s, when every height restrictor
// blocked it).
func TestTruckThroughEnvalira(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	const tunnel = 6176755
	rel := openAndorra(t)
	from, to := route.Point{1.686162, 42.552528}, route.Point{1.733594, 42.543642}
	for _, profile := range []string{"car", "truck"} {
		r := rel.Routers[profile]
		rt, err := r.Route(context.Background(), []route.Point{from, to}, nil)
		if err != nil {
			t.Fatalf("%s: %v", profile, err)
		}
		through := false
		for _, a := range rt.Legs[0].Arcs {
			s, _ := r.Graph().ArcSegment(a)
			through = through || rel.Network.SegWay[s] == tunnel
		}
		t.Logf("%s: %.0f m, %.0f s, through the tunnel: %v", profile, rt.DistanceM, rt.DurationS, through)
		if !through || rt.DistanceM > 7000 {
			t.Errorf("%s from Grau Roig to Pas de la Casa: %.0f m, through the tunnel %v; want through it, under 7 km", profile, rt.DistanceM, through)
		}
	}
}

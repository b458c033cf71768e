package guidance_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/osm"
)

// TestSignpostsOfMonaco: Monaco maps destination, destination:ref and
// destination:forward/backward on some of its roads (Andorra and
// Liechtenstein map none). Every signpost of a road in the PBF must reach
// the compiled release, and a step that starts on a signed road, in either
// direction, reads the signs for that direction.
func TestSignpostsOfMonaco(t *testing.T) {
	want := map[graph.Signpost]bool{}
	err := osm.Scan(context.Background(), compiletest.SharedData(t, "monaco.osm.pbf"), osm.Handlers{Way: func(w *osm.Way) error {
		sp := graph.Signpost{Destination: w.Tags["destination"], DestinationRef: w.Tags["destination:ref"],
			JunctionRef: w.Tags["junction:ref"], Forward: w.Tags["destination:forward"], Backward: w.Tags["destination:backward"]}
		if w.Tags["highway"] != "" && !sp.IsZero() {
			want[sp] = true
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	rel := compiletest.Extract(t, "monaco.osm.pbf")
	net := rel.Network
	got := map[graph.Signpost]bool{}
	g := rel.Routers["car"].Graph()
	steps := 0
	for s := range uint32(net.NumSegments()) {
		sp := net.Signpost(s)
		if sp.IsZero() {
			continue
		}
		got[sp] = true
		for _, reversed := range []bool{false, true} {
			arc := g.ArcOf[graph.SegRef(s, reversed)]
			if arc == graph.NoArc {
				continue
			}
			leg := guidance.Steps(g, guidance.Leg{Pieces: []guidance.Piece{{Arc: arc, DistanceM: 20, DurationS: 2}}})
			steps++
			if leg[0].Signpost != sp.Towards(reversed) {
				t.Errorf("segment %d reversed %v: the depart reads %+v, the way %+v", s, reversed, leg[0].Signpost, sp)
			}
		}
	}
	for sp := range want {
		if !got[sp] {
			t.Errorf("signpost %+v of the PBF is not in the release", sp)
		}
	}
	if len(want) < 10 || steps == 0 {
		t.Fatalf("%d signposts in the PBF, %d steps checked", len(want), steps)
	}
	t.Logf("%d distinct signposts, %d in the release, %d departs checked", len(want), len(got), steps)
}

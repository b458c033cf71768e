package route_test

import (
	"context"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/route"
)

// osmRestriction is a real restriction of the Andorra extract with the
// geometry needed to drive it: a point on the from way and on each other way
// at the via node, just before and after it.
type osmRestriction struct {
	id       int64
	kind     string
	from, to int64
	via      int64
	near     map[int64]route.Point // way id → a point on that way 40% of the way from its neighbour node to the via node
}

// readRestrictions finds the via-node restrictions of Andorra and, for each
// way touching their via node, a point just off the via node.
func readRestrictions(t *testing.T) []osmRestriction {
	t.Helper()
	var rs []osmRestriction
	vias := map[int64]bool{}
	ways := map[int64][]int64{}
	coords := map[int64]route.Point{}
	ctx := context.Background()
	path := compiletest.SharedData(t, "andorra.osm.pbf")
	err := osm.Scan(ctx, path, osm.Handlers{
		Relation: func(r *osm.Relation) error {
			if r.Tags["type"] != "restriction" {
				return nil
			}
			x := osmRestriction{id: r.ID, kind: r.Tags["restriction"], near: map[int64]route.Point{}}
			for _, m := range r.Members {
				switch {
				case m.Role == "from" && m.Type == osm.WayMember:
					x.from = m.ID
				case m.Role == "to" && m.Type == osm.WayMember:
					x.to = m.ID
				case m.Role == "via" && m.Type == osm.NodeMember:
					x.via = m.ID
				}
			}
			if x.via != 0 && x.from != 0 && x.to != 0 {
				rs = append(rs, x)
				vias[x.via] = true
			}
			return nil
		},
		Way: func(w *osm.Way) error {
			// Not tracks and service ways: a point on one within
			// snap.RoadReach of a street starts on the street (issue 36),
			// not on the way the restriction names.
			if h := w.Tags["highway"]; h != "" && h != "service" && h != "track" {
				ways[w.ID] = w.NodeIDs
			}
			return nil
		},
		Node: func(n *osm.Node) error { coords[n.ID] = route.Point{n.Lon, n.Lat}; return nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rs {
		for id, nodes := range ways {
			for j, n := range nodes {
				if n != rs[i].via {
					continue
				}
				k := j - 1
				if k < 0 {
					k = j + 1
				}
				if k >= len(nodes) {
					continue
				}
				a, b := coords[nodes[k]], coords[n]
				rs[i].near[id] = route.Point{a[0] + 0.6*(b[0]-a[0]), a[1] + 0.6*(b[1]-a[1])}
			}
		}
	}
	return rs
}

func findRestriction(t *testing.T, rs []osmRestriction, kind string, ok func(osmRestriction) bool) osmRestriction {
	t.Helper()
	for _, r := range rs {
		if r.kind == kind && ok(r) {
			return r
		}
	}
	t.Fatalf("no usable %s restriction in Andorra", kind)
	return osmRestriction{}
}

// TestRestrictionsObeyed drives real restrictions of Andorra: the car's
// route makes the forbidden turn nowhere and detours, while the pedestrian
// (whom turn restrictions do not bind) walks straight round the corner.
func TestRestrictionsObeyed(t *testing.T) {
	rel := openAndorra(t)
	rs := readRestrictions(t)
	car, walk := rel.Routers["car"], rel.Routers["pedestrian"]
	ctx := context.Background()
	length := func(r *route.Router, a, b route.Point) float64 {
		rt, err := r.Route(ctx, []route.Point{a, b}, nil)
		if err != nil {
			return -1
		}
		return rt.DistanceM
	}
	// A no_left_turn whose forbidden turn a pedestrian makes in under 150 m.
	noLeft := findRestriction(t, rs, "no_left_turn", func(r osmRestriction) bool {
		d := length(walk, r.near[r.from], r.near[r.to])
		return d > 0 && d < 150 && length(car, r.near[r.from], r.near[r.to]) > 0
	})
	walked := length(walk, noLeft.near[noLeft.from], noLeft.near[noLeft.to])
	drove := length(car, noLeft.near[noLeft.from], noLeft.near[noLeft.to])
	t.Logf("no_left_turn relation %d: walk %.0f m, drive %.0f m", noLeft.id, walked, drove)
	if drove < walked+100 {
		t.Errorf("no_left_turn %d: the car turns (%.0f m against %.0f m on foot)", noLeft.id, drove, walked)
	}

	// An only_straight_on: going straight is short, any other way at the
	// via node means a detour.
	var other int64
	only := findRestriction(t, rs, "only_straight_on", func(r osmRestriction) bool {
		for id, p := range r.near {
			d := length(walk, r.near[r.from], p)
			if id != r.from && id != r.to && d > 0 && d < 150 && length(car, r.near[r.from], p) > 0 {
				other = id
				return true
			}
		}
		return false
	})
	straight := length(car, only.near[only.from], only.near[only.to])
	turned := length(car, only.near[only.from], only.near[other])
	walkedTurn := length(walk, only.near[only.from], only.near[other])
	t.Logf("only_straight_on relation %d: straight %.0f m; to way %d: drive %.0f m, walk %.0f m", only.id, straight, other, turned, walkedTurn)
	if turned < walkedTurn+100 {
		t.Errorf("only_straight_on %d: the car turns onto way %d (%.0f m against %.0f m on foot)", only.id, other, turned, walkedTurn)
	}
}

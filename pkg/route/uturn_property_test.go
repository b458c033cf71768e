package route_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/profile"
	"github.com/mapsco/maps/pkg/route"
)

// TestNoUTurnInTheRoad routes uniform random pairs over Andorra,
// Liechtenstein and Monaco with every profile and checks, from the route's
// arcs and the release alone, that a route turns back only at a permitted
// place (issue 36, item 1): where nothing else is possible (the turn graph
// offers no other turn: a dead end or a barrier), or, for a profile that
// allows U-turns at junctions (no_u_turns false in profiles/*.json), at a
// node where three or more of its roads meet, and then never onto a bridge
// or a tunnel. Before the rule, a truck turned round where a Monaco tunnel
// meets a bridge end to end and a moto at the end of an Andorran bridge.
func TestNoUTurnInTheRoad(t *testing.T) {
	t.Parallel() // changes no shared release (operations tests do, sequentially, before parallel tests start)
	profiles, err := profile.LoadDir(compiletest.Root() + "/profiles")
	if err != nil {
		t.Fatal(err)
	}
	pairs := 2000
	if testing.Short() {
		pairs = 200
	}
	for _, name := range []string{"andorra", "liechtenstein", "monaco"} {
		rel := compiletest.Extract(t, name+".osm.pbf")
		for _, p := range profiles {
			t.Run(name+"/"+p.Name, func(t *testing.T) {
				r := rel.Routers[p.Name]
				checkUTurns(t, r, p.Turns.NoUTurns, issueUTurns[name+"/"+p.Name], pairs)
			})
		}
	}
}

// issueUTurns are issue 36's examples, routed before the random pairs.
var issueUTurns = map[string][][2]route.Point{
	"monaco/truck":  {{{7.41236, 43.73754}, {7.41916, 43.73589}}},
	"andorra/moto":  {{{1.5627, 42.4411}, {1.58828, 42.55186}}},
	"andorra/truck": {{{1.5627, 42.4411}, {1.58828, 42.55186}}},
}

func checkUTurns(t *testing.T, r *route.Router, noUTurns bool, named [][2]route.Point, pairs int) {
	g := r.Graph()
	lon0, lat0, lon1, lat1 := roadBox(g.Net)
	rng := rand.New(rand.NewPCG(36, 1))
	point := func() route.Point {
		return route.Point{lon0 + rng.Float64()*(lon1-lon0), lat0 + rng.Float64()*(lat1-lat0)}
	}
	routed, uTurns := 0, 0
	for i := range pairs + len(named) {
		pts := []route.Point{point(), point()}
		if i < len(named) {
			pts = named[i][:]
		}
		rt, err := r.Route(context.Background(), pts, nil)
		if err != nil {
			continue
		}
		routed++
		for _, leg := range rt.Legs {
			for i := 1; i < len(leg.Arcs); i++ {
				a, b := leg.Arcs[i-1], leg.Arcs[i]
				sa, ra := g.ArcSegment(a)
				sb, rb := g.ArcSegment(b)
				if sa != sb || ra == rb {
					continue
				}
				uTurns++
				if why := forbiddenUTurn(g, a, sa, noUTurns); why != "" {
					v := g.ArcHead(a)
					lon, lat := g.Net.Node(v)
					t.Errorf("%v -> %v turns back on %s %q (segment %d) at [%.7f, %.7f]: %s",
						pts[0], pts[1], g.Net.Class(sa), g.Net.Name(sa), sa, lon, lat, why)
				}
			}
		}
	}
	t.Logf("%d of %d pairs routed, %d permitted U-turns", routed, pairs+len(named), uTurns)
	if routed < pairs/2 {
		t.Errorf("only %d of %d uniform pairs routed: the check saw too little", routed, pairs)
	}
}

// forbiddenUTurn says why turning back from arc a onto its own segment s is
// not permitted, or "" when it is.
func forbiddenUTurn(g *graph.Graph, a, s uint32, noUTurns bool) string {
	begin, end := g.Turns.Out(a)
	onlyWay := true
	for i := begin; i < end; i++ {
		to, _, _ := g.Turn(i)
		if ts, _ := g.ArcSegment(to); ts != s {
			onlyWay = false
		}
	}
	switch {
	case onlyWay:
		return "" // a dead end or a barrier: nothing else is possible
	case noUTurns:
		return "the profile turns back only where nothing else is possible"
	case g.Net.SegFlags[s]&(graph.FlagBridge|graph.FlagTunnel) != 0:
		return "on a bridge or in a tunnel"
	}
	v := g.ArcHead(a)
	var roads []uint32
	for u := range uint32(g.Net.NumSegments()) {
		if (g.Net.SegFrom[u] == v || g.Net.SegTo[u] == v) && g.Usable(u) && !slices.Contains(roads, u) {
			roads = append(roads, u)
		}
	}
	if len(roads) < 3 {
		return "only two roads meet there"
	}
	return ""
}

// roadBox is the box of every node of the network.
func roadBox(net *graph.Network) (lon0, lat0, lon1, lat1 float64) {
	lon0, lat0 = net.Node(0)
	lon1, lat1 = lon0, lat0
	for v := range uint32(net.NumNodes()) {
		lon, lat := net.Node(v)
		lon0, lon1 = min(lon0, lon), max(lon1, lon)
		lat0, lat1 = min(lat0, lat), max(lat1, lat)
	}
	return lon0, lat0, lon1, lat1
}

package compare

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// RoadChange is a road one of a pair's routes uses and the other does not
// (or much less): what a reader recognises of a changed route, where
// coordinates say nothing. Roads are told apart by name and ref, as signs
// show them; an unnamed road by its OSM way id ("way 123"). Ways lists the
// OSM ids of the ways the route travels on it, when the release keeps them
// (net.seg_way), so that an editor can open them.
type RoadChange struct {
	Road   string  `json:"road"`   // "Name (ref)", the name, the ref or "way ID"
	Metres Num     `json:"metres"` // how much more of it the route travels
	Ways   []int64 `json:"ways,omitempty"`
}

// roadUse is how much of a road a route travels, and along which ways.
type roadUse struct {
	metres float64
	ways   map[int64]bool
}

// roadsShown is how many roads each side of a change lists, longest first;
// roadMinM is the least difference in metres that counts as a change.
const (
	roadsShown = 5
	roadMinM   = 50
)

// roadName is how a segment's road is called: name and ref, either, its
// way's id, or "" (an unnamed road of a release without way ids).
func roadName(net *graph.Network, s uint32) string {
	name, ref := net.Name(s), net.Strings.At(net.SegRef[s])
	switch {
	case name != "" && ref != "":
		return name + " (" + ref + ")"
	case name != "":
		return name
	case ref != "":
		return ref
	case net.HasWays():
		return fmt.Sprintf("way %d", net.SegWay[s])
	}
	return ""
}

// roadMetres sums a route's metres per road, with the ways it took on each.
func roadMetres(rt *route.Route, g *graph.Graph) map[string]*roadUse {
	out := map[string]*roadUse{}
	for _, leg := range rt.Legs {
		for _, a := range leg.Arcs {
			s, _ := g.ArcSegment(a)
			name := roadName(g.Net, s)
			if name == "" {
				continue
			}
			u := out[name]
			if u == nil {
				u = &roadUse{ways: map[int64]bool{}}
				out[name] = u
			}
			u.metres += float64(g.Net.SegLength[s])
			if g.Net.HasWays() {
				u.ways[g.Net.SegWay[s]] = true
			}
		}
	}
	return out
}

// nameRoads fills a changed pair's RoadsLeft (roads the old route used and
// the new one no longer does) and RoadsTaken (the other way), routing it
// again on both releases: only the few worst pairs are named.
func (pr pairRouters) nameRoads(ctx context.Context, c *PairChange) {
	if c.Status == Unchanged || c.Status == Unroutable {
		return
	}
	old := pr.routeRoads(ctx, pr.old, pr.oldSt, c)
	new := pr.routeRoads(ctx, pr.new, pr.newSt, c)
	c.RoadsLeft, c.RoadsTaken = roadDiff(old, new), roadDiff(new, old)
}

func (pr pairRouters) routeRoads(ctx context.Context, r *route.Router, st *graph.State, c *PairChange) map[string]*roadUse {
	rt, err := r.Route(ctx, []route.Point{c.From, c.To}, st)
	if err != nil {
		return nil // no route: every road of the other side changed
	}
	return roadMetres(rt, r.Graph())
}

// roadDiff lists the roads a travels at least roadMinM more than b, longest
// difference first, with the ways a took on each.
func roadDiff(a, b map[string]*roadUse) []RoadChange {
	var out []RoadChange
	for road, u := range a {
		d := u.metres
		if v := b[road]; v != nil {
			d -= v.metres
		}
		if d >= roadMinM {
			ways := slices.Sorted(maps.Keys(u.ways))
			out = append(out, RoadChange{Road: road, Metres: Num(d), Ways: ways})
		}
	}
	slices.SortFunc(out, func(x, y RoadChange) int {
		return cmp.Or(cmp.Compare(y.Metres, x.Metres), strings.Compare(x.Road, y.Road))
	})
	return out[:min(len(out), roadsShown)]
}

// roadsChanged says which roads a change left and took, for the summary.
func roadsChanged(c PairChange) string {
	list := func(rs []RoadChange) string {
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = fmt.Sprintf("%s %.1f km", r.Road, float64(r.Metres)/1000)
			if len(r.Ways) > 0 && !strings.HasPrefix(r.Road, "way ") {
				parts[i] += " (" + wayList(r.Ways) + ")"
			}
		}
		return strings.Join(parts, ", ")
	}
	var s string
	if len(c.RoadsLeft) > 0 {
		s += "; no longer on " + list(c.RoadsLeft)
	}
	if len(c.RoadsTaken) > 0 {
		s += "; now on " + list(c.RoadsTaken)
	}
	return s
}

// wayList names up to three ways, "way 1" or "ways 1, 2, 3 and 2 more".
func wayList(ways []int64) string {
	ids := make([]string, 0, 3)
	for _, w := range ways[:min(3, len(ways))] {
		ids = append(ids, fmt.Sprint(w))
	}
	s := "way " + ids[0]
	if len(ways) > 1 {
		s = "ways " + strings.Join(ids, ", ")
	}
	if len(ways) > 3 {
		s += fmt.Sprintf(" and %d more", len(ways)-3)
	}
	return s
}

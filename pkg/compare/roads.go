package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// RoadChange is a named road one of a pair's routes uses and the other
// does not (or much less): what a reader recognises of a changed route,
// where coordinates say nothing. Roads are told apart by name and ref, as
// signs show them; the graph keeps no OSM way id.
type RoadChange struct {
	Road   string `json:"road"`   // "Name (ref)", the name or the ref
	Metres Num    `json:"metres"` // how much more of it the route travels
}

// roadsShown is how many roads each side of a change lists, longest first;
// roadMinM is the least difference in metres that counts as a change.
const (
	roadsShown = 5
	roadMinM   = 50
)

// roadName is how a segment's road is called: name and ref, either, or "".
func roadName(net *graph.Network, s uint32) string {
	name, ref := net.Name(s), net.Strings.At(net.SegRef[s])
	switch {
	case name != "" && ref != "":
		return name + " (" + ref + ")"
	case name != "":
		return name
	}
	return ref
}

// roadMetres sums a route's metres per named road.
func roadMetres(rt *route.Route, g *graph.Graph) map[string]float64 {
	out := map[string]float64{}
	for _, leg := range rt.Legs {
		for _, a := range leg.Arcs {
			s, _ := g.ArcSegment(a)
			if name := roadName(g.Net, s); name != "" {
				out[name] += float64(g.Net.SegLength[s])
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

func (pr pairRouters) routeRoads(ctx context.Context, r *route.Router, st *graph.State, c *PairChange) map[string]float64 {
	rt, err := r.Route(ctx, []route.Point{c.From, c.To}, st)
	if err != nil {
		return nil // no route: every road of the other side changed
	}
	return roadMetres(rt, r.Graph())
}

// roadDiff lists the roads a travels at least roadMinM more than b, longest
// difference first.
func roadDiff(a, b map[string]float64) []RoadChange {
	var out []RoadChange
	for road, m := range a {
		if d := m - b[road]; d >= roadMinM {
			out = append(out, RoadChange{Road: road, Metres: Num(d)})
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

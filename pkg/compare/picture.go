package compare

import (
	"context"
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// picture is the HTML report's map: the worst route changes, old and new
// shapes, over the new release's roads. The roads are a PNG (one picture
// of any number of segments, a few hundred kilobytes at most); the routes
// are SVG over it, so each keeps its label and tooltip.
type picture struct {
	view   view
	png    []byte
	routes []mapRoute
}

// mapRoute is one change on the map; N is its number in the report's
// table of changes.
type mapRoute struct {
	N        int
	Change   PairChange
	Old, New []route.Point
}

const (
	mapWidth     = 1200
	mapMaxHeight = 1400
)

// drawPicture re-routes the worst changes of every profile and the changed
// landmarks to get their shapes, frames them, and draws the roads around.
func (r *Report) drawPicture(ctx context.Context, prs []pairRouters, net *graph.Network, o Options) error {
	byProfile := map[string]pairRouters{}
	for _, pr := range prs {
		byProfile[pr.profile] = pr
	}
	changes := r.mapChanges(o.Worst)
	pic := &picture{}
	for i, c := range changes {
		pr := byProfile[c.Profile]
		m := mapRoute{N: i + 1, Change: c}
		var err error
		if m.Old, err = shape(ctx, pr.old, pr.oldSt, c); err != nil {
			return err
		}
		if m.New, err = shape(ctx, pr.new, pr.newSt, c); err != nil {
			return err
		}
		pic.routes = append(pic.routes, m)
	}
	pic.view = frame(pic.routes, net)
	png, err := drawRoads(ctx, net, pic.view)
	if err != nil {
		return err
	}
	pic.png = png
	r.picture = pic
	return nil
}

// mapChanges picks the n most severe route changes over all profiles and
// landmarks, in the order worstPairs ranks them.
func (r *Report) mapChanges(n int) []PairChange {
	var all []PairChange
	for _, s := range r.Routes {
		all = append(all, s.Worst...)
	}
	for _, l := range r.Landmarks {
		if l.Status != Unchanged && l.Status != Unroutable {
			all = append(all, l)
		}
	}
	return worstPairs(all, n)
}

// shape is the route's geometry on one release, nil when it has none.
func shape(ctx context.Context, r *route.Router, st *graph.State, c PairChange) ([]route.Point, error) {
	rt, err := r.Route(ctx, []route.Point{c.From, c.To}, st)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil // no route: the table says why
	}
	return rt.Shape(), nil
}

// view maps degrees to pixels, north up, with a local equirectangular
// projection (true to scale at the centre's latitude).
type view struct {
	minLon, maxLat float64
	sx, sy         float64 // pixels per degree
	w, h           int
}

func (v view) px(p route.Point) (x, y float64) {
	return (p[0] - v.minLon) * v.sx, (v.maxLat - p[1]) * v.sy
}

// frame fits every route's shape and ends with a margin; with no route it
// shows the whole network.
func frame(routes []mapRoute, net *graph.Network) view {
	b := emptyBox()
	for _, m := range routes {
		b.add(m.Change.From)
		b.add(m.Change.To)
		for _, p := range m.Old {
			b.add(p)
		}
		for _, p := range m.New {
			b.add(p)
		}
	}
	if b.empty() {
		for v := range uint32(net.NumNodes()) {
			lon, lat := net.Node(v)
			b.add(route.Point{lon, lat})
		}
	}
	if b.empty() {
		b.add(route.Point{0, 0})
	}
	return b.view()
}

type box struct{ minLon, minLat, maxLon, maxLat float64 }

func emptyBox() box {
	return box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
}

func (b *box) add(p route.Point) {
	b.minLon, b.maxLon = min(b.minLon, p[0]), max(b.maxLon, p[0])
	b.minLat, b.maxLat = min(b.minLat, p[1]), max(b.maxLat, p[1])
}

func (b box) empty() bool { return b.minLon > b.maxLon }

// view pads the box by 8 % and to at least 1 km each way, then fits it in
// mapWidth × mapMaxHeight pixels.
func (b box) view() view {
	k := geo.LonScale((b.minLat + b.maxLat) / 2)
	minSpanLat := 1000 / geo.MetresPerDegreeLat
	padLat := max((b.maxLat-b.minLat)*0.08, (minSpanLat-(b.maxLat-b.minLat))/2)
	padLon := max((b.maxLon-b.minLon)*0.08, (minSpanLat/k-(b.maxLon-b.minLon))/2)
	b = box{b.minLon - padLon, b.minLat - padLat, b.maxLon + padLon, b.maxLat + padLat}
	spanX, spanY := (b.maxLon-b.minLon)*k, b.maxLat-b.minLat // in degrees of latitude
	scale := min(mapWidth/spanX, mapMaxHeight/spanY)         // pixels per degree of latitude
	return view{minLon: b.minLon, maxLat: b.maxLat, sx: scale * k, sy: scale,
		w: max(1, int(math.Ceil(spanX*scale))), h: max(1, int(math.Ceil(spanY*scale)))}
}

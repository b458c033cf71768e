package geo

import "math"

// Area is a set of polygons, each an outer ring and any holes, as a
// GeoJSON Polygon or MultiPolygon gives them: what a request's
// avoid_areas keeps its routes out of (issue 35). Edges are straight
// lines in longitude and latitude (RFC 7946, section 3.1.1), and a point
// is inside a polygon when a ray from it crosses its rings an odd number
// of times, so a hole is outside and the orientation of rings does not
// matter.
//
// An Area is indexed so that a test costs about the same for a 1,000-
// vertex polygon as for a rectangle: each polygon has its bounding box,
// checked first, and its edges sorted into horizontal bands, so a point
// or a short road piece meets only the few edges of its band. It is
// read-only once made and safe for concurrent use.
type Area struct {
	polys []polygon
	box   Box
}

// Box is a bounding box in degrees.
type Box struct{ MinLon, MinLat, MaxLon, MaxLat float64 }

// Meets reports whether b and o share a point.
func (b Box) Meets(o Box) bool {
	return b.MinLon <= o.MaxLon && o.MinLon <= b.MaxLon && b.MinLat <= o.MaxLat && o.MinLat <= b.MaxLat
}

func (b Box) contains(lon, lat float64) bool {
	return lon >= b.MinLon && lon <= b.MaxLon && lat >= b.MinLat && lat <= b.MaxLat
}

func emptyBox() Box { return Box{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)} }

func (b Box) add(lon, lat float64) Box {
	return Box{min(b.MinLon, lon), min(b.MinLat, lat), max(b.MaxLon, lon), max(b.MaxLat, lat)}
}

// edge is one side of a ring, from a to b.
type edge struct{ a, b [2]float64 }

// polygon is one polygon's edges (all its rings') in bands of latitude:
// band i covers [lat0+i·height, lat0+(i+1)·height] and lists every edge
// whose latitudes meet it.
type polygon struct {
	box    Box
	edges  []edge
	bands  [][]int32
	lat0   float64
	height float64
}

// edgesPerBand is the number of edges a band holds on average: a few, so
// that a test reads a handful of edges, and bands stay few enough to cost
// nothing to make.
const edgesPerBand = 4

// NewArea indexes polygons: polygons[i] is polygon i's rings, the first
// its outer ring, each a closed list of [longitude, latitude] positions
// (the last repeats the first). The caller has checked them (package api).
func NewArea(polygons [][][][2]float64) *Area {
	a := &Area{box: emptyBox()}
	for _, rings := range polygons {
		p := newPolygon(rings)
		a.polys = append(a.polys, p)
		a.box = Box{min(a.box.MinLon, p.box.MinLon), min(a.box.MinLat, p.box.MinLat),
			max(a.box.MaxLon, p.box.MaxLon), max(a.box.MaxLat, p.box.MaxLat)}
	}
	return a
}

func newPolygon(rings [][][2]float64) polygon {
	p := polygon{box: emptyBox()}
	for _, ring := range rings {
		for i := 0; i+1 < len(ring); i++ {
			p.edges = append(p.edges, edge{ring[i], ring[i+1]})
			p.box = p.box.add(ring[i][0], ring[i][1])
		}
	}
	n := max(1, len(p.edges)/edgesPerBand)
	p.lat0, p.height = p.box.MinLat, (p.box.MaxLat-p.box.MinLat)/float64(n)
	p.bands = make([][]int32, n)
	for i, e := range p.edges {
		lo, hi := p.band(min(e.a[1], e.b[1])), p.band(max(e.a[1], e.b[1]))
		for b := lo; b <= hi; b++ {
			p.bands[b] = append(p.bands[b], int32(i))
		}
	}
	return p
}

// band is the band holding latitude lat, clamped to the polygon's.
func (p *polygon) band(lat float64) int {
	if p.height <= 0 {
		return 0
	}
	return max(0, min(len(p.bands)-1, int((lat-p.lat0)/p.height)))
}

// Bounds returns the box of every polygon.
func (a *Area) Bounds() Box { return a.box }

// Polygons returns how many polygons the area has.
func (a *Area) Polygons() int { return len(a.polys) }

// PolygonBounds returns polygon i's box.
func (a *Area) PolygonBounds(i int) Box { return a.polys[i].box }

// Contains reports whether the point is inside a polygon of the area (on
// its boundary counts either way) and which, -1 for none.
func (a *Area) Contains(lon, lat float64) (int, bool) {
	for i := range a.polys {
		if a.polys[i].contains(lon, lat) {
			return i, true
		}
	}
	return -1, false
}

// contains is the even-odd rule over the edges of lat's band: an edge the
// horizontal line through the point crosses spans lat, so it is in that
// band.
func (p *polygon) contains(lon, lat float64) bool {
	if !p.box.contains(lon, lat) {
		return false
	}
	in := false
	for _, i := range p.bands[p.band(lat)] {
		e := &p.edges[i]
		if (e.a[1] > lat) != (e.b[1] > lat) {
			x := e.a[0] + (lat-e.a[1])*(e.b[0]-e.a[0])/(e.b[1]-e.a[1])
			if lon < x {
				in = !in
			}
		}
	}
	return in
}

// Touches reports whether the straight piece from (aLon, aLat) to (bLon,
// bLat) enters polygon i: an end lies inside it, or the piece crosses one
// of its rings.
func (a *Area) Touches(i int, aLon, aLat, bLon, bLat float64) bool {
	p := &a.polys[i]
	piece := Box{min(aLon, bLon), min(aLat, bLat), max(aLon, bLon), max(aLat, bLat)}
	if !p.box.Meets(piece) {
		return false
	}
	if p.contains(aLon, aLat) || p.contains(bLon, bLat) {
		return true
	}
	s := edge{[2]float64{aLon, aLat}, [2]float64{bLon, bLat}}
	for b := p.band(piece.MinLat); b <= p.band(piece.MaxLat); b++ {
		for _, e := range p.bands[b] {
			if crosses(s, p.edges[e]) {
				return true
			}
		}
	}
	return false
}

// crosses reports whether segments s and t share a point.
func crosses(s, t edge) bool {
	d1, d2 := orient(t.a, t.b, s.a), orient(t.a, t.b, s.b)
	d3, d4 := orient(s.a, s.b, t.a), orient(s.a, s.b, t.b)
	if (d1 > 0) != (d2 > 0) && d1 != 0 && d2 != 0 && (d3 > 0) != (d4 > 0) && d3 != 0 && d4 != 0 {
		return true
	}
	return d1 == 0 && onSegment(t, s.a) || d2 == 0 && onSegment(t, s.b) ||
		d3 == 0 && onSegment(s, t.a) || d4 == 0 && onSegment(s, t.b)
}

// orient is the sign of the turn a→b→c: > 0 left, < 0 right, 0 in line.
func orient(a, b, c [2]float64) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// onSegment reports whether c, in line with s, lies between its ends.
func onSegment(s edge, c [2]float64) bool {
	return c[0] >= min(s.a[0], s.b[0]) && c[0] <= max(s.a[0], s.b[0]) &&
		c[1] >= min(s.a[1], s.b[1]) && c[1] <= max(s.a[1], s.b[1])
}

package places

import (
	"cmp"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Entry is one name of the index and where it is.
type Entry struct {
	Name     string
	Kind     Kind
	Lon, Lat float64
	// Near names the settlement nearest a street (within nearRadius), to
	// tell apart the Carrer Major of one village from another's; "" for
	// places and for streets far from any.
	Near string
}

// Segment is one named segment of the road network, by its middle point.
type Segment struct {
	Name     string
	Lon, Lat float64
	Length   float64 // metres
}

const (
	// clusterRadius joins the segments of one name into one street when
	// they lie within it of the street's longest segment: a street's
	// pieces, not two streets of the same name in two villages.
	clusterRadius = 1500.0
	// nearRadius bounds how far a street's settlement may be.
	nearRadius = 5000.0
)

// Segments lists every named segment of net, by the point halfway along it.
func Segments(net *graph.Network) []Segment {
	var out []Segment
	for s := range uint32(net.NumSegments()) {
		name := net.Name(s)
		if name == "" {
			continue
		}
		lon, lat := halfway(net, s)
		out = append(out, Segment{Name: name, Lon: lon, Lat: lat, Length: float64(net.SegLength[s])})
	}
	return out
}

// halfway returns the point of segment s's shape halfway along it.
func halfway(net *graph.Network, s uint32) (lon, lat float64) {
	begin, end := net.Points(s)
	half := float64(net.SegLength[s]) / 2
	lon, lat = net.Point(begin)
	for i := begin + 1; i < end; i++ {
		blon, blat := net.Point(i)
		d := geo.Distance(lon, lat, blon, blat)
		if d >= half && d > 0 {
			t := half / d
			return lon + (blon-lon)*t, lat + (blat-lat)*t
		}
		half -= d
		lon, lat = blon, blat
	}
	return lon, lat
}

// Build makes the index's entries from the named place nodes and the named
// segments: a street is one entry per cluster of its segments, at the middle
// of the cluster's longest, named near its nearest settlement. Entries come
// sorted by search key, then kind and position, so a build is repeatable.
func Build(placeNodes []Entry, streets []Segment) []Entry {
	entries := slices.Clone(placeNodes)
	near := newSettlements(placeNodes)
	byName := map[string][]Segment{}
	for _, s := range streets {
		byName[s.Name] = append(byName[s.Name], s)
	}
	for name, segs := range byName {
		for _, c := range cluster(segs) {
			entries = append(entries, Entry{Name: name, Kind: Street, Lon: c.Lon, Lat: c.Lat, Near: near.nearest(c.Lon, c.Lat)})
		}
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(fold(a.Name), fold(b.Name)), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Kind, b.Kind),
			cmp.Compare(a.Lon, b.Lon), cmp.Compare(a.Lat, b.Lat))
	})
	return entries
}

// cluster groups the segments of one name, longest first: each joins the
// first cluster whose anchor (its longest segment) is within clusterRadius.
func cluster(segs []Segment) []Segment {
	slices.SortFunc(segs, func(a, b Segment) int {
		return cmp.Or(cmp.Compare(b.Length, a.Length), cmp.Compare(a.Lon, b.Lon), cmp.Compare(a.Lat, b.Lat))
	})
	var anchors []Segment
	for _, s := range segs {
		joined := false
		for _, a := range anchors {
			if geo.Distance(a.Lon, a.Lat, s.Lon, s.Lat) <= clusterRadius {
				joined = true
				break
			}
		}
		if !joined {
			anchors = append(anchors, s)
		}
	}
	return anchors
}

// settlements finds the nearest settlement to a point through a grid of
// cells about nearRadius wide, so a country's streets cost a few cells each.
type settlements struct {
	cells map[[2]int32][]Entry
	size  float64 // degrees of latitude per cell
}

func newSettlements(places []Entry) *settlements {
	st := &settlements{cells: map[[2]int32][]Entry{}, size: nearRadius / geo.MetresPerDegreeLat}
	for _, p := range places {
		if p.Kind.Settlement() {
			c := st.cell(p.Lon, p.Lat)
			st.cells[c] = append(st.cells[c], p)
		}
	}
	return st
}

func (st *settlements) cell(lon, lat float64) [2]int32 {
	return [2]int32{int32(math.Floor(lon / st.size)), int32(math.Floor(lat / st.size))}
}

// nearest names the closest settlement within nearRadius (at equal
// distance, the first name in order); "" when there is none. Cells are as wide
// in longitude as in latitude, so narrower on the ground: the 3×3 block
// around the point covers nearRadius north and south, and at least
// nearRadius·cos(lat) east and west, which is what is searched.
func (st *settlements) nearest(lon, lat float64) string {
	c := st.cell(lon, lat)
	best, bestD := "", nearRadius
	for dx := int32(-1); dx <= 1; dx++ {
		for dy := int32(-1); dy <= 1; dy++ {
			for _, p := range st.cells[[2]int32{c[0] + dx, c[1] + dy}] {
				if d := geo.Distance(lon, lat, p.Lon, p.Lat); d < bestD || (d == bestD && best != "" && p.Name < best) {
					best, bestD = p.Name, d
				}
			}
		}
	}
	return best
}

package isochrone

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// vertex is a point of a reached polyline in the local plane (metres east
// and north of the origin) with the cost of reaching it.
type vertex struct {
	x, y float32
	c    uint32
}

// plane is an equirectangular projection centred on the origin. Over the
// hundred kilometres an isochrone spans its distortion only stretches
// cells slightly; positions are exact because the same mapping is used
// both ways.
type plane struct {
	lon0, lat0 int32   // fixed point
	sx, sy     float64 // metres per fixed-point unit
}

func newPlane(lon, lat float64) plane {
	sy := geo.MetresPerDegreeLat / geo.Scale
	return plane{lon0: geo.Fixed(lon), lat0: geo.Fixed(lat), sx: sy * geo.LonScale(lat), sy: sy}
}

func (p plane) project(lon, lat int32) (x, y float64) {
	return float64(lon-p.lon0) * p.sx, float64(lat-p.lat0) * p.sy
}

// degrees inverts project.
func (p plane) degrees(x, y float64) (lon, lat float64) {
	return (float64(p.lon0) + x/p.sx) / geo.Scale, (float64(p.lat0) + y/p.sy) / geo.Scale
}

// sample turns the reached part of every labelled arc into polylines
// (sc.verts, split at sc.lines) carrying costs, and adds the origin.
func (sc *scratch) sample(g *graph.Graph, origin snap.Result, limit uint32) {
	sc.plane = newPlane(origin.Lon, origin.Lat)
	sc.verts, sc.lines = sc.verts[:0], sc.lines[:0]
	sc.lines = append(sc.lines, 0)
	sc.verts = append(sc.verts, vertex{}) // the origin, at cost 0
	sc.lines = append(sc.lines, 1)
	lim := float64(limit)
	for i := range sc.costs.Len() {
		a := sc.costs.Node(i)
		if sc.isSeed(a) || skipped(g, a) {
			continue
		}
		w := float64(sc.arcWeight(g, a))
		start := float64(*sc.costs.At(i)) - w
		sc.emitPart(g, a, 0, reach(start, w, lim, 1), start, w)
	}
	for _, s := range sc.seeds {
		if skipped(g, s.arc) {
			continue
		}
		w := float64(sc.arcWeight(g, s.arc))
		f0 := 1.0
		if w > 0 {
			f0 = float64(s.along) / w
		}
		// Ahead of the origin: cost f·w − along at fraction f.
		sc.emitPart(g, s.arc, f0, reach(-float64(s.along), w, lim, 1), -float64(s.along), w)
		if s.loop != search.Unreached {
			l := float64(s.loop)
			sc.emitPart(g, s.arc, 0, reach(l, w, lim, f0), l, w)
		}
	}
}

// reach is the fraction of an arc of weight w, started at cost start,
// that lies within lim, at most upTo.
func reach(start, w, lim, upTo float64) float64 {
	if w <= 0 {
		return upTo
	}
	return min(upTo, (lim-start)/w)
}

func (sc *scratch) isSeed(a uint32) bool {
	for _, s := range sc.seeds {
		if s.arc == a {
			return true
		}
	}
	return false
}

// skipped reports arcs that do not make land reachable.
func skipped(g *graph.Graph, a uint32) bool {
	s, _ := g.ArcSegment(a)
	return g.Net.SegFlags[s]&(graph.FlagTunnel|graph.FlagFerry) != 0
}

// emitPart adds the part of arc a between fractions fa and fb of its
// length as a polyline, the cost at fraction f being start + f·w.
func (sc *scratch) emitPart(g *graph.Graph, a uint32, fa, fb, start, w float64) {
	if fb <= fa {
		return
	}
	segRef := g.ArcSegRef(a)
	s, rev := graph.SplitSegRef(segRef)
	begin, end := g.Net.Points(s)
	n := int(end - begin)
	pt := func(k int) (float64, float64) { // k-th point in the direction travelled
		i := begin + uint32(k)
		if rev {
			i = end - 1 - uint32(k)
		}
		return sc.plane.project(g.Net.GeomCoord[2*i], g.Net.GeomCoord[2*i+1])
	}
	total := 0.0
	px, py := pt(0)
	for k := 1; k < n; k++ {
		x, y := pt(k)
		total += math.Sqrt((x-px)*(x-px) + (y-py)*(y-py))
		px, py = x, y
	}
	put := func(x, y, f float64) {
		c := max(0, math.Round(start+f*w))
		sc.verts = append(sc.verts, vertex{float32(x), float32(y), uint32(c)})
	}
	if total == 0 {
		x, y := pt(0)
		put(x, y, fa)
		sc.lines = append(sc.lines, int32(len(sc.verts)))
		return
	}
	da, db := fa*total, fb*total
	done := 0.0
	px, py = pt(0)
	for k := 1; k < n && done < db; k++ {
		x, y := pt(k)
		l := math.Sqrt((x-px)*(x-px) + (y-py)*(y-py))
		if next := done + l; next > da && l > 0 {
			if done <= da {
				t := (da - done) / l
				put(px+(x-px)*t, py+(y-py)*t, fa)
			}
			if next >= db {
				t := (db - done) / l
				put(px+(x-px)*t, py+(y-py)*t, fb)
			} else {
				put(x, y, next/total)
			}
		}
		done += l
		px, py = x, y
	}
	sc.lines = append(sc.lines, int32(len(sc.verts)))
}

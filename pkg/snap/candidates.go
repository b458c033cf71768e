package snap

import (
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Candidates appends to dst the nearest position on each of the k nearest
// roads (segments) the profile may use under st within radius metres of
// (lon, lat), nearest first, and returns it. It is the candidate set of map
// matching (package match): unlike Nearest it applies no preference for the
// main component and keeps several roads, as the matcher weighs them
// itself. A point outside the coverage, or with no road within radius,
// gets none. It reads the tree in place; it allocates only when dst grows.
func (f *Finder) Candidates(lon, lat, radius float64, k int, st *graph.State, dst []Result) []Result {
	if k <= 0 || !(radius > 0) || !f.ix.Covers(lon, lat) {
		return dst
	}
	s := search{f: f, lon: lon, lat: lat, x: lon * geo.Scale, y: lat * geo.Scale, k: geo.LonScale(lat), radius: radius, st: st}
	c := kNearest{s: &s, k: k, list: make([]candidate, 0, k)}
	levels := f.ix.levels
	if top := len(levels) - 2; top >= 0 && f.mask[levels[top]]&maskUsable != 0 {
		c.node(top, 0)
	}
	for _, cand := range c.list {
		dst = append(dst, f.result(cand))
	}
	return dst
}

// kNearest keeps the nearest piece of each of the k nearest segments found
// so far, nearest first.
type kNearest struct {
	s    *search
	k    int
	list []candidate
}

// reach is how far a piece may lie and still enter the list.
func (c *kNearest) reach() float64 {
	if len(c.list) < c.k {
		return c.s.radius
	}
	return min(c.s.radius, c.list[len(c.list)-1].dist)
}

// node visits node j of level l when its box may hold a piece within reach.
func (c *kNearest) node(l int, j uint32) {
	if l == 0 {
		c.pieces(j)
		return
	}
	ix := c.s.f.ix
	below, at := ix.levels[l-1], ix.levels[l]
	for id := below + Fanout*j; id < min(at, below+Fanout*(j+1)); id++ {
		if c.s.f.mask[id]&maskUsable == 0 || c.s.boxDist2(id) > c.s.reach2(c.reach()) {
			continue
		}
		c.node(l-1, id-below)
	}
}

// pieces projects the point on the pieces of node j of the lowest level.
func (c *kNearest) pieces(j uint32) {
	s := c.s
	ix, g := s.f.ix, s.f.g
	net := g.Net
	for i := Fanout * j; i < min(uint32(len(ix.items)/2), Fanout*(j+1)); i++ {
		seg, pt := ix.items[2*i], ix.items[2*i+1]
		if !g.Usable(seg) {
			continue
		}
		aLon, aLat := net.Point(pt)
		bLon, bLat := net.Point(pt + 1)
		p := geo.Project(s.lon, s.lat, s.k, aLon, aLat, bLon, bLat)
		if p.Dist > c.reach() {
			continue
		}
		cand := candidate{seg: seg, piece: pt, proj: p, dist: p.Dist, main: g.Big[seg] == 1}
		if cand.fwd, cand.bwd = s.directions(seg, aLon, aLat, bLon, bLat); !cand.fwd && !cand.bwd {
			continue
		}
		c.add(cand)
	}
}

// add puts cand in the list unless its segment is there at least as near.
func (c *kNearest) add(cand candidate) {
	for i := range c.list {
		if c.list[i].seg != cand.seg {
			continue
		}
		if c.list[i].dist <= cand.dist {
			return
		}
		c.list = append(c.list[:i], c.list[i+1:]...)
		break
	}
	if len(c.list) == c.k {
		c.list = c.list[:c.k-1]
	}
	i := len(c.list)
	c.list = append(c.list, cand)
	for i > 0 && c.list[i-1].dist > cand.dist {
		c.list[i] = c.list[i-1]
		i--
	}
	c.list[i] = cand
}

package snap

import (
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Candidates appends to dst the k nearest positions on roads the profile
// may use under st within radius metres of (lon, lat), nearest first, and
// returns it: on each road (segment) its nearest position, and another
// only where the road comes back near the point more than SameRoadApart
// metres away (a hairpin bend passes a point twice). It is the candidate set of map
// matching (package match): unlike Nearest it applies no preference for the
// main component and keeps several roads, as the matcher weighs them
// itself. A point outside the coverage, or with no road within radius,
// gets none. It reads the tree in place; it allocates its working lists,
// and dst when it grows: a CandidateFinder keeps the lists between calls.
func (f *Finder) Candidates(lon, lat, radius float64, k int, st *graph.State, dst []Result) []Result {
	c := f.CandidateFinder()
	return c.Candidates(lon, lat, radius, k, st, dst)
}

// CandidateFinder is Finder.Candidates with its working memory kept from
// one call to the next, for a caller that looks up many points (every
// fix of a trace) and would otherwise allocate at each. It is not safe for
// concurrent use.
type CandidateFinder struct {
	f          *Finder
	list, segs []candidate
	out        []candidate
}

// CandidateFinder returns a CandidateFinder on f.
func (f *Finder) CandidateFinder() *CandidateFinder { return &CandidateFinder{f: f} }

// Candidates is Finder.Candidates; it allocates only when dst grows, or
// when a point has more pieces in reach than any before.
func (cf *CandidateFinder) Candidates(lon, lat, radius float64, k int, st *graph.State, dst []Result) []Result {
	f := cf.f
	if k <= 0 || !(radius > 0) || !f.ix.Covers(lon, lat) {
		return dst
	}
	s := search{f: f, lon: lon, lat: lat, x: lon * geo.Scale, y: lat * geo.Scale, k: geo.LonScale(lat), radius: radius, st: st}
	c := kNearest{s: &s, k: k, list: cf.list[:0], segs: cf.segs[:0], out: cf.out[:0]}
	levels := f.ix.levels
	if top := len(levels) - 2; top >= 0 && f.mask[levels[top]]&maskUsable != 0 {
		c.node(top, 0)
	}
	for _, cand := range c.candidates() {
		dst = append(dst, f.result(cand))
	}
	cf.list, cf.segs, cf.out = c.list, c.segs, c.out
	return dst
}

// kNearest keeps the pieces found within reach, nearest first, and the
// nearest piece of each of the k nearest segments (segs). The candidates
// are the first k pieces that are not within SameRoadApart of a nearer
// one on the same segment; the nearest piece of each segment is one, so
// the k-th candidate is no farther than the k-th segment: that is the
// reach (which, unlike the k-th candidate, only ever shrinks).
type kNearest struct {
	s    *search
	k    int
	list []candidate
	segs []candidate
	out  []candidate // candidates' answer
}

// reach is how far a piece may lie and still matter.
func (c *kNearest) reach() float64 {
	if len(c.segs) < c.k {
		return c.s.radius
	}
	return min(c.s.radius, c.segs[c.k-1].dist)
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
	for pc := range c.s.leaf(j) {
		if pc.proj.Dist > c.reach() {
			continue
		}
		cand := candidate{seg: pc.seg, piece: pc.pt, proj: pc.proj, dist: pc.proj.Dist, main: c.s.f.g.Big[pc.seg] == 1}
		if cand.fwd, cand.bwd = c.s.directions(pc); !cand.fwd && !cand.bwd {
			continue
		}
		c.add(cand)
	}
}

// SameRoadApart is how far apart, in metres, two positions on one road
// near a point must lie to be two candidates rather than one.
const SameRoadApart = 15

// add records cand.
func (c *kNearest) add(cand candidate) {
	c.list = insert(c.list, cand, len(c.list)+1)
	for i, o := range c.segs {
		if o.seg != cand.seg {
			continue
		}
		if o.dist <= cand.dist {
			return
		}
		c.segs = append(c.segs[:i], c.segs[i+1:]...)
		break
	}
	c.segs = insert(c.segs, cand, c.k)
}

// insert puts cand in list in distance order, keeping at most n.
func insert(list []candidate, cand candidate, n int) []candidate {
	if len(list) == n {
		if list[n-1].dist <= cand.dist {
			return list
		}
		list = list[:n-1]
	}
	i := len(list)
	list = append(list, cand)
	for i > 0 && list[i-1].dist > cand.dist {
		list[i] = list[i-1]
		i--
	}
	list[i] = cand
	return list
}

// candidates are the first k pieces not near a nearer one of their road.
func (c *kNearest) candidates() []candidate {
	out := c.out[:0]
	for _, p := range c.list {
		if len(out) == c.k || p.dist > c.reach() {
			break
		}
		near := false
		for _, q := range out {
			near = near || q.seg == p.seg && within(c.s.k, q.proj, p.proj, SameRoadApart)
		}
		if !near {
			out = append(out, p)
		}
	}
	c.out = out
	return out
}

// within reports whether a and b lie at most d metres apart by
// geo.Distance. Pieces of one road near a point are compared often: the
// flat distance (k the cosine of the point's latitude, which a radius of
// tens of kilometres changes by under a per cent) decides all but the
// pairs within 5 % of d, and those are measured as geo.Distance does.
func within(k float64, a, b geo.Projection, d float64) bool {
	dx := (a.Lon - b.Lon) * k * geo.MetresPerDegreeLat
	dy := (a.Lat - b.Lat) * geo.MetresPerDegreeLat
	switch flat := dx*dx + dy*dy; {
	case flat < 0.9*d*d:
		return true
	case flat > 1.1*d*d:
		return false
	}
	return geo.Distance(a.Lon, a.Lat, b.Lon, b.Lat) <= d
}

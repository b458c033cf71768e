package snap

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// NearestDistance returns the distance in metres from (lon, lat) to the
// nearest position on a road the profile may use under st within radius
// (Candidates' first candidate's), and false when there is none. It is
// for a caller that needs the distance alone (map matching estimates the
// GPS error from it at many fixes): it does not place the position along
// its road, and it visits the index's boxes nearest first, so that the
// first road found bounds the rest away.
func (cf *CandidateFinder) NearestDistance(lon, lat, radius float64, st *graph.State) (float64, bool) {
	f := cf.f
	if !(radius > 0) || !f.ix.Covers(lon, lat) {
		return 0, false
	}
	s := search{f: f, lon: lon, lat: lat, x: lon * geo.Scale, y: lat * geo.Scale, k: geo.LonScale(lat), radius: radius, st: st}
	n := nearestDist{s: &s, best: math.Inf(1)}
	levels := f.ix.levels
	if top := len(levels) - 2; top >= 0 && f.mask[levels[top]]&maskUsable != 0 {
		n.node(top, 0)
	}
	return n.best, !math.IsInf(n.best, 1)
}

// nearestDist is NearestDistance's walk: the nearest usable piece's
// distance found so far.
type nearestDist struct {
	s    *search
	best float64
}

// reach2 is how far, in boxDist2's unit, a box may lie and still hold a
// nearer piece.
func (n *nearestDist) reach2() float64 { return n.s.reach2(min(n.s.radius, n.best)) }

// node visits node j of level l: its children nearest first, each only if
// it may still hold a nearer piece when its turn comes.
func (n *nearestDist) node(l int, j uint32) {
	s := n.s
	if l == 0 {
		n.pieces(j)
		return
	}
	var kids children
	below, at := s.f.ix.levels[l-1], s.f.ix.levels[l]
	for c := below + Fanout*j; c < min(at, below+Fanout*(j+1)); c++ {
		if s.f.mask[c]&maskUsable == 0 {
			continue
		}
		if d := s.boxDist2(c); d <= n.reach2() {
			kids.add(d, c)
		}
	}
	for _, kid := range kids.list[:kids.n] {
		if kid.d <= n.reach2() {
			n.node(l-1, kid.id-below)
		}
	}
}

// pieces measures the pieces of node j of the lowest level, keeping those
// Candidates would (kNearest.pieces).
func (n *nearestDist) pieces(j uint32) {
	for pc := range n.s.leaf(j) {
		if pc.proj.Dist > min(n.s.radius, n.best) {
			continue
		}
		if fwd, bwd := n.s.directions(pc); fwd || bwd {
			n.best = pc.proj.Dist
		}
	}
}

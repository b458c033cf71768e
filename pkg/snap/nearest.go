package snap

import (
	"fmt"
	"iter"
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// Finder is the index seen by one profile.
type Finder struct {
	ix    *Index
	g     *graph.Graph
	mask  []uint8
	minor []bool // per class of g.Net.Classes: track or service (RoadReach)
}

// For returns the finder of profile graph g.
func (ix *Index) For(g *graph.Graph) (*Finder, error) {
	mask, ok := ix.masks[g.Profile]
	if !ok {
		return nil, fmt.Errorf("snap: the index has no mask for profile %s", g.Profile)
	}
	minor := make([]bool, len(g.Net.Classes))
	for i, c := range g.Net.Classes {
		minor[i] = minorClasses[c]
	}
	return &Finder{ix: ix, g: g, mask: mask, minor: minor}, nil
}

// minorClasses are the road classes a point leaves for a main-class road
// within RoadReach.
var minorClasses = map[string]bool{"track": true, "service": true}

// Index returns the index the finder views.
func (f *Finder) Index() *Index { return f.ix }

// Graph returns the profile graph the finder serves.
func (f *Finder) Graph() *graph.Graph { return f.g }

// Nearest places (lon, lat) by the rule of the package comment, under st,
// the state of the graph's conditions at the time of travel (nil for
// none): a road closed then is not snapped to.
func (f *Finder) Nearest(lon, lat float64, o Options, st *graph.State) (Snapped, error) {
	if !f.ix.Covers(lon, lat) {
		return Snapped{}, ErrOutside
	}
	s, err := f.nearest(lon, lat, o, st)
	s.From, s.Options = [2]float64{lon, lat}, o
	return s, err
}

// NearestOnMain places (lon, lat) on the nearest road on main, a per
// segment set such as graph.State.MainSegments (the main component at the
// time of travel), within o's radius and bearing, under st; ok is false
// when there is none.
func (f *Finder) NearestOnMain(lon, lat float64, o Options, st *graph.State, main []bool) (Result, bool) {
	radius := o.Radius
	if radius <= 0 || radius > DefaultRadius {
		radius = DefaultRadius
	}
	s := search{f: f, lon: lon, lat: lat, x: lon * geo.Scale, y: lat * geo.Scale, k: geo.LonScale(lat), radius: radius,
		bearing: o.Bearing, st: st, onMain: main}
	s.best.dist, s.main.dist, s.road.dist = math.Inf(1), math.Inf(1), math.Inf(1)
	if levels := f.ix.levels; len(levels) >= 2 && f.mask[levels[len(levels)-2]] != 0 {
		s.node(len(levels)-2, 0)
	}
	if !s.main.found() {
		return Result{}, false
	}
	r := f.result(s.main)
	r.Main = true
	return r, true
}

// nearest is Nearest inside the coverage.
func (f *Finder) nearest(lon, lat float64, o Options, st *graph.State) (Snapped, error) {
	radius := o.Radius
	if radius <= 0 || radius > DefaultRadius {
		radius = DefaultRadius
	}
	s := f.search(lon, lat, radius, o.Bearing, st)
	if !s.best.found() {
		far := &FarError{Radius: radius}
		if radius < DefaultRadius {
			if wide := f.search(lon, lat, DefaultRadius, o.Bearing, st); wide.best.found() {
				far.Nearest = wide.best.dist
			}
		}
		return Snapped{}, far
	}
	if s.best.main {
		return f.orRoad(s, s.best), nil
	}
	if s.main.found() && s.main.dist <= s.best.dist+max(MainSlack, MainSlackRatio*s.best.dist) {
		return f.orRoad(s, s.main), nil
	}
	if f.minor[f.g.Net.SegClass[s.best.seg]] && s.road.found() && s.road.dist <= RoadReach {
		return Snapped{Result: f.result(s.road)}, nil
	}
	out := Snapped{Result: f.result(s.best)}
	if s.main.found() {
		out.Fallback, out.HasFallback = f.result(s.main), true
	}
	return out, nil
}

// orRoad places the point on c, or on the search's main-class road when c
// is a track or service way and the road lies within RoadReach.
func (f *Finder) orRoad(s search, c candidate) Snapped {
	if f.minor[f.g.Net.SegClass[c.seg]] && s.road.found() && s.road.dist <= RoadReach {
		c = s.road
	}
	return Snapped{Result: f.result(c)}
}

// candidate is the best piece found so far.
type candidate struct {
	seg, piece uint32
	proj       geo.Projection
	dist       float64
	main       bool
	fwd, bwd   bool // directions allowed
}

func (c *candidate) found() bool { return !math.IsInf(c.dist, 1) }

// search is one query's state: the point, its filters, and the nearest
// usable piece, nearest main-component piece and nearest main-component
// piece of a main class within RoadReach found so far.
type search struct {
	f          *Finder
	lon, lat   float64
	x, y       float64 // lon and lat in 1e-7 degrees
	k          float64 // geo.LonScale at the point
	radius     float64
	bearing    *Bearing
	st         *graph.State
	best, main candidate
	road       candidate
	// onMain, when not nil, replaces the graph's Big as the main component
	// (NearestOnMain); the index's main masks then prune nothing.
	onMain []bool
}

// search runs one query. The state is returned by value: a query
// allocates nothing.
func (f *Finder) search(lon, lat, radius float64, b *Bearing, st *graph.State) search {
	inf := candidate{dist: math.Inf(1)}
	s := search{f: f, lon: lon, lat: lat, x: lon * geo.Scale, y: lat * geo.Scale, k: geo.LonScale(lat), radius: radius, bearing: b, st: st, best: inf, main: inf, road: inf}
	levels := f.ix.levels
	if top := len(levels) - 2; top >= 0 && f.mask[levels[top]] != 0 {
		s.node(top, 0)
	}
	return s
}

// wanted reports whether a node with mask m whose box lies d2 away (see
// boxDist2) may hold a better candidate: a nearer one. A box only as far as
// the best found is skipped, so that of roads at the same distance (a point
// at a junction lies on all of them) the first found wins, in the tree's
// order, the same on every run, without visiting every box that touches
// the point.
func (s *search) wanted(m uint8, d2 float64) bool {
	if d2 > s.reach2(s.radius) {
		return false
	}
	mainMask := uint8(maskMain)
	if s.onMain != nil {
		mainMask = maskUsable
	}
	return (m&maskUsable != 0 && d2 < s.reach2(s.best.dist)) ||
		(m&mainMask != 0 && d2 < s.reach2(max(s.main.dist, min(s.road.dist, RoadReach))))
}

// reach2 turns a distance in metres into boxDist2's unit.
func (s *search) reach2(m float64) float64 {
	r := m * (geo.Scale / geo.MetresPerDegreeLat)
	return r * r
}

// node visits node j of level l: its children nearest first, each only if
// it may still hold a better candidate when its turn comes.
func (s *search) node(l int, j uint32) {
	if l == 0 {
		s.pieces(j)
		return
	}
	var kids children
	below, at := s.f.ix.levels[l-1], s.f.ix.levels[l]
	for c := below + Fanout*j; c < min(at, below+Fanout*(j+1)); c++ {
		m := s.f.mask[c]
		if m == 0 {
			continue
		}
		d := s.boxDist2(c)
		if !s.wanted(m, d) {
			continue
		}
		if d == 0 {
			// Of boxes holding the point, the smallest first: the more
			// likely to hold the road the point lies on, which then
			// bounds the rest away.
			d = -1 / (1 + s.size(c))
		}
		kids.add(d, c)
	}
	for _, kid := range kids.list[:kids.n] {
		if s.wanted(s.f.mask[kid.id], max(kid.d, 0)) {
			s.node(l-1, kid.id-below)
		}
	}
}

// piece is a usable piece of the index, from point pt of segment seg to
// the next, with the point searched for projected on it.
type piece struct {
	seg, pt                uint32
	aLon, aLat, bLon, bLat float64
	proj                   geo.Projection
}

// leaf yields the usable pieces of node j of the index's lowest level,
// each with the point projected on it: what every search measures there
// (Nearest, Candidates, NearestDistance), before its own test.
func (s *search) leaf(j uint32) iter.Seq[piece] {
	return func(yield func(piece) bool) {
		ix, g := s.f.ix, s.f.g
		for i := Fanout * j; i < min(uint32(len(ix.items)/2), Fanout*(j+1)); i++ {
			seg, pt := ix.items[2*i], ix.items[2*i+1]
			if !g.Usable(seg) {
				continue
			}
			aLon, aLat := g.Net.Point(pt)
			bLon, bLat := g.Net.Point(pt + 1)
			p := geo.Project(s.lon, s.lat, s.k, aLon, aLat, bLon, bLat)
			if !yield(piece{seg, pt, aLon, aLat, bLon, bLat, p}) {
				return
			}
		}
	}
}

// pieces scans the pieces of node j of the lowest level.
func (s *search) pieces(j uint32) {
	g := s.f.g
	for pc := range s.leaf(j) {
		main := g.Big[pc.seg] == 1
		if s.onMain != nil {
			main = s.onMain[pc.seg]
		}
		d := pc.proj.Dist
		nearer, nearerMain := d < s.best.dist, main && d < s.main.dist
		nearerRoad := main && d < min(s.road.dist, RoadReach) && !s.f.minor[g.Net.SegClass[pc.seg]]
		if !nearer && !nearerMain && !nearerRoad || d > s.radius {
			continue
		}
		c := candidate{seg: pc.seg, piece: pc.pt, proj: pc.proj, dist: d, main: main}
		if c.fwd, c.bwd = s.directions(pc); !c.fwd && !c.bwd {
			continue
		}
		if s.bearing != nil {
			c.proj = s.inset(pc.proj, pc.aLon, pc.aLat, pc.bLon, pc.bLat)
		}
		if nearer {
			s.best = c
		}
		if nearerMain {
			s.main = c
		}
		if nearerRoad {
			s.road = c
		}
	}
}

// directions says in which directions a vehicle at a point of piece pc
// may travel: those the profile allows, open under the state and, when a
// bearing is asked for, heading within its tolerance.
func (s *search) directions(pc piece) (fwd, bwd bool) {
	g := s.f.g
	fwd = s.open(g.ArcOf[graph.SegRef(pc.seg, false)])
	bwd = s.open(g.ArcOf[graph.SegRef(pc.seg, true)])
	if s.bearing != nil && (fwd || bwd) {
		h, ok := pieceBearing(s.k, pc.aLon, pc.aLat, pc.bLon, pc.bLat)
		fwd = fwd && ok && s.bearing.admits(h)
		bwd = bwd && ok && s.bearing.admits(h+180)
	}
	return fwd, bwd
}

// open reports whether arc a exists and is open under the search's state.
func (s *search) open(a uint32) bool {
	return a != graph.NoArc && (s.st == nil || s.st.ArcTime(s.f.g, a) != graph.NoWay)
}

// boxDist2 is the square of the distance from the point to node c's box
// in the plane of geo.Project, in units of 1e-7 degrees of latitude: the
// box's own unit, so that nothing is divided or rooted per box.
func (s *search) boxDist2(c uint32) float64 {
	b := s.f.ix.boxes[4*c : 4*c+4 : 4*c+4]
	dx := max(0, float64(b[0])-s.x, s.x-float64(b[2])) * s.k
	dy := max(0, float64(b[1])-s.y, s.y-float64(b[3]))
	return dx*dx + dy*dy
}

// size is the half-perimeter of node c's box, in boxDist2's plane.
func (s *search) size(c uint32) float64 {
	b := s.f.ix.boxes[4*c : 4*c+4 : 4*c+4]
	return float64(b[2]-b[0])*s.k + float64(b[3]-b[1])
}

// result turns a candidate into its position along the segment, measured
// with the distances the compiler summed into the segment's length, from
// whichever end of the segment is nearer the piece.
func (f *Finder) result(c candidate) Result {
	net := f.g.Net
	begin, end := net.Points(c.seg)
	total := float64(net.SegLength[c.seg])
	frac := 0.0
	if c.piece-begin < end-1-c.piece {
		before := 0.0
		for i := begin; i < c.piece; i++ {
			before += pieceLength(net, i)
		}
		frac = before + pieceLength(net, c.piece)*c.proj.T
		frac = frac / max(total, frac)
	} else {
		after := 0.0
		for i := c.piece + 1; i+1 < end; i++ {
			after += pieceLength(net, i)
		}
		after += pieceLength(net, c.piece) * (1 - c.proj.T)
		frac = 1 - after/max(total, after)
	}
	if math.IsNaN(frac) {
		frac = 0 // a segment of no length
	}
	return Result{Seg: c.seg, Frac: frac, Lon: c.proj.Lon, Lat: c.proj.Lat, Dist: c.proj.Dist,
		NoForward: !c.fwd && f.g.WF[c.seg] != graph.NoWay, NoBackward: !c.bwd && f.g.WB[c.seg] != graph.NoWay, Main: c.main}
}

// pieceLength is the great-circle length of the piece from shape point i.
func pieceLength(net *graph.Network, i uint32) float64 {
	aLon, aLat := net.Point(i)
	bLon, bLat := net.Point(i + 1)
	return geo.Distance(aLon, aLat, bLon, bLat)
}

// children are the children of one index node to visit, nearest first.
type children struct {
	list [Fanout]struct {
		d  float64
		id uint32
	}
	n int
}

// add puts child id at key d in its place (an insertion sort: at most
// Fanout children).
func (k *children) add(d float64, id uint32) {
	i := k.n
	for i > 0 && k.list[i-1].d > d {
		k.list[i] = k.list[i-1]
		i--
	}
	k.list[i].d, k.list[i].id = d, id
	k.n++
}

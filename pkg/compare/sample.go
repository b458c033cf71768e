package compare

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
)

// sample is one profile's points: drawn along the old release's roads,
// kept when present in the new one.
type sample struct {
	profile string
	kept    []route.Point
	moves   []snapMove // one per drawn point, kept or not
}

// snapMove is how far a drawn point's snap moved from the old release to
// the new: +Inf when the new release cannot snap it at all.
type snapMove struct {
	at    route.Point // the drawn point (on an old road)
	to    route.Point // its snap in the new release, when there is one
	moved float64     // metres
}

// roadSampler draws points uniformly by length along the segments a
// profile may use in its largest strongly connected component.
type roadSampler struct {
	net  *graph.Network
	segs []uint32  // candidate segments
	cum  []float64 // cumulative length up to and including segs[i]
}

func newRoadSampler(g *graph.Graph) *roadSampler {
	s := &roadSampler{net: g.Net}
	total := 0.0
	for seg := range uint32(g.Net.NumSegments()) {
		if !g.Usable(seg) || g.Big[seg] == 0 || g.Net.SegLength[seg] <= 0 {
			continue
		}
		total += float64(g.Net.SegLength[seg])
		s.segs = append(s.segs, seg)
		s.cum = append(s.cum, total)
	}
	return s
}

// draw returns a random point on a road, false when there is none.
func (s *roadSampler) draw(rng *rand.Rand) (route.Point, bool) {
	if len(s.segs) == 0 {
		return route.Point{}, false
	}
	d := rng.Float64() * s.cum[len(s.cum)-1]
	i, _ := slices.BinarySearch(s.cum, d)
	i = min(i, len(s.segs)-1)
	f := rng.Float64()
	return route.AppendPart(nil, s.net, s.segs[i], f, f)[0], true
}

// drawSample draws points for one profile until want are kept or
// maxDraws have been drawn (a new release that lost most roads must not
// loop for ever). A point is kept when the new router snaps it within
// presenceM metres of where the old one does.
func drawSample(profile string, oldR, newR *route.Router, rng *rand.Rand, want int, presenceM float64) sample {
	s := sample{profile: profile}
	rs := newRoadSampler(oldR.Graph())
	maxDraws := 4*want + 100
	for len(s.kept) < want && len(s.moves) < maxDraws {
		p, ok := rs.draw(rng)
		if !ok {
			break
		}
		m := snapMove{at: p, moved: math.Inf(1)}
		// The move is measured from where the old release places the
		// point, not from the point itself: both apply the same snapping
		// rule, which may prefer a main road a little farther than the
		// road the point was drawn on (docs/snapping.md).
		from := p
		if res, err := oldR.Snap([]route.Point{p}); err == nil {
			from = route.Point{res[0].Lon, res[0].Lat}
		}
		if res, err := newR.Snap([]route.Point{p}); err == nil {
			m.to = route.Point{res[0].Lon, res[0].Lat}
			m.moved = geo.Distance(from[0], from[1], m.to[0], m.to[1])
		}
		s.moves = append(s.moves, m)
		if m.moved <= presenceM {
			s.kept = append(s.kept, p)
		}
	}
	return s
}

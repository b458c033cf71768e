package resolve

import (
	"fmt"
	"math"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/roadops"
	"github.com/mapsco/maps/pkg/snap"
)

// lineStep is how far apart a line is sampled, and lineReach how far from
// a road a sample may be to land on it, in metres; a segment is the line's
// when its samples cover at least lineCover of its length (or it holds two
// samples, for segments shorter than a step).
const (
	lineStep  = 5.0
	lineReach = 20.0
	lineCover = 0.5
)

// partReach is how far from its way a part's end point may be, in metres.
const partReach = 50.0

// wayIndex lists the segments of every way the operations name, in one
// pass over the network: segments are drawn along their way, so the list
// is then put in the way's order (segments chain end to start).
func wayIndex(net *graph.Network, ops []roadops.Operation) map[int64][]uint32 {
	want := map[int64][]uint32{}
	for _, op := range ops {
		if op.Way != 0 {
			want[op.Way] = nil
		}
	}
	if len(want) == 0 || net.SegWay == nil {
		return want
	}
	for s, w := range net.SegWay {
		if segs, ok := want[w]; ok {
			want[w] = append(segs, uint32(s))
		}
	}
	for w, segs := range want {
		if len(segs) > 0 {
			want[w] = chain(net, segs)
		}
	}
	return want
}

// chain orders a way's segments from its first node to its last.
func chain(net *graph.Network, segs []uint32) []uint32 {
	next := map[uint32]uint32{} // from node → segment
	ends := map[uint32]bool{}
	for _, s := range segs {
		next[net.SegFrom[s]] = s
		ends[net.SegTo[s]] = true
	}
	start := segs[0]
	for _, s := range segs {
		if !ends[net.SegFrom[s]] {
			start = s
			break
		}
	}
	out := make([]uint32, 0, len(segs))
	seen := map[uint32]bool{}
	for s, ok := start, true; ok && !seen[s]; s, ok = next[net.SegTo[s]] {
		out = append(out, s)
		seen[s] = true
	}
	for _, s := range segs { // a way that branches or repeats: keep the rest too
		if !seen[s] {
			out = append(out, s)
		}
	}
	return out
}

// place finds the pieces op names on g's roads, with a description.
func place(net *graph.Network, ways map[int64][]uint32, g *graph.Graph, f *snap.Finder, op roadops.Operation) ([]piece, string) {
	switch {
	case op.Way != 0:
		return placeWay(net, ways[op.Way], g, op)
	case len(op.Line) >= 2:
		return placeLine(net, g, f, op)
	case len(op.Polygon) > 0:
		return placePolygon(net, g, op)
	}
	return nil, "the operation names no way, line or polygon"
}

// placeWay is the way's segments the profile may use, or its part between
// PartFrom and PartTo (the segments from the one nearest PartFrom to the
// one nearest PartTo along the way).
func placeWay(net *graph.Network, segs []uint32, g *graph.Graph, op roadops.Operation) ([]piece, string) {
	if len(segs) == 0 {
		return nil, fmt.Sprintf("way %d is not in this release", op.Way)
	}
	lo, hi, detail := wayPart(net, segs, op)
	if detail != "" {
		return nil, detail
	}
	fwd, bwd := directions(op.Direction, true)
	var out []piece
	for _, s := range segs[lo : hi+1] {
		if g.Usable(s) {
			out = append(out, piece{seg: s, fwd: fwd, backward: bwd})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("way %d: no segment the profile may use", op.Way)
	}
	return out, describe("way", op.Way, len(out))
}

// wayPart is the range segs[lo:hi+1] of the way's segments op names: all
// of them, or those from the one nearest op.From to the one nearest op.To;
// or why there is none.
func wayPart(net *graph.Network, segs []uint32, op roadops.Operation) (lo, hi int, detail string) {
	lo, hi = 0, len(segs)-1
	if op.From != nil && op.To != nil {
		i, di := nearestSegment(net, segs, *op.From)
		j, dj := nearestSegment(net, segs, *op.To)
		if di > partReach || dj > partReach {
			return 0, 0, fmt.Sprintf("way %d: the part's ends are %.0f m and %.0f m from it (at most %.0f)", op.Way, di, dj, partReach)
		}
		lo, hi = min(i, j), max(i, j)
	}
	return lo, hi, ""
}

// wayShape is the shape of the part of the way op names (every segment,
// whichever profile may use it), [lon, lat] in the way's order: segments
// are drawn along their way and chained by wayIndex.
func wayShape(net *graph.Network, segs []uint32, op roadops.Operation) [][2]float64 {
	lo, hi, detail := wayPart(net, segs, op)
	if detail != "" {
		return nil
	}
	var shape [][2]float64
	for _, s := range segs[lo : hi+1] {
		begin, end := net.Points(s)
		for i := begin; i < end; i++ {
			x, y := net.Point(i)
			if n := len(shape); n > 0 && shape[n-1] == [2]float64{x, y} {
				continue // the joint of two segments
			}
			shape = append(shape, [2]float64{x, y})
		}
	}
	return shape
}

// nearestSegment is the index in segs of the segment whose shape passes
// nearest p, and that distance in metres.
func nearestSegment(net *graph.Network, segs []uint32, p [2]float64) (int, float64) {
	best, bestD := 0, math.Inf(1)
	for i, s := range segs {
		if d := segmentDistance(net, s, p); d < bestD {
			best, bestD = i, d
		}
	}
	return best, bestD
}

// segmentDistance is the distance in metres from p to segment s's shape.
func segmentDistance(net *graph.Network, s uint32, p [2]float64) float64 {
	begin, end := net.Points(s)
	best := math.Inf(1)
	k := geo.LonScale(p[1])
	for i := begin; i+1 < end; i++ {
		ax, ay := net.Point(i)
		bx, by := net.Point(i + 1)
		best = min(best, geo.Project(p[0], p[1], k, ax, ay, bx, by).Dist)
	}
	return best
}

// placeLine matches op.Line onto g's roads: it is sampled every lineStep
// metres, each sample placed on the nearest road of the profile within
// lineReach, and a segment is the line's where its samples cover enough of
// it. Forward is the line's drawing direction.
func placeLine(net *graph.Network, g *graph.Graph, f *snap.Finder, op roadops.Operation) ([]piece, string) {
	type seen struct {
		samples int
		along   int // samples whose line direction goes with the segment's
	}
	hits := map[uint32]*seen{}
	var order []uint32
	samples(op.Line, func(p, next [2]float64) {
		s, err := f.Nearest(p[0], p[1], snap.Options{Radius: lineReach}, nil)
		if err != nil || s.Dist > lineReach {
			return
		}
		h := hits[s.Seg]
		if h == nil {
			h = &seen{}
			hits[s.Seg] = h
			order = append(order, s.Seg)
		}
		h.samples++
		if goesWith(net, s.Seg, p, next) {
			h.along++
		}
	})
	var out []piece
	for _, s := range order {
		h := hits[s]
		length := float64(net.SegLength[s])
		short := length < 2*lineStep && h.samples >= 2
		if float64(h.samples)*lineStep < lineCover*length && !short {
			continue // a road the line only crosses or touches
		}
		fwd, bwd := directions(op.Direction, 2*h.along >= h.samples)
		out = append(out, piece{seg: s, fwd: fwd, backward: bwd})
	}
	if len(out) == 0 {
		return nil, fmt.Sprintf("the line matches no road of the profile within %.0f m", lineReach)
	}
	return out, fmt.Sprintf("line: %d segments", len(out))
}

// samples calls fn at every lineStep metres along line, with a point a
// little further on (for the direction).
func samples(line [][2]float64, fn func(p, next [2]float64)) {
	for i := 0; i+1 < len(line); i++ {
		a, b := line[i], line[i+1]
		length := geo.Distance(a[0], a[1], b[0], b[1])
		n := max(1, int(length/lineStep))
		for k := range n {
			t := float64(k) / float64(n)
			p := [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])}
			fn(p, b)
		}
	}
	fn(line[len(line)-1], line[len(line)-1])
}

// goesWith reports whether heading from p to next goes with segment s's
// drawing direction at fraction frac.
func goesWith(net *graph.Network, s uint32, p, next [2]float64) bool {
	begin, end := net.Points(s)
	ax, ay := net.Point(begin)
	bx, by := net.Point(end - 1)
	k := geo.LonScale(p[1])
	return (bx-ax)*k*(next[0]-p[0])*k+(by-ay)*(next[1]-p[1]) >= 0
}

// placePolygon is every segment of the profile with a shape point inside
// the polygon (its first ring the outside, the others holes), both ways.
func placePolygon(net *graph.Network, g *graph.Graph, op roadops.Operation) ([]piece, string) {
	minX, minY, maxX, maxY := bounds(op.Polygon[0])
	var out []piece
	for s := range uint32(net.NumSegments()) {
		if !g.Usable(s) {
			continue
		}
		begin, end := net.Points(s)
		for i := begin; i < end; i++ {
			x, y := net.Point(i)
			if x < minX || x > maxX || y < minY || y > maxY || !inPolygon(op.Polygon, x, y) {
				continue
			}
			out = append(out, piece{seg: s, fwd: true, backward: true})
			break
		}
	}
	if len(out) == 0 {
		return nil, "no road of the profile inside the polygon"
	}
	return out, fmt.Sprintf("polygon: %d segments", len(out))
}

func bounds(ring [][2]float64) (minX, minY, maxX, maxY float64) {
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range ring {
		minX, minY, maxX, maxY = min(minX, p[0]), min(minY, p[1]), max(maxX, p[0]), max(maxY, p[1])
	}
	return
}

// inPolygon is the even-odd rule over every ring: inside the outer ring
// and outside each hole.
func inPolygon(rings [][][2]float64, x, y float64) bool {
	in := false
	for _, ring := range rings {
		for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
			a, b := ring[i], ring[j]
			if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
				in = !in
			}
		}
	}
	return in
}

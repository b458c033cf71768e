package graph

import (
	"math"
	"sort"
)

// A junction's shape is drawn by mappers a few metres at a time: the first
// piece of a road off a junction often bends to meet the other road's
// centre line, so its heading says more about the drawing than about where
// the road goes. A driver reads the road some metres on. PerceivedHeading
// reads it as OSRM's guidance does (its coordinate extractor, read, not
// copied): a first piece long enough is the road; a road straight over
// its first few tens of metres goes towards their end; a road that bends
// gently goes along the line fitted through them; a road that only steps
// aside over its first metres goes as it runs after; otherwise it goes
// towards the point 10 m along. Guidance decides on these headings; the
// turn costs of routing and the bearings a step reports stay on the first
// piece (Heading).

// Lengths of the perceived heading, in metres: a lane's assumed width, the
// look-ahead without lanes, and the far look-ahead.
const (
	laneWidthM   = 3.25
	lookaheadM   = 10
	farLookahead = 40
)

// perceivedLanes is how many lanes' width a road of class takes at a
// junction: wider roads are drawn farther from their junction's centre
// (OSRM's offset correction, of an assumed two lanes: 2.5 times as many
// for a motorway, a trunk road and their ramps, 1.5 for a primary road).
func perceivedLanes(class string) float64 {
	switch class {
	case "motorway", "motorway_link", "trunk", "trunk_link":
		return 2.5 * 2
	case "primary":
		return 1.5 * 2
	}
	return 2
}

// lowPriority reports whether a class is no road for a car's guidance
// (OSRM's low-priority classes: all but the roads of car.lua's road_types).
func lowPriority(class string) bool {
	switch class {
	case "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link", "secondary",
		"secondary_link", "tertiary", "tertiary_link", "unclassified", "residential", "living_street":
		return false
	}
	return true
}

// PerceivedHeading is the direction, in degrees counter-clockwise from
// east, in which a driver sees the road go on from the start of segment
// segRef: read along it and on through the nodes where the profile's road
// only goes on (a path crossing it, a change of way), as far as OSRM
// reads a road, whose graph has no node there.
func (g *Graph) PerceivedHeading(segRef uint32) float64 {
	n := g.Net
	s, _ := SplitSegRef(segRef)
	var xs, ys, along [32]float64
	m, dist := 1, 0.0
	lanes := perceivedLanes(n.Class(s))
	reach := farLookahead + lanes*laneWidthM
	// Points in metres east and north of the node the road is read from.
	// OSRM keeps coordinates to a millionth of a degree (about 10 cm):
	// read them so, for its borderline cases to fall our way too.
	micro := func(v int32) int32 { return int32(math.Round(float64(v)/10) * 10) }
	var x0, y0 int32
	var k float64
	for hops := 0; hops < 8 && m < len(xs) && dist < reach; hops++ {
		begin, end := n.Points(s)
		_, reversed := SplitSegRef(segRef)
		step, i := int64(1), int64(begin)
		if reversed {
			step, i = -1, int64(end)-1
		}
		if hops == 0 {
			x0, y0 = micro(n.GeomCoord[2*i]), micro(n.GeomCoord[2*i+1])
			k = math.Cos(float64(y0)/1e7*math.Pi/180) * 111195 / 1e7
		}
		for j := i + step; j >= int64(begin) && j < int64(end) && m < len(xs) && dist < reach; j += step {
			x, y := float64(micro(n.GeomCoord[2*j])-x0)*k, float64(micro(n.GeomCoord[2*j+1])-y0)*111195/1e7
			d := math.Hypot(x-xs[m-1], y-ys[m-1])
			if d == 0 {
				continue
			}
			if dist+d > reach { // trimmed to the look-ahead
				f := (reach - dist) / d
				x, y, d = xs[m-1]+f*(x-xs[m-1]), ys[m-1]+f*(y-ys[m-1]), reach-dist
			}
			dist += d
			xs[m], ys[m], along[m] = x, y, dist
			m++
		}
		next, ok := g.onlyOn(segRef)
		if !ok {
			break
		}
		segRef, s = next, next>>1
	}
	if lowPriority(n.Class(segRef >> 1)) {
		// Service roads, tracks and paths are drawn too roughly for more
		// than the point 10 m on.
		x, y := at(xs[:m], ys[:m], along[:m], lookaheadM)
		return math.Atan2(y, x) * 180 / math.Pi
	}
	return perceived(xs[:m], ys[:m], along[:m], lanes)
}

// onlyOn returns the segment reference the road goes on by beyond the end
// of segRef, when the profile has no other road at that node (its own
// ways on and the one-way roads into it): ok is false at a junction, a
// dead end, or where the road would turn back onto itself.
func (g *Graph) onlyOn(segRef uint32) (next uint32, ok bool) {
	s, reversed := SplitSegRef(segRef)
	u := g.Net.SegTo[s]
	if reversed {
		u = g.Net.SegFrom[s]
	}
	found := false
	begin, end := g.Fwd.Out(u)
	for a := begin; a < end; a++ {
		r := g.ArcSegRef(a)
		if r>>1 == s {
			continue
		}
		if found && r>>1 != next>>1 {
			return 0, false
		}
		next, found = r, true
	}
	i := sort.Search(len(g.entries), func(i int) bool { return g.entries[i]>>32 >= uint64(u) })
	for ; i < len(g.entries) && uint32(g.entries[i]>>32) == u; i++ {
		r := uint32(g.entries[i])
		if r>>1 == s {
			continue
		}
		if found && r>>1 != next>>1 {
			return 0, false
		}
		next, found = r, true
	}
	return next, found && g.Net.SegFrom[next>>1] != g.Net.SegTo[next>>1]
}

// perceived is the heading from the first point (the node) of a road drawn
// through points xs, ys (metres, along[i] from the node along the road).
func perceived(xs, ys, along []float64, lanes float64) float64 {
	last := len(xs) - 1
	if last == 0 {
		return 0
	}
	towards := func(x, y float64) float64 { return math.Atan2(y, x) * 180 / math.Pi }
	near := lanes*laneWidthM + lookaheadM
	if last == 1 || along[1] > near {
		return towards(xs[1], ys[1]) // a straight piece, or one long enough to be the road
	}
	if offLine(xs, ys, 0, last, xs[last], ys[last]) < 0.5*laneWidthM {
		return towards(xs[last], ys[last]) // straight as far as it matters
	}
	straight := 1
	for straight < last && offLine(xs, ys, 0, straight+1, xs[straight+1], ys[straight+1]) < 0.25*laneWidthM {
		straight++
	}
	if along[straight] >= near {
		return towards(xs[1], ys[1]) // sets off straight for long enough
	}
	if dx, dy, ok := fitted(xs, ys, along); ok {
		return towards(dx, dy)
	}
	if k, ok := offset(xs, ys, along, straight, lanes); ok {
		return towards(xs[k+1]-xs[k], ys[k+1]-ys[k])
	}
	x, y := at(xs, ys, along, lookaheadM)
	return towards(x, y)
}

// offset reports whether the road only steps aside over its first metres
// (no more than half its width and a lane: a way drawn to meet the other
// road's centre line) and then runs straight, and from which point it
// does.
func offset(xs, ys, along []float64, straight int, lanes float64) (int, bool) {
	k, last := max(1, straight), len(xs)-1
	total := along[last]
	if k+1 > last || along[k]-0.5*lanes*laneWidthM >= laneWidthM || total < 0.4*farLookahead ||
		total-math.Max(along[straight], along[1]) < 0.1*total {
		return 0, false
	}
	// Up to the first piece of 30 m or more (OSRM stops there: a long
	// piece is the road's direction), else the end.
	end := k + 1
	for end < last && along[end]-along[end-1] < 30 {
		end++
	}
	for i := k + 1; i < end; i++ {
		if offSegment(xs[i], ys[i], xs[k], ys[k], xs[end], ys[end]) >= 0.5*laneWidthM {
			return 0, false
		}
	}
	return k, true
}

// offLine is the largest distance of points from..to-1 from the line
// through the first point and (x, y).
func offLine(xs, ys []float64, from, to int, x, y float64) float64 {
	worst := 0.0
	for i := from; i < to; i++ {
		worst = math.Max(worst, offSegment(xs[i], ys[i], xs[0], ys[0], x, y))
	}
	return worst
}

// offSegment is the distance of point (px, py) from the segment (ax, ay) to
// (bx, by): from its nearest point on the segment, an end where it lies
// beyond one (OSRM measures deviations so).
func offSegment(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l2 := dx*dx + dy*dy; l2 > 0 {
		t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
	}
	return math.Hypot(px-ax-t*dx, py-ay-t*dy)
}

// fitted is the direction, away from the node, of the least-squares line
// through the road's first 40 m sampled every metre (so that each piece
// weighs as long as it is), when every point lies within about a third of
// a lane of it: a road bending gently goes along it.
func fitted(xs, ys, along []float64) (dx, dy float64, ok bool) {
	var mx, my, sxx, syy, sxy, k float64
	i := 1
	for d := 0.0; d <= math.Min(farLookahead, along[len(along)-1]); d++ {
		for i < len(xs)-1 && along[i] < d {
			i++
		}
		x, y := xs[0], ys[0]
		if d > 0 {
			f := (d - along[i-1]) / (along[i] - along[i-1])
			x, y = xs[i-1]+f*(xs[i]-xs[i-1]), ys[i-1]+f*(ys[i]-ys[i-1])
		}
		k++
		// Running means and co-moments (Welford), to fit in one pass.
		ex, ey := x-mx, y-my
		mx, my = mx+ex/k, my+ey/k
		sxx += ex * (x - mx)
		syy += ey * (y - my)
		sxy += ex * (y - my)
	}
	if k < 2 {
		return 0, 0, false
	}
	// The principal axis of the samples (total least squares: the road
	// may run in any direction).
	theta := 0.5 * math.Atan2(2*sxy, sxx-syy)
	dx, dy = math.Cos(theta), math.Sin(theta)
	for i := range xs {
		if math.Abs((xs[i]-mx)*dy-(ys[i]-my)*dx) >= 0.35*laneWidthM {
			return 0, 0, false
		}
	}
	last := len(xs) - 1
	if (xs[last]-xs[0])*dx+(ys[last]-ys[0])*dy < 0 {
		dx, dy = -dx, -dy
	}
	return dx, dy, true
}

// at is the point the given distance along the points, or the last.
func at(xs, ys, along []float64, d float64) (float64, float64) {
	for i := 1; i < len(xs); i++ {
		if along[i] >= d {
			f := (d - along[i-1]) / (along[i] - along[i-1])
			return xs[i-1] + f*(xs[i]-xs[i-1]), ys[i-1] + f*(ys[i]-ys[i-1])
		}
	}
	return xs[len(xs)-1], ys[len(ys)-1]
}

// PerceivedTurnAngle is TurnAngle on perceived headings: the change of
// direction a driver sees from arriving on in to leaving on out, in
// (-180, 180], positive to the left. The road arrived on is read back from
// the junction along it.
func (g *Graph) PerceivedTurnAngle(in, out uint32) float64 {
	d := g.PerceivedHeading(out) - g.PerceivedHeading(in^1) + 180
	for d <= -180 {
		d += 360
	}
	for d > 180 {
		d -= 360
	}
	return d
}

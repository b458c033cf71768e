package graph

import "math"

// Heading returns the direction of travel, in degrees counter-clockwise from
// east, on the first (leaving=true) or last piece of a segment travelled in
// the direction segRef gives. Pieces of zero length are skipped; a segment
// with no length at all has heading 0.
func (n *Network) Heading(segRef uint32, leaving bool) float64 {
	s, reversed := SplitSegRef(segRef)
	begin, end := n.Points(s)
	// Walk from the node the heading is measured at, into the segment.
	fromStart := leaving != reversed
	step, i := int64(1), int64(begin)
	if !fromStart {
		step, i = -1, int64(end)-1
	}
	x0, y0 := n.GeomCoord[2*i], n.GeomCoord[2*i+1]
	for j := i + step; j >= int64(begin) && j < int64(end); j += step {
		x1, y1 := n.GeomCoord[2*j], n.GeomCoord[2*j+1]
		if x1 == x0 && y1 == y0 {
			continue
		}
		k := math.Cos(float64(y0) / 1e7 * math.Pi / 180)
		dx, dy := float64(x1-x0)*k, float64(y1-y0)
		h := math.Atan2(dy, dx) * 180 / math.Pi
		if !leaving { // we measured pointing back into the segment
			h += 180
		}
		return h
	}
	return 0
}

// TurnAngle is the change of heading from arriving on in to leaving on out,
// in (-180, 180], positive to the left.
func (n *Network) TurnAngle(in, out uint32) float64 {
	d := n.Heading(out, true) - n.Heading(in, false)
	for d <= -180 {
		d += 360
	}
	for d > 180 {
		d -= 360
	}
	return d
}

package main

// endHeadings are the headings a route leaves its first point and reaches its last with. An end placed a few
// centimetres from a node has a first piece too short for polyline6's 0.1 m rounding, so when the piece from
// the end to the first node is shorter than 5 m the heading is that of the whole OSM segment the end lies on
// (the segment between that node and the neighbour the end lies towards).
func (ix *index) endHeadings(pts [][2]float64) (leave, reach float64, ok bool) {
	pts = dedupe(pts)
	if len(pts) < 2 || lengthOf(pts) < 1 {
		return 0, 0, false
	}
	n := len(pts)
	leave = ix.pieceHeading(pts[0], pts[1], false)
	reach = ix.pieceHeading(pts[n-1], pts[n-2], true)
	return leave, reach, true
}

// pieceHeading is the heading of the piece between an end and the next point of the route towards it
// (near), travelled from end to near, or from near to end when arriving.
func (ix *index) pieceHeading(end, near [2]float64, arriving bool) float64 {
	from, to := end, near
	if haversine(end, near) < 5 {
		if id, ok := ix.byPos[key6(near[0], near[1])]; ok {
			for _, l := range ix.links[id] {
				// The end lies between the node and this neighbour: within 0.3 m of the segment and nearer the
				// neighbour than the node is (an end just past the node lies on the next segment, not this one).
				if p := ix.pos[l.to]; distToSegment(end, p, near) <= 0.3 && haversine(end, p) < haversine(near, p) {
					from, to = p, near
					break
				}
			}
		}
	}
	if arriving {
		return heading(to, from)
	}
	return heading(from, to)
}

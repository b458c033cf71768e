package route

import "github.com/mapsco/maps/pkg/snap"

// footprint is where a leg goes on the ground: each segment it travels,
// with the metres it travels on it (the first and last only in part, so
// that the metres add up to the leg's distance). Two routes between the same
// points overlap where their footprints do, whichever direction or arcs
// (duplicates of via-way restrictions included) they take there.
type footprint struct {
	segs   []uint32
	metres []float32
	total  float64
}

// footprintOf fills fp with leg's footprint from a to b, reusing its memory.
func (r *Router) footprintOf(fp *footprint, leg Leg, a, b snap.Result) {
	fp.segs, fp.metres, fp.total = fp.segs[:0], fp.metres[:0], leg.DistanceM
	add := func(s uint32, m float64) {
		fp.segs, fp.metres = append(fp.segs, s), append(fp.metres, float32(m))
	}
	if leg.Direct {
		add(a.Seg, leg.DistanceM)
		return
	}
	arcs := leg.Arcs
	add(a.Seg, r.partLength(a, arcs[0], true))
	for _, arc := range arcs[1 : len(arcs)-1] {
		s := r.segOf(arc)
		add(s, float64(r.g.Net.SegLength[s]))
	}
	add(b.Seg, r.partLength(b, arcs[len(arcs)-1], false))
}

// overlap measures footprints against one held per segment.
type overlap struct{ held segMap[float32] }

// hold makes fp the footprint later ones are measured against, and reports
// whether it is simple: no segment travelled twice (a path that turns back
// on itself, or leaves its start segment and comes back to it).
func (o *overlap) hold(fp *footprint, numSegments int) bool {
	o.held.begin(numSegments)
	simple := true
	for i, s := range fp.segs {
		m, again := o.held.get(s)
		simple = simple && !again
		o.held.set(s, m+fp.metres[i])
	}
	return simple
}

// shared returns the metres fp travels on the held footprint's segments,
// counting on each segment no more than the held one travels there.
func (o *overlap) shared(fp *footprint) float64 {
	var m float64
	for i, s := range fp.segs {
		if h, ok := o.held.get(s); ok {
			m += float64(min(fp.metres[i], h))
		}
	}
	return m
}

// Share is the fraction of the shorter of two-waypoint routes a and b that
// the other travels too (what MaxShare bounds between alternatives).
func (r *Router) Share(a, b *Route) float64 {
	var fa, fb footprint
	r.footprintOf(&fa, a.Legs[0], a.Snapped[0], a.Snapped[1])
	r.footprintOf(&fb, b.Legs[0], b.Snapped[0], b.Snapped[1])
	var o overlap
	o.hold(&fa, r.g.Net.NumSegments())
	shorter := min(fa.total, fb.total)
	if shorter <= 0 {
		return 1
	}
	return min(o.shared(&fb), shorter) / shorter
}

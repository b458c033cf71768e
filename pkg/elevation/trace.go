package elevation

import "math"

// A route's profile is assembled piece by piece, in travel order, as the
// same samples Profiler.Route would take over the route's whole line:
//
//	p.Begin(dem)
//	p.Line(partOfFirstSegment, st)        // sampled now
//	p.Stored(samples, seg, reverse, st)   // read from mapc's Samples
//	...
//	c := p.End()
//
// Line and Stored join each piece to the end of the previous one (a gap
// becomes one more piece). Consecutive bridge or tunnel pieces form one run,
// anchored by the ground heights at its ends, exactly as in Route.

// Begin starts a route's profile, its heights read from s.
func (p *Profiler) Begin(s Sampler) { p.begin(s) }

// Line appends the samples of a line pts of structure st, sampled now.
func (p *Profiler) Line(pts [][2]float64, st Structure) {
	if len(pts) == 0 {
		return
	}
	if p.has && pts[0] != p.last {
		p.appendPieces([][2]float64{p.last, pts[0]}, nil, st)
	}
	p.appendPieces(pts, nil, st)
	p.last, p.has = pts[len(pts)-1], true
}

// Stored appends segment seg's samples from m, read from its first point to
// its last, or from its last to its first when reverse. from and to are the
// points where this traversal starts and ends (the segment's first and last
// points, swapped when reverse). It reports false, appending nothing, when m
// has no samples for seg; the caller then passes the segment's shape to Line.
func (p *Profiler) Stored(m *Samples, seg uint32, reverse bool, st Structure, from, to [2]float64) bool {
	off, h, ok := m.segment(seg)
	if !ok {
		return false
	}
	if p.has && from != p.last {
		p.appendPieces([][2]float64{p.last, from}, nil, st)
	}
	k := len(off) - 1 // samples before the last point, which starts whatever follows
	length := float64(off[k])
	for j := range k {
		i, d := j, float64(off[j])
		if reverse {
			i = k - j
			d = length - float64(off[i])
		}
		v := float64(h[i])
		if st != Ground && !(j == 0 && p.prev == Ground) {
			v = math.NaN() // inside a run of structure
		}
		p.d = append(p.d, p.dist+d)
		p.h = append(p.h, v)
	}
	if k > 0 {
		p.dist += length
		p.prev = st
	}
	p.last, p.has = to, true
	return true
}

// End adds the route's last point, always a ground anchor, and returns the
// Climb of everything appended since Begin.
func (p *Profiler) End() Climb {
	defer p.seq.end()
	if p.has {
		p.add(p.dist, p.last[0], p.last[1], true)
	}
	p.src, p.has = nil, false
	return p.climb()
}

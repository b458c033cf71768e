package elevation

import "math"

// Climb is the terrain along a line: a road edge or a whole route.
type Climb struct {
	AscentM  float64 // metres climbed, going from the first point to the last
	DescentM float64 // metres descended, same direction
	// MaxGrade is the steepest absolute grade (rise over run, 0.09 = 9 %)
	// over any GradeWindowM stretch of the smoothed profile, or the mean
	// grade of a line shorter than that.
	MaxGrade float64
	StartM   float64 // height at the first point
	EndM     float64 // height at the last point
	LengthM  float64 // length along the line
	// Covered is false when no sample of the line lies inside coverage; the
	// heights above are then zero.
	Covered bool
}

// GradeWindowM is the run over which MaxGrade is measured. Two samples 30 m
// apart differ by a metre or two of DSM noise alone (6 % of grade); over 100
// m that noise is a few percent of grade, while a real ramp of road (a
// hairpin's straight, a bridge approach) is still resolved.
const GradeWindowM = 100

// HysteresisM is the change of direction ascent and descent ignore: after a
// high (low) point of the smoothed profile, descent (ascent) counts only once
// the profile has dropped (risen) more than this. It removes the wiggles the
// smoothing leaves (a building, a hedge) at a small price: every turn from
// climbing to descending trims HysteresisM/2 from the ascent and from the
// descent (a 60 m hill counts 58.5 m up and down, before smoothing rounds its
// top). What is pending at the end of the line is counted, so AscentM -
// DescentM == EndM - StartM, and the filter gives the same totals, swapped,
// when the line is reversed (checked by a property test).
const HysteresisM = 3

// Profiler computes Climbs, reusing its buffers so that the graph compiler's
// millions of calls allocate nothing once the buffers have grown. The zero
// value is ready to use. A Profiler is not safe for concurrent use: give each
// goroutine its own.
type Profiler struct {
	d, h, s []float64
	line    profileLine // p.d with p.h, then with p.s, for climb's sweeps
	seq     seqReader   // reads a *DEM sample after sample (see sampleLine)

	// The line being sampled (see begin): where its heights come from, its
	// length so far and the structure of its last piece.
	src  Sampler
	dist float64
	prev Structure
	// last is the line's last point so far, when has; a route assembled
	// piece by piece (trace.go) joins each piece to it.
	last [2]float64
	has  bool
}

// Edge returns the Climb of the polyline pts (each [lon, lat]) with one
// structure for the whole line. A Bridge or Tunnel is interpolated between
// the ground heights at pts' first and last points; when a structure spans
// several edges, pass the whole run to Route instead, or use Between with the
// run's end heights, so no join inside a tunnel is read from the mountain.
func (p *Profiler) Edge(s Sampler, pts [][2]float64, st Structure) Climb {
	p.sampleLine(s, pts, nil, st)
	return p.climb()
}

// Route returns the Climb of a whole route: pts is the concatenation of its
// edges' geometries (repeated join points are fine) and structs[i] is the
// structure of segment pts[i]→pts[i+1] (len(pts)-1 values, or nil for all
// ground). Consecutive bridge or tunnel segments form one run, interpolated
// between the ground heights at its two ends. Since the smoothed profile keeps
// its end heights, AscentM - DescentM equals EndM - StartM up to rounding.
func (p *Profiler) Route(s Sampler, pts [][2]float64, structs []Structure) Climb {
	if structs != nil && len(structs) < len(pts)-1 {
		structs = nil // a malformed call must not panic the server; treat as ground
	}
	p.sampleLine(s, pts, structs, Ground)
	return p.climb()
}

// EdgeClimb is Profiler.Edge with a fresh Profiler, for occasional calls.
func EdgeClimb(s Sampler, pts [][2]float64, st Structure) Climb {
	var p Profiler
	return p.Edge(s, pts, st)
}

// RouteClimb is Profiler.Route with a fresh Profiler, for occasional calls.
func RouteClimb(s Sampler, pts [][2]float64, structs []Structure) Climb {
	var p Profiler
	return p.Route(s, pts, structs)
}

// Between returns the Climb of a bridge or tunnel whose end heights are
// known, for example a tunnel split into several edges whose portals the
// caller has already sampled: heights run linearly from startM to endM.
func Between(pts [][2]float64, startM, endM float64) Climb {
	var p Profiler
	p.sampleLine(constant{}, pts, nil, Tunnel)
	n := len(p.h)
	if n == 0 {
		return Climb{}
	}
	for i := range p.h {
		p.h[i] = math.NaN()
	}
	p.h[0], p.h[n-1] = startM, endM
	return p.climb()
}

// constant is a Sampler with no data, so sampling only lays out distances.
type constant struct{}

func (constant) At(float64, float64) (float64, bool) { return 0, false }

// climb turns the sampled profile in p.d, p.h into a Climb.
func (p *Profiler) climb() Climb {
	n := len(p.d)
	if n == 0 {
		return Climb{}
	}
	c := Climb{LengthM: p.d[n-1]}
	if !fillGaps(p.d, p.h) {
		return c
	}
	c.Covered = true
	c.StartM, c.EndM = p.h[0], p.h[n-1]
	p.line.set(p.d, p.h)
	p.s = smooth(p.s, &p.line)
	c.AscentM, c.DescentM = ascentDescent(p.s)
	p.line.set(p.d, p.s)
	c.MaxGrade = maxGrade(&p.line)
	return c
}

// ascentDescent sums the rises and falls of h through a backlash (play)
// filter of width HysteresisM: the output y stays within HysteresisM/2 of
// h, moving only when h pushes it. Every move of y is counted, and the gap
// left between y and the last height at the end is counted too.
func ascentDescent(h []float64) (up, down float64) {
	const half = HysteresisM / 2.0
	y := h[0]
	for _, v := range h[1:] {
		switch {
		case v-y > half:
			up += v - half - y
			y = v - half
		case y-v > half:
			down += y - (v + half)
			y = v + half
		}
	}
	if last := h[len(h)-1]; last > y {
		up += last - y
	} else {
		down += y - last
	}
	return up, down
}

// maxGrade returns the largest |rise|/run of the profile pl over the
// windows of GradeWindowM that start or end at a sample, reading heights
// between samples by linear interpolation; or the mean grade of a profile
// shorter than the window. Taking windows both ways makes the result the
// same in both directions.
func maxGrade(pl *profileLine) float64 {
	d, h := pl.d, pl.h
	n := len(d)
	total := d[n-1]
	if total <= 0 {
		return 0
	}
	if total <= GradeWindowM {
		return math.Abs(h[n-1]-h[0]) / total
	}
	// The steepest rise is found first and divided once; heights are never
	// NaN here (fillGaps ran), so plain comparisons replace math.Max.
	best := 0.0
	ahead, behind := 0, 0 // segments holding d[i]+GradeWindowM and d[i]-GradeWindowM
	for i := 0; i < n; i++ {
		if x := d[i] + GradeWindowM; x <= total {
			ahead = pl.segmentAt(x, ahead)
			if rise := math.Abs(pl.at(x, ahead) - h[i]); rise > best {
				best = rise
			}
		}
		if x := d[i] - GradeWindowM; x >= 0 {
			behind = pl.segmentAt(x, behind)
			if rise := math.Abs(h[i] - pl.at(x, behind)); rise > best {
				best = rise
			}
		}
	}
	return best / GradeWindowM
}

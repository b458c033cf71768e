package route

import "github.com/mapsco/maps/pkg/guidance"

// placeSteps sets each step's range in rt's geometry (Shape's points):
// a step runs from the point of its maneuver to the next step's, a leg's
// depart starts where the leg does and its arrive is the leg's last point.
// A maneuver's location is a junction node, which the geometry holds as
// one of its points, exactly (both are the stored fixed-point position).
func placeSteps(rt *Route, legs [][]guidance.Step) {
	shape := rt.Shape()
	ends := rt.legEnds()
	begin := 0
	for i, steps := range legs {
		at := begin
		for j := range steps {
			s := &steps[j]
			switch {
			case s.Maneuver == guidance.Depart:
				at = begin
			case s.Maneuver == guidance.Arrive:
				at = ends[i]
			default:
				at = find(shape, s.Location, at, ends[i])
			}
			s.GeometryBegin = at
			if j > 0 {
				steps[j-1].GeometryEnd = at
			}
		}
		steps[len(steps)-1].GeometryEnd = ends[i]
		begin = ends[i]
	}
}

// find returns the index of p among shape[from:to+1], or from when it is
// not there (which a maneuver's node never is).
func find(shape []Point, p Point, from, to int) int {
	for i := from; i <= to && i < len(shape); i++ {
		if shape[i] == p {
			return i
		}
	}
	return from
}

// legEnds returns the index in Shape of each leg's last point: the legs
// are drawn as Shape draws them, counting points as they are kept.
func (rt *Route) legEnds() []int {
	w := collector(nil)
	ends := make([]int, len(rt.Legs))
	for i, leg := range rt.Legs {
		w.leg(rt.g, rt.Snapped[i], rt.Snapped[i+1], leg)
		ends[i] = max(0, w.n-1)
	}
	if w.n == 1 { // a route of no length repeats its one point (Shape)
		ends[len(ends)-1] = 1
	}
	return ends
}

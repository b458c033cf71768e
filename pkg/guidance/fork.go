package guidance

import (
	"math"
	"sort"
)

// A fork, as OSRM's guidance finds one where no way on is obvious
// (findFork, read, not copied): two or three ways on fanning out about
// straight on (the straightest within 40 degrees, each next one within 40
// degrees of straight on or of its neighbour), set apart from every other
// road at the junction by 60 degrees, none of them obvious next to its
// neighbour by class or by going much straighter, and none a ramp unless
// all are. At a fork of a road and a driveway, track or path, the road is
// followed without a word and the lesser way is a slight turn.

// forkOf returns, when branch i is part of a fork at the junction, the side
// it keeps to ("left", "right", or "straight" for the middle of three) and
// whether it is said at all (not when it is the road beside a lesser way).
func (j *junctionView) forkOf(i int) (side string, said, ok bool) {
	fan := j.fan()
	if fan == nil {
		return "", false, false
	}
	pos := -1
	for k, b := range fan {
		if b == i {
			pos = k
		}
	}
	if pos < 0 {
		return "", false, false
	}
	if len(fan) == 3 && pos == 1 {
		return "straight", true, true
	}
	// fan runs from right to left.
	side, other := "right", fan[len(fan)-1]
	if pos == len(fan)-1 {
		side, other = "left", fan[0]
	}
	low, otherLow := lowPriority(j.branches[i].road.class), lowPriority(j.branches[other].road.class)
	return side, !otherLow || low, true
}

// fan returns the branches of a fork, from the rightmost to the leftmost,
// or nil when there is none.
func (j *junctionView) fan() []int {
	// The junction's roads by angle, from the road arrived on (straight
	// back, -180) round by the right to the left (+180).
	order := make([]int, len(j.branches))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return j.branches[order[a]].angle < j.branches[order[b]].angle })
	mid := 0
	for k, b := range order {
		if j.branches[b].dev < j.branches[order[mid]].dev {
			mid = k
		}
	}
	if j.branches[order[mid]].dev > narrowAngle {
		return nil
	}
	candidate := func(a, b branch) bool { // b goes on the fan beyond a
		return b.dev <= narrowAngle || angleApart(a.angle, b.angle) <= narrowAngle && a.dev <= groupAngle
	}
	right := mid
	for right > 0 && candidate(j.branches[order[right]], j.branches[order[right-1]]) {
		right--
	}
	left := mid
	for left < len(order)-1 && candidate(j.branches[order[left]], j.branches[order[left+1]]) {
		left++
	}
	if left == right || left-right >= 3 {
		return nil
	}
	// Set apart from the roads beside it (the road arrived on, at 180
	// degrees, closes the circle on both sides).
	beyondRight, beyondLeft := -180.0, 180.0
	if right > 0 {
		beyondRight = j.branches[order[right-1]].angle
	}
	if left < len(order)-1 {
		beyondLeft = j.branches[order[left+1]].angle
	}
	if angleApart(j.branches[order[right]].angle, beyondRight) < groupAngle ||
		angleApart(j.branches[order[left]].angle, beyondLeft) < groupAngle {
		return nil
	}
	fan := order[right : left+1]
	links := isLink(j.branches[fan[0]].road.class)
	for k, b := range fan {
		if isLink(j.branches[b].road.class) != links || !j.branches[b].entry {
			return nil
		}
		for _, c := range fan {
			if b != c && obviousByClass(j.via.class, j.branches[b].road.class, j.branches[c].road.class) {
				return nil
			}
		}
		if k > 0 && (j.obviousOfTwo(b, fan[k-1]) || j.obviousOfTwo(fan[k-1], b)) {
			return nil
		}
	}
	return fan
}

// obviousByClass reports whether a way of class cand is obvious next to
// one of class other by class alone, coming from a road of class via: it
// keeps via's class and other is far less important, or other is a
// driveway, track or path and neither via nor cand is.
func obviousByClass(via, cand, other string) bool {
	pc, po := osrmPriority(cand), osrmPriority(other)
	return 1.75*float64(pc) < float64(po) && via == cand ||
		!lowPriority(cand) && !lowPriority(via) && lowPriority(other)
}

// obviousOfTwo reports whether branch a is obvious next to branch b: by
// class, or by going straight on under the road's name, or by going much
// straighter (b bends over 1.4 times as far, and by over 25 degrees).
func (j *junctionView) obviousOfTwo(a, b int) bool {
	x, y := j.branches[a], j.branches[b]
	if obviousByClass(j.via.class, x.road.class, y.road.class) {
		return true
	}
	if obviousByClass(j.via.class, y.road.class, x.road.class) {
		return false
	}
	if j.via.name != "" && x.dev == 0 && !announced(j.via, x.road) {
		return true
	}
	return y.dev > slightRatio*x.dev && math.Abs(y.dev-x.dev) > fuzzyAngle
}

// endOfRoad reports whether the junction is a T where the road arrived on
// ends: one way on to the right and one to the left, each within 40
// degrees of a right angle and more than 80 degrees apart.
func (j *junctionView) endOfRoad() bool {
	if len(j.branches) != 2 {
		return false
	}
	r, l := j.branches[0], j.branches[1]
	if r.angle > l.angle {
		r, l = l, r
	}
	return math.Abs(r.angle+90) < narrowAngle && math.Abs(l.angle-90) < narrowAngle && angleApart(r.angle, l.angle) > 2*narrowAngle
}

package guidance

import (
	"math"
	"strings"
)

// The obvious way on from a junction is the one a driver follows without
// a word: where it keeps the road nothing is said, where it takes another
// name only the name is ("Continue onto"). It is found as OSRM's guidance
// finds it (findObviousTurn and its distinct-turn tests, read, not
// copied), so that our steps speak where OSRM's do: first the road that
// keeps its name and class, closest to straight on, then the way of the
// same class or higher closest to straight on, then any road closest to
// straight on, each only when no other way on is similar to it. Another
// way is similar unless it bends clearly more (over twice as far from
// straight on, and by more than 12.5 degrees), or is clearly lesser: a
// ramp off the road, a road of a lower group (a residential street, a
// driveway, a track off a primary) with another name, a road of the same
// group but lower class bending 1.4 times as far, or, from a road below
// secondary, anything bending clearly more. The CS-140 going on past a
// track, a service road or a dead-end lane is one road to a driver; two
// comparable branches at 10 and 20 degrees are a fork.

// Angles of OSRM's guidance, in degrees from straight on.
const (
	narrowAngle    = 40   // NARROW_TURN_ANGLE: a way on within it is about straight
	groupAngle     = 60   // GROUP_ANGLE: ways within it of each other go the same way
	fuzzyAngle     = 25   // FUZZY_ANGLE_DIFFERENCE
	straightAngle  = 20   // a direction within it is straight on (getTurnDirection)
	distinctRatio  = 2    // DISTINCTION_RATIO: bending this much more is another way
	slightRatio    = 1.4  // 0.7 * DISTINCTION_RATIO, asked of a lower class
	distinctMargin = 12.5 // half FUZZY_ANGLE_DIFFERENCE
)

// obvious returns the index, in j.branches, of the obvious way on, or -1.
func (j *junctionView) obvious() int {
	switch len(j.branches) {
	case 0:
		return -1
	case 1:
		return 0
	}
	via := j.via
	keepsName := func(b branch) bool {
		switch {
		case !b.entry, !via.named() && !lowPriority(via.class), !b.road.named() && !lowPriority(b.road.class),
			via.named() != b.road.named(), strictlyLess(b.road.class, via.class), linkTo(b.road.class, via.class):
			return false
		}
		return !announced(via, b.road)
	}
	if i := j.straightest(keepsName); i >= 0 && j.distinct(i) {
		return i
	}
	sameOrHigher := func(b branch) bool {
		return b.entry && !strictlyLess(b.road.class, via.class) && !linkTo(b.road.class, via.class)
	}
	classed := j.straightest(sameOrHigher)
	if classed >= 0 && j.distinct(classed) {
		return classed
	}
	any := j.straightest(func(b branch) bool { return b.entry })
	if any < 0 {
		return -1
	}
	nonSharp := 0
	for _, b := range j.branches {
		if b.dev <= 90 {
			nonSharp++
		}
	}
	b := j.branches[any]
	if any != classed && (b.dev <= groupAngle || b.dev <= 90 && nonSharp == 1) && !lowPriority(b.road.class) && j.distinct(any) {
		return any
	}
	if motorwayClass(b.road.class) && b.dev <= groupAngle && j.entries() == 1 {
		return any
	}
	return -1
}

// driveways returns, where a road arrives at a junction whose ways on are
// one road and driveways, tracks or paths, the index of that road (OSRM's
// driveway handler), or where they are all driveways, tracks or paths,
// the straightest; else -1.
func (j *junctionView) driveways() int {
	if lowPriority(j.via.class) {
		return -1
	}
	road := -1
	for i, b := range j.branches {
		if lowPriority(b.road.class) {
			continue
		}
		if road >= 0 {
			return -1
		}
		road = i
	}
	if len(j.branches) < 2 {
		return -1
	}
	if road < 0 {
		// A road that becomes a track or a path among others: the
		// straightest goes on (issue 33: none of them is a road to
		// choose).
		return j.straightest(func(b branch) bool { return b.entry })
	}
	return road
}

// straightest is the index of the branch closest to straight on among
// those keep accepts, or -1.
func (j *junctionView) straightest(keep func(branch) bool) int {
	best := -1
	for i, b := range j.branches {
		if keep(b) && (best < 0 || b.dev < j.branches[best].dev) {
			best = i
		}
	}
	return best
}

// distinct reports whether no other way on is similar to branch i.
func (j *junctionView) distinct(i int) bool {
	for k := range j.branches {
		if k == i {
			continue
		}
		if j.branches[i].dev < groupAngle && j.similarNarrow(i, k) || j.branches[i].dev >= groupAngle && j.similarWide(i, k) {
			return false
		}
	}
	return true
}

// similarNarrow reports whether branch k could be taken for branch i, a
// way on within groupAngle of straight.
func (j *junctionView) similarNarrow(i, k int) bool {
	c, o, via := j.branches[i], j.branches[k], j.via
	if !o.entry && c.dev < narrowAngle {
		return false // going about straight on, a road one cannot take is no other choice
	}
	if lowPriority(o.road.class) && !lowPriority(c.road.class) && !lowPriority(via.class) {
		// A driveway, track or path off a road is never taken for it
		// (issue 33), where OSRM's name rule lets an unnamed one be: it
		// reads an unnamed way off a named road as the same road.
		return false
	}
	distinct := o.dev > distinctRatio*c.dev && math.Abs(o.dev-c.dev) > distinctMargin
	slightly := o.dev > slightlyRatio(c.dev)
	candKeeps, otherRenames := !announced(via, c.road), announced(via, o.road)
	if (candKeeps || otherRenames) && distinct {
		return false
	}
	if j.crossing(k, distinct, slightly, candKeeps, otherRenames) {
		return false
	}
	if osrmPriority(via.class) > osrmPriority("secondary") && distinct {
		return false
	}
	pv, pc, po := osrmPriority(via.class), osrmPriority(c.road.class), osrmPriority(o.road.class)
	if pv == pc && candKeeps && slightly && (pc < po || pc > po+4) {
		return false
	}
	if linkTo(o.road.class, via.class) && linkTo(o.road.class, c.road.class) {
		return false
	}
	if pv == pc && osrmGroup(via.class) < osrmGroup(o.road.class) && announced(c.road, o.road) && otherRenames {
		return false
	}
	return !(pv == pc && isLink(o.road.class))
}

func slightlyRatio(dev float64) float64 { return slightRatio * dev }

// crossing reports whether branch k is a street crossing the junction (it
// goes on beyond it under its name, or almost straight through), which is
// not taken for the way on when it bends distinctly more, or slightly more
// at a crossing of four ways or more where ours keeps its name.
func (j *junctionView) crossing(k int, distinct, slightly, candKeeps, otherRenames bool) bool {
	if len(j.branches)+1 < 4 {
		return false
	}
	o := j.branches[k]
	// The way opposite branch k: the branch, or the road arrived on
	// (straight back, 180 degrees), whose angle is closest to k's turned
	// round.
	oppRoad, oppAngle := j.via, 180.0
	best := angleApart(o.angle+180, 180)
	for m, b := range j.branches {
		if d := angleApart(o.angle+180, b.angle); m != k && d < best {
			best, oppRoad, oppAngle = d, b.road, b.angle
		}
	}
	apart := angleApart(o.angle, oppAngle)
	goesOn := !announced(oppRoad, o.road)
	if (goesOn || apart > 180-narrowAngle) && distinct {
		return true
	}
	return candKeeps && otherRenames && slightly && goesOn && apart > 180-fuzzyAngle
}

// angleApart is how far apart two directions are, 0 to 180 degrees.
func angleApart(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), 360)
	return math.Min(d, 360-d)
}

// similarWide reports whether branch k could be taken for branch i, a way
// on bending more than groupAngle: unless it bends over twice as much, or
// is a ramp off the road that does not go straight on.
func (j *junctionView) similarWide(i, k int) bool {
	c, o := j.branches[i], j.branches[k]
	if o.dev > straightAngle && linkTo(o.road.class, j.via.class) && linkTo(o.road.class, c.road.class) {
		return false
	}
	return o.dev <= distinctRatio*c.dev
}

// minor reports whether a class is one a driver never takes for the road
// he is on: service roads, tracks and every kind of path.
func minor(class string) bool { return lowPriority(class) }

func isLink(class string) bool { return strings.HasSuffix(class, "_link") }

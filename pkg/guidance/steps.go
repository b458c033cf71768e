package guidance

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
)

// Leg is what Steps needs to narrate one leg.
type Leg struct {
	Pieces []Piece
	// Start is where the leg's first waypoint was placed on the road.
	Start [2]float64
	// Dest is the waypoint as the client sent it and Snapped where it was
	// placed on the road: their offset tells the side of the street.
	Dest, Snapped [2]float64
	// Waypoint is the index, among the request's points, of the waypoint
	// the leg ends at when it is not the last (a stop on the way, "You have
	// reached waypoint 1"); 0 for the destination.
	Waypoint int
	// Language is the instructions' language, one of Languages; "" is
	// DefaultLanguage.
	Language string
}

// Steps narrates a leg on graph g. It returns at least a depart and an
// arrive step.
func Steps(g *graph.Graph, leg Leg) []Step {
	n := &narrator{g: g}
	first := leg.Pieces[0].Arc
	n.open(Step{Maneuver: Depart, heading: g.Net.Heading(n.segRef(first), true)}, graph.NoArc, first)
	n.add(leg.Pieces[0])
	for i := 1; i < len(leg.Pieces); i++ {
		n.junction(leg.Pieces[i-1].Arc, leg.Pieces[i].Arc)
		n.add(leg.Pieces[i])
	}
	last := leg.Pieces[len(leg.Pieces)-1].Arc
	n.ring = nil // a leg that ends on the roundabout enters it (Exit 0)
	side := sideOfStreet(g.Net.Heading(n.segRef(last), false), leg.Snapped, leg.Dest)
	n.steps = append(n.steps, Step{Maneuver: Arrive, Modifier: side, in: n.segRef(last), Waypoint: leg.Waypoint})
	n.steps = n.collapse(n.steps)
	n.place(leg)
	w := wordingOf(leg.Language)
	for i := range n.steps {
		s := &n.steps[i]
		stay := i > 0 && s.road().named() && s.road().same(n.steps[i-1].road())
		s.Instruction = truncate(w.describe(s, stay))
	}
	return n.steps
}

// place sets where each final step's maneuver happens and the bearings
// around it: a step's road starts at its out arc's tail (the depart at the
// start, the arrive at the snapped destination).
func (n *narrator) place(leg Leg) {
	for i := range n.steps {
		s := &n.steps[i]
		switch {
		case s.Maneuver == Depart:
			s.Location = leg.Start
			s.BearingAfter = bearing(n.g.Net.Heading(s.out, true))
			s.Signpost = n.signpost(s.out)
		case s.Maneuver == Arrive:
			s.Location = leg.Snapped
			s.BearingBefore = bearing(n.g.Net.Heading(s.in, false))
		default:
			s.Location = n.tail(s.out)
			s.Signpost = n.signpost(s.out)
			s.BearingBefore = bearing(n.g.Net.Heading(s.arrived, false))
			s.BearingAfter = bearing(n.g.Net.Heading(s.out, true))
			s.Turned = n.g.PerceivedTurnAngle(s.arrived, s.out)
		}
	}
}

// signpost is what the signs say for travel along segRef: a segment's
// points follow its way's node order, so a reversed reference travels the
// way backwards.
func (n *narrator) signpost(segRef uint32) graph.Signpost {
	s, reversed := graph.SplitSegRef(segRef)
	return n.g.Net.Signpost(s).Towards(reversed)
}

// tail is the node a segment travelled as segRef says starts at.
func (n *narrator) tail(segRef uint32) [2]float64 {
	s, reversed := graph.SplitSegRef(segRef)
	v := n.g.Net.SegFrom[s]
	if reversed {
		v = n.g.Net.SegTo[s]
	}
	return n.node(v)
}

// bearing turns a heading (degrees counter-clockwise from east) into a
// compass bearing: whole degrees clockwise from north, 0 to 359.
func bearing(h float64) int {
	b := int(math.Round(90-h)) % 360
	if b < 0 {
		b += 360
	}
	return b
}

// narrator builds the steps of one leg.
type narrator struct {
	g        *graph.Graph
	steps    []Step
	ring     *ringState // while on a roundabout
	buf      []uint32   // scratch for a junction's other roads
	branches []branch   // scratch for a junction's view
}

func (n *narrator) segRef(arc uint32) uint32 { return n.g.ArcSegRef(arc) }

func (n *narrator) seg(arc uint32) uint32 {
	s, _ := n.g.ArcSegment(arc)
	return s
}

func (n *narrator) road(arc uint32) road {
	s := n.seg(arc)
	return cleanRoad(n.g.Net.Name(s), n.g.Net.Ref(s), n.g.Net.Class(s))
}

func (n *narrator) node(v uint32) [2]float64 {
	lon, lat := n.g.Net.Node(v)
	return [2]float64{lon, lat}
}

func (n *narrator) flags(arc uint32) uint8 { return n.g.Net.SegFlags[n.seg(arc)] }

// open starts a step that turns from arc p (NoArc at the start) onto arc
// c and follows c's road.
func (n *narrator) open(s Step, p, c uint32) {
	s.setRoad(n.road(c))
	if p != graph.NoArc {
		s.in = n.segRef(p)
		s.arrived = s.in
	}
	s.out = n.segRef(c)
	n.steps = append(n.steps, s)
}

func (n *narrator) add(p Piece) {
	s := &n.steps[len(n.steps)-1]
	s.DistanceM += p.DistanceM
	s.DurationS += p.DurationS
}

// junction decides what, if anything, the driver is told at the node
// between arcs p and c.
func (n *narrator) junction(p, c uint32) {
	inRing, onRing := n.flags(p)&graph.FlagRoundabout != 0, n.flags(c)&graph.FlagRoundabout != 0
	switch {
	case !inRing && onRing:
		n.open(Step{Maneuver: Roundabout}, p, c)
		n.ring = n.enterRing(n.g.ArcHead(p), c)
		return
	case inRing && onRing:
		if n.ring != nil {
			n.ring.exits += n.exitsAt(p)
		}
		return
	case inRing && !onRing && n.ring != nil:
		n.ring.exits++
		n.finishRoundabout(c)
		return
	}
	m := n.classify(p, c)
	if m.Maneuver == "" || (m.Maneuver == Continue && !m.keep && n.road(c).same(n.steps[len(n.steps)-1].road())) {
		return // nothing to say: the step goes on
	}
	n.open(m, p, c)
}

// finishRoundabout writes the roundabout step's instruction naming the exit
// road.
func (n *narrator) finishRoundabout(exit uint32) {
	if n.ring == nil {
		return
	}
	s := &n.steps[len(n.steps)-1]
	s.Exit = max(1, n.ring.exits)
	s.setRoad(n.road(exit))
	n.ring = nil
}

// classify names the maneuver from arc p onto arc c, or returns a zero Step
// when none is worth a word. It decides as OSRM's guidance does (see
// obvious.go and fork.go): the obvious way on says nothing, or its new
// name; a ramp is a ramp; a fork, a T where the road ends, and every other
// way say their direction, graded on the perceived angle.
func (n *narrator) classify(p, c uint32) Step {
	if n.seg(p) == n.seg(c) {
		return Step{Maneuver: UTurn, Modifier: "uturn"}
	}
	j, i := n.view(p, c), 0
	angle := j.branches[i].angle
	drawn := n.g.Net.TurnAngle(n.segRef(p), n.segRef(c))
	if len(j.branches) == 1 && math.Max(math.Abs(angle), math.Abs(drawn)) >= lonelyTurn && !n.g.Net.SameWay(n.seg(p), n.seg(c)) {
		// No other road, but a turn this sharp from one way onto
		// another is one a driver must be told of.
		return Step{Maneuver: Turn, Modifier: turnModifier(angle), keep: true}
	}
	if m, ok := n.ramp(p, c, angle); ok && j.entries() > 1 {
		return m
	}
	if road := j.driveways(); road >= 0 {
		// A road going on past driveways, tracks and paths is followed
		// without a word, however it bends; a driveway taken is a turn.
		if road == i {
			return drivewayName(j.via, j.branches[i])
		}
		if math.Abs(angle) <= straightAngle {
			return Step{Maneuver: Turn, Modifier: "slight " + sideOf(angle-j.branches[road].angle), keep: true}
		}
		return decision(angle)
	}
	switch obvious := j.obvious(); {
	case obvious == i:
		return newName(j.via, j.branches[i])
	case obvious >= 0:
		if o := j.branches[obvious]; len(j.branches) == 2 && o.dev <= straightAngle && math.Abs(angle) <= straightAngle {
			// a junction of three roads, both ways on about straight:
			// ours is the one beside the way on.
			return Step{Maneuver: Turn, Modifier: "slight " + sideOf(angle-o.angle), keep: true}
		}
		return decision(angle)
	}
	if m, ok := j.forkStep(i); ok {
		return m
	}
	if j.endOfRoad() {
		return Step{Maneuver: Turn, Modifier: sideOf(angle), keep: true}
	}
	return decision(angle)
}

// newName is what is said on the obvious way on: nothing where it keeps the
// road, its new name where it takes another (OSRM's "new name"); renamed
// marks it for collapse's short-name rule.
func newName(via road, b branch) Step {
	if b.road.named() && announced(via, b.road) && !b.road.same(via) {
		return Step{Maneuver: Continue, Modifier: bend(b.angle), renamed: true}
	}
	return Step{}
}

// drivewayName is what is said on a road going on past driveways: OSRM's
// driveway handler keeps the road silent only where both it and the road
// arrived on have names of one road; else it reads a new name, which
// stands unless the road keeps its name or reference (its short-name
// rule, here and in collapse): a road without name or reference going on
// from one that had them is "the street".
func drivewayName(via road, b branch) Step {
	if via.named() && b.road.named() && !announced(via, b.road) || !via.named() && !b.road.named() {
		return Step{}
	}
	return Step{Maneuver: Continue, Modifier: bend(b.angle), renamed: true}
}

// decision names a way on that is not the obvious one by its direction:
// straight on (said even on the same road: another way could be taken for
// it), else a turn.
func decision(angle float64) Step {
	if math.Abs(angle) <= straightAngle {
		return Step{Maneuver: Continue, Modifier: "straight", keep: true}
	}
	return Step{Maneuver: Turn, Modifier: turnModifier(angle), keep: true}
}

// ramp names the maneuver onto or off a ramp of a motorway or trunk road,
// which OSRM always says, obvious or not: onto one from another road ("on
// ramp"), off one of those roads ("off ramp"), and from one onto such a
// road where the name changes ("merge"). The links of lesser roads
// (primary_link and below) are roads like others to OSRM's guidance.
func (n *narrator) ramp(p, c uint32, angle float64) (Step, bool) {
	pClass, cClass := n.road(p).class, n.road(c).class
	pRamp, cRamp := rampClass(pClass), rampClass(cClass)
	side := sideOf(angle)
	switch {
	case cRamp && !pRamp && motorwayClass(pClass):
		return Step{Maneuver: OffRamp, Modifier: bend(angle), side: side}, true
	case cRamp && !pRamp:
		return Step{Maneuver: Ramp, Modifier: bend(angle), side: side}, true
	case pRamp && !cRamp && motorwayClass(cClass) && announced(n.road(p), n.road(c)):
		return Step{Maneuver: Merge, Modifier: side}, true
	}
	return Step{}, false
}

// forkStep names branch i where it is part of a fork and no way on is
// obvious: a fork of two at a junction of more ways only when the two are
// of about one class, else the more important one is followed as the
// obvious way (its new name, if any) and the other is a slight turn.
func (j *junctionView) forkStep(i int) (Step, bool) {
	fan := j.fan()
	if fan == nil {
		return Step{}, false
	}
	if len(j.branches) > 2 && len(fan) == 2 {
		a, b := j.branches[fan[0]], j.branches[fan[1]]
		if d := osrmPriority(a.road.class) - osrmPriority(b.road.class); d > 1 || d < -1 {
			main := fan[0]
			if d > 0 {
				main = fan[1]
			}
			switch {
			case main == i:
				return newName(j.via, j.branches[i]), true
			case fan[0] == i || fan[1] == i:
				return Step{Maneuver: Turn, Modifier: "slight " + sideOf(j.branches[i].angle-j.branches[main].angle), keep: true}, true
			}
			return Step{}, false
		}
	}
	side, said, ok := j.forkOf(i)
	switch {
	case !ok:
		return Step{}, false
	case !said:
		return newName(j.via, j.branches[i]), true
	case side == "straight":
		return Step{Maneuver: Continue, Modifier: "straight", keep: true}, true
	}
	return Step{Maneuver: Fork, Modifier: side}, true
}

// lonelyTurn is the angle from which a turn onto another way is announced
// even where it is the only way on. A hairpin within one way is not.
const lonelyTurn = 90

// byAngle names a plain turn of angle degrees (positive is left): nothing
// for a gentle bend along one road, continue straight on onto another,
// else a turn graded by its angle.
func byAngle(angle float64, sameRoad bool) Step {
	if math.Abs(angle) < 30 {
		if sameRoad {
			return Step{}
		}
		return Step{Maneuver: Continue, Modifier: bend(angle)}
	}
	return Step{Maneuver: Turn, Modifier: turnModifier(angle)}
}

// bend is a continue's modifier: straight, or the side the road bends to,
// graded as a turn would be past slight.
func bend(angle float64) string {
	switch a := math.Abs(angle); {
	case a <= straightAngle:
		return "straight"
	case a < 40:
		return "slight " + sideOf(angle)
	}
	return turnModifier(angle)
}

func sideOf(angle float64) string {
	if angle > 0 {
		return "left"
	}
	return "right"
}

// turnModifier grades a turn by its angle (positive is left).
func turnModifier(angle float64) string {
	a, side := math.Abs(angle), sideOf(angle)
	switch {
	case a < 60:
		return "slight " + side
	case a < 130:
		return side
	}
	return "sharp " + side
}

// sideOfStreet says whether the waypoint lies left or right of the road at
// the point it was snapped to, given the heading of arrival; "" when it is
// on the road itself (within about 3 m).
func sideOfStreet(heading float64, snapped, dest [2]float64) string {
	k := math.Cos(snapped[1] * math.Pi / 180)
	dx, dy := (dest[0]-snapped[0])*k, dest[1]-snapped[1]
	if math.Hypot(dx, dy)*111195 < 3 {
		return ""
	}
	hx, hy := math.Cos(heading*math.Pi/180), math.Sin(heading*math.Pi/180)
	if hx*dy-hy*dx > 0 {
		return "left"
	}
	return "right"
}

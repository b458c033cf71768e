package guidance

import (
	"math"
	"strings"
)

// A junction as guidance reads it, the way OSRM's guidance does: the road
// arrived on and every way on a car may take, each with the angle a driver
// perceives (graph.Network.PerceivedTurnAngle) and its road class ranked
// on OSRM's priority scale. Ways the car may not take (one-way roads
// towards the junction) are not in it.

// branch is one way on from a junction.
type branch struct {
	arc   uint32
	road  road
	angle float64 // perceived, positive to the left
	dev   float64 // |angle|: how far from straight on
}

// junctionView is the junction at the head of arc p.
type junctionView struct {
	via      road
	branches []branch // the ways on, our own included
}

// view reads the junction at the head of arc p, onto arc c among the ways
// on; ours is c's index in branches.
func (n *narrator) view(p, c uint32) (j junctionView, ours int) {
	j.via = n.road(p)
	in := n.segRef(p)
	j.branches = append(j.branches, n.branchOf(in, c))
	heading := n.g.Net.Heading(n.segRef(c), true)
	for _, o := range n.alternatives(p, c) {
		if math.Abs(n.g.Net.Heading(n.segRef(o), true)-heading) < 0.5 {
			continue // a way drawn over ours (two ways mapped on the same nodes): no other way on
		}
		j.branches = append(j.branches, n.branchOf(in, o))
	}
	return j, 0
}

func (n *narrator) branchOf(in, a uint32) branch {
	angle := n.g.Net.PerceivedTurnAngle(in, n.segRef(a))
	return branch{arc: a, road: n.road(a), angle: angle, dev: math.Abs(angle)}
}

// OSRM's priority of a road class (lower is more important; a ramp ranks
// just below its road) and its groups of similar priorities.
func osrmPriority(class string) int {
	switch class {
	case "motorway":
		return 0
	case "motorway_link":
		return 1
	case "trunk":
		return 2
	case "trunk_link":
		return 3
	case "primary":
		return 4
	case "primary_link":
		return 5
	case "secondary":
		return 6
	case "secondary_link":
		return 7
	case "tertiary":
		return 8
	case "tertiary_link":
		return 9
	case "residential":
		return 10
	case "living_street":
		return 11
	case "service":
		return 12
	case "unclassified":
		return 15
	case "track", "path":
		return 16
	case "footway", "pedestrian", "steps":
		return 18
	}
	return 31
}

func osrmGroup(class string) int {
	switch p := osrmPriority(class); {
	case p <= 1:
		return 0
	case p <= 3:
		return 1
	case p <= 9:
		return 2
	case p <= 13:
		return 3
	case p <= 15:
		return 4
	case p <= 17:
		return 5
	case p <= 19:
		return 6
	}
	return 7
}

// lowPriority reports whether a class is no road to OSRM's car guidance
// (a service road, track or path: all but car.lua's road types).
func lowPriority(class string) bool { return osrmPriority(class) >= 12 && class != "unclassified" }

// strictlyLess reports whether class a is of a lower kind of road than b: a
// driveway, track or path below a road, else a lower group.
func strictlyLess(a, b string) bool {
	if la, lb := lowPriority(a), lowPriority(b); la != lb {
		return la
	}
	return osrmGroup(a) > osrmGroup(b)
}

// linkTo reports whether class a is the ramp of road class b.
func linkTo(a, b string) bool {
	base, ok := strings.CutSuffix(a, "_link")
	return ok && !isLink(b) && base == b
}

// motorwayClass: roads built with separated directions (and their ramps).
func motorwayClass(class string) bool {
	base, _ := strings.CutSuffix(class, "_link")
	return base == "motorway" || base == "trunk"
}

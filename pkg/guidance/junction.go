package guidance

import (
	"math"
	"strings"

	"github.com/mapsco/maps/pkg/graph"
)

// A junction as guidance reads it, the way OSRM's guidance does: the road
// arrived on and every other road at it, each with the angle a driver
// perceives (graph.Graph.PerceivedTurnAngle) and its road class ranked
// on OSRM's priority scale. One-way roads that only enter the junction are
// in it too, marked as no way on: a driver sees them, and they make a
// junction of a bend.

// branch is one road at a junction, other than the one arrived on.
type branch struct {
	road  road
	angle float64 // perceived, positive to the left
	dev   float64 // |angle|: how far from straight on
	entry bool    // a way on the profile may take
}

// junctionView is the junction at the head of arc p.
type junctionView struct {
	via      road
	branches []branch // the roads on, our own first
}

// view reads the junction at the head of arc p, onto arc c; ours is
// branches[0].
func (n *narrator) view(p, c uint32) junctionView {
	j := junctionView{via: n.road(p), branches: n.branches[:0]}
	v := n.g.ArcHead(p)
	// The other roads' segment references leaving v: the ways on, then
	// the one-way roads coming in.
	n.buf = n.buf[:0]
	begin, end := n.g.Fwd.Out(v)
	for a, oc := begin, n.g.Original(c); a < end; a++ {
		if a != oc && n.seg(a) != n.seg(p) {
			n.buf = append(n.buf, n.segRef(a))
		}
	}
	ways := len(n.buf)
	n.buf = n.g.Entries(v, n.buf)
	k := ways
	for _, r := range n.buf[ways:] {
		if r>>1 != n.seg(p) { // not the one-way road we came by
			n.buf[k] = r
			k++
		}
	}
	n.buf = n.buf[:k]
	heading := n.g.Net.Heading(n.segRef(c), true)
	drawn := n.g.Net.TurnAngle(n.segRef(p), n.segRef(c))
	var in float64 // the perceived heading of arrival, read once the junction has more than our way
	add := func(out uint32, entry bool) {
		if len(j.branches) > 0 && math.Abs(n.g.Net.Heading(out, true)-heading) < 0.5 {
			return // a way drawn over ours (two ways mapped on the same nodes): no other road
		}
		s, _ := graph.SplitSegRef(out)
		r := cleanRoad(n.g.Net.Name(s), n.g.Net.Ref(s), n.g.Net.Class(s))
		angle := drawn
		if len(n.buf) > 0 {
			// Where the road only goes on, OSRM reads its first pieces
			// (the coordinates close to the turn); at a junction, as a
			// driver sees it.
			angle = turnBetween(in, n.g.PerceivedHeading(out))
		}
		j.branches = append(j.branches, branch{road: r, angle: angle, dev: math.Abs(angle), entry: entry})
	}
	if len(n.buf) > 0 {
		in = n.g.PerceivedHeading(n.segRef(p)^1) + 180
	}
	add(n.segRef(c), true)
	for i, out := range n.buf {
		add(out, i < ways)
	}
	n.branches = j.branches
	return j
}

// turnBetween is the turn, in (-180, 180] degrees, positive to the left,
// from heading in onto heading out (degrees counter-clockwise from east).
func turnBetween(in, out float64) float64 {
	d := math.Mod(out-in, 360)
	switch {
	case d <= -180:
		d += 360
	case d > 180:
		d -= 360
	}
	return d
}

// entries counts the ways on the profile may take.
func (j *junctionView) entries() int {
	k := 0
	for _, b := range j.branches {
		if b.entry {
			k++
		}
	}
	return k
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

// motorwayClass: roads built with separated directions, motorways and
// trunk roads (not their ramps).
func motorwayClass(class string) bool { return class == "motorway" || class == "trunk" }

// rampClass: the ramps of motorways and trunk roads, OSRM's ramps.
func rampClass(class string) bool { return class == "motorway_link" || class == "trunk_link" }

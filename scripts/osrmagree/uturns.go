package main

import (
	"math"
)

// A U-turn, read from a route's geometry and the OSM nodes alone, so that both engines' routes are read the
// same way: a vertex where the route reverses (the next piece turns at least 170 degrees) and retraces the
// piece it came by (the shorter of the two pieces lies within 1 m of the other, and where both are OSM nodes
// it returns to the node it came from). A hairpin bend reverses too, but its two branches lie metres apart.
const (
	uTurnAngle   = 170.0
	uTurnRetrace = 1.0
	// besideWaypointM: a U-turn this close to a waypoint (along the route) is the waypoint's, not the road's.
	besideWaypointM = 4.0
)

// Where a route turns back (issue 36 item 1: a U-turn only at a dead end or a junction, never in the road).
const (
	atWaypoint  = "on the waypoint (under 0.5 m)"
	besideWaypt = "beside a waypoint (0.5-4 m)"
	atDeadEnd   = "at a dead end (no other way out)"
	atBarrier   = "at a barrier or turning circle"
	atJunction  = "at a junction of 3+ roads"
	onBridge    = "at a junction, onto a bridge or tunnel"
	inTheRoad   = "in the road (2 roads meet)"
	offAnyNode  = "at a shape point that is no OSM node"
)

// uTurn is one turn-around of a route.
type uTurn struct {
	At    [2]float64 `json:"at"`
	Place string     `json:"place"`
	Node  int64      `json:"node,omitempty"`
	Way   int64      `json:"way,omitempty"`
}

// uTurnsOf finds and places every U-turn of a route; m is the travel model of its engine and profile.
func (ix *index) uTurnsOf(pts [][2]float64, m travelModel) []uTurn {
	pts = dedupe(pts)
	total := lengthOf(pts)
	var out []uTurn
	along := 0.0
	for i := 1; i+1 < len(pts); i++ {
		a, b, c := pts[i-1], pts[i], pts[i+1]
		along += haversine(a, b)
		if !retraces(a, b, c) || !ix.sameNode(a, c) {
			continue
		}
		out = append(out, ix.place(a, b, c, min(along, total-along), m))
	}
	return out
}

func (ix *index) place(a, b, c [2]float64, fromEnd float64, m travelModel) uTurn {
	u := uTurn{At: b}
	switch {
	case fromEnd < 0.5:
		u.Place = atWaypoint
		return u
	case fromEnd <= besideWaypointM:
		u.Place = besideWaypt
		return u
	}
	id, ok := ix.byPos[key6(b[0], b[1])]
	if !ok {
		u.Place = offAnyNode
		return u
	}
	u.Node = id
	from := ix.arrivedFrom(a, id)
	if from != 0 {
		u.Way = ix.pairWay[[2]int64{min(from, id), max(from, id)}]
	}
	roads, out := ix.roadsAt(m, id, from)
	switch {
	case out == 0:
		u.Place = atDeadEnd
	case ix.stopNode[id]:
		u.Place = atBarrier
	case roads <= 2:
		u.Place = inTheRoad
	case u.Way != 0 && bridgeOrTunnel(ix.ways[u.Way].Tags):
		u.Place = onBridge
	default:
		u.Place = atJunction
	}
	return u
}

// arrivedFrom is the node the route came to node id from: a's, or when a is an end placed on a segment, the
// neighbour of id whose segment a lies on (0 when none).
func (ix *index) arrivedFrom(a [2]float64, id int64) int64 {
	if ia, ok := ix.byPos[key6(a[0], a[1])]; ok {
		return ia
	}
	for _, l := range ix.links[id] {
		if distToSegment(a, ix.pos[l.to], ix.pos[id]) <= 0.5 {
			return l.to
		}
	}
	return 0
}

// sameNode: where both points are OSM nodes, a turn-around comes back to the very node it came from (a
// zigzag of a way's geometry, two pieces 0.6 m apart, reverses too); an end placed on a segment is no node,
// and the geometry alone decides.
func (ix *index) sameNode(a, c [2]float64) bool {
	ia, okA := ix.byPos[key6(a[0], a[1])]
	ic, okC := ix.byPos[key6(c[0], c[1])]
	return !okA || !okC || ia == ic
}

func bridgeOrTunnel(t map[string]string) bool {
	yes := func(v string) bool { return v != "" && v != "no" }
	return yes(t["bridge"]) || yes(t["tunnel"])
}

// retraces says whether the route turns back at b onto the piece it came by.
func retraces(a, b, c [2]float64) bool {
	la, lc := haversine(a, b), haversine(b, c)
	if la < 0.05 || lc < 0.05 {
		return false
	}
	if turnAngle(a, b, c) < uTurnAngle {
		return false
	}
	if lc <= la {
		return distToSegment(c, a, b) <= uTurnRetrace
	}
	return distToSegment(a, b, c) <= uTurnRetrace
}

// heading is the compass bearing from a to b in degrees, 0-360 clockwise from north.
func heading(a, b [2]float64) float64 {
	k := math.Cos(a[1] * math.Pi / 180)
	h := math.Atan2((b[0]-a[0])*k, b[1]-a[1]) * 180 / math.Pi
	return math.Mod(h+360, 360)
}

// angleDiff is the smaller angle between two headings.
func angleDiff(h1, h2 float64) float64 {
	d := math.Abs(math.Mod(h1-h2+720, 360))
	return math.Min(d, 360-d)
}

func turnAngle(a, b, c [2]float64) float64 { return angleDiff(heading(a, b), heading(b, c)) }

// distToSegment is p's distance in metres to the segment a-b, in a plane scaled at a's latitude.
func distToSegment(p, a, b [2]float64) float64 {
	const m = 111195.0 // metres a degree of latitude
	k := math.Cos(a[1] * math.Pi / 180)
	ax, ay := 0.0, 0.0
	bx, by := (b[0]-a[0])*k*m, (b[1]-a[1])*m
	px, py := (p[0]-a[0])*k*m, (p[1]-a[1])*m
	t := 0.0
	if l := bx*bx + by*by; l > 0 {
		t = math.Max(0, math.Min(1, (px*bx+py*by)/l))
	}
	return math.Hypot(px-(ax+t*bx), py-(ay+t*by))
}

func dedupe(pts [][2]float64) [][2]float64 {
	out := make([][2]float64, 0, len(pts))
	for _, p := range pts {
		if len(out) == 0 || out[len(out)-1] != p {
			out = append(out, p)
		}
	}
	return out
}

func lengthOf(pts [][2]float64) float64 {
	d := 0.0
	for i := 1; i < len(pts); i++ {
		d += haversine(pts[i-1], pts[i])
	}
	return d
}

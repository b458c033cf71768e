package guidance

import "github.com/mapsco/maps/pkg/graph"

// Roundabout exits are counted as a driver counts them: the ways, passed
// in driving order, by which the profile may leave the ring. Not counted:
// entries (a one-way road into the ring has no arc out of it), stubs the
// profile may not take (no arc either), a way that only runs beside the
// ring or comes back to it (a slip lane between two ring nodes, a street
// mapped over the ring's own nodes): followed away from the ring along
// its own way, it meets the ring again with no road off it on the way
// (one that does, as the loop off the small roundabout of the CG-3 north
// of La Massana that leads to the Urbanització Clota Verda, is a way out); and, off a
// ring of roads, a
// service road, track or path (the way into a car park or a petrol
// station): the signs before a roundabout show its roads, not its
// driveways, and OSRM leaves them out alike (its roundabout handler
// counts only exits that are not of a low-priority class, unless the ring
// itself is one).

// maxRing bounds the nodes of one ring (the largest in our extracts has
// about 60) and maxWayWalk the segments followed along an exit's way.
const (
	maxRing    = 512
	maxWayWalk = 64
)

// ringState counts the exits passed on a roundabout.
type ringState struct {
	exits int
	nodes map[uint32]bool // the ring's nodes
	minor bool            // the ring is itself a service road or track: its driveways count
}

// enterRing starts counting on the ring that arc c, from node v, is part of.
func (n *narrator) enterRing(v, c uint32) *ringState {
	r := &ringState{nodes: map[uint32]bool{v: true}, minor: minor(n.road(c).class)}
	queue := []uint32{v, n.g.ArcHead(c)}
	r.nodes[queue[1]] = true
	for len(queue) > 0 && len(r.nodes) < maxRing {
		u := queue[0]
		queue = queue[1:]
		begin, end := n.g.Fwd.Out(u)
		for a := begin; a < end; a++ {
			if h := n.g.ArcHead(a); n.flags(a)&graph.FlagRoundabout != 0 && !r.nodes[h] {
				r.nodes[h] = true
				queue = append(queue, h)
			}
		}
	}
	return r
}

// exitsAt counts the exits from the ring at the head of ring arc p.
func (n *narrator) exitsAt(p uint32) int {
	v := n.g.ArcHead(p)
	begin, end := n.g.Fwd.Out(v)
	count := 0
	for a := begin; a < end; a++ {
		if n.isExit(a) {
			count++
		}
	}
	return count
}

// isExit reports whether arc a, leaving a node of the ring, leaves it for
// good.
func (n *narrator) isExit(a uint32) bool {
	if n.flags(a)&graph.FlagRoundabout != 0 || !n.ring.minor && minor(n.road(a).class) {
		return false
	}
	net := n.g.Net
	for i := 0; i < maxWayWalk; i++ {
		v := n.g.ArcHead(a)
		if n.ring.nodes[v] {
			return false
		}
		next := graph.NoArc
		if net.HasWays() {
			begin, end := n.g.Fwd.Out(v)
			for b := begin; b < end; b++ {
				switch {
				case net.SameWay(n.seg(b), n.seg(a)) && n.seg(b) != n.seg(a):
					next = b
				case !net.SameWay(n.seg(b), n.seg(a)) && n.flags(b)&graph.FlagRoundabout == 0 && (n.ring.minor || !minor(n.road(b).class)):
					return true // another road leaves it before it comes back: a way out
				}
			}
		}
		if next == graph.NoArc {
			return true // the way ends, or turns into another, away from the ring
		}
		a = next
	}
	return true
}

package graph

import "slices"

// Destination-only ways (access, motor_vehicle, motorcar = destination,
// delivery or customers for a motor vehicle, profile.Way.Destination) may
// be entered only to reach a place on them or beyond them, never to pass
// through, as OSRM's car.lua does with its restricted_penalty: a turn from
// a way that is not destination-only onto one that is costs
// DestinationPenalty more. The penalty is above any travel time, so a path
// entering fewer destination areas always wins, and between paths that
// enter as many the fastest wins: through-traffic is kept out whenever any
// other way exists, and a waypoint on such a way (or beyond it) is reached
// by the fastest way that enters once. Starting on one is free.
//
// Because the penalty is a power of two above every travel time, a search
// cost c holds both: c / DestinationPenalty areas entered and Unpenalised(c)
// milliseconds of travel, so answers report true times (route, matrix) and
// isochrones, which measure reach rather than choose a path, drop it.
//
// A way destination-only in some states of its time rules
// (access:conditional=destination @ (06:30-08:30)) makes its entering turns
// conditional: penalised only in those states (Conditions, State.Edge), so
// the rule holds exactly while the condition does.
const DestinationPenalty = 1 << 28 // ms, about 74.6 hours

// Unpenalised returns the travel time in a search cost, without its
// destination penalties.
func Unpenalised(ms uint32) uint32 { return ms & (DestinationPenalty - 1) }

// Penalties returns the destination penalties in a search cost, in ms.
func Penalties(ms uint32) uint32 { return ms &^ (DestinationPenalty - 1) }

// destState is a segment's destination-only status for one profile: fixed
// (dest), or per state of its way's rules.
type destState struct {
	dest      bool
	schedules []uint32 // nil when fixed
	per       []bool   // per state, when not fixed
}

// segmentDestinations returns each segment's status for profile p.
func segmentDestinations(in Input, p int, segWay []uint32) []destState {
	out := make([]destState, len(segWay))
	for s, w := range segWay {
		way := &in.Ways[w]
		out[s].dest = way.Destination>>p&1 != 0
		wc := way.Cond
		if wc == nil || wc.Destination == nil {
			continue
		}
		per := make([]bool, len(wc.Destination))
		for st, mask := range wc.Destination {
			per[st] = mask>>p&1 != 0
		}
		if !slices.Contains(per, !per[0]) {
			out[s].dest = per[0] // the same in every state
			continue
		}
		out[s].schedules, out[s].per = wc.Schedules, per
	}
	return out
}

// at is the status in state u of the rules union, given each of the
// segment's schedules' bit in union.
func (d *destState) at(union []uint32, u int) bool {
	if d.per == nil {
		return d.dest
	}
	st := 0
	for i, id := range d.schedules {
		if j := slices.Index(union, id); u>>j&1 != 0 {
			st |= 1 << i
		}
	}
	return d.per[st]
}

// applyDestinations adds DestinationPenalty to every turn of g that enters
// a destination-only segment from one that is not, and returns the turns
// for which that depends on the time, to be stored as conditional turns.
func applyDestinations(g *Graph, dest []destState) []condTurn {
	var out []condTurn
	for a := range uint32(g.NumArcs()) {
		from, _ := g.ArcSegment(a)
		begin, end := g.Turns.Out(a)
		for i := begin; i < end; i++ {
			e := g.Turns.Edges[3*i : 3*i+3 : 3*i+3]
			to, _ := g.ArcSegment(e[0])
			da, db := &dest[from], &dest[to]
			if da.per == nil && db.per == nil {
				if db.dest && !da.dest {
					e[1], e[2] = add32(e[1], DestinationPenalty), add32(e[2], DestinationPenalty)
				}
				continue
			}
			union := appendNew(appendNew(nil, da.schedules), db.schedules)
			if len(union) > MaxRules {
				continue // beyond what a record holds: the way's unconditional tags hold
			}
			var mask uint16
			for u := range 1 << len(union) {
				if db.at(union, u) && !da.at(union, u) {
					mask |= 1 << u
				}
			}
			if mask != 0 {
				out = append(out, condTurn{from: a, to: e[0], schedules: union, penalised: mask})
			}
		}
	}
	return out
}

// appendNew appends the ids of add not in list.
func appendNew(list, add []uint32) []uint32 {
	for _, id := range add {
		if !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}

// EntersDestination reports whether the turn from arc a onto arc b enters
// a destination-only way under st (nil for none): whether it carries
// DestinationPenalty now.
func (g *Graph) EntersDestination(st *State, a, b uint32) bool {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, _, cost := g.Turn(i); to == b && cost >= DestinationPenalty {
			return true
		}
	}
	return st != nil && g.Marked(a) && st.isPenalised(a, b)
}

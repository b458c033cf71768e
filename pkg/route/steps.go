package route

import (
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/guidance"
	"github.com/mapsco/maps/pkg/snap"
)

// Pieces splits a leg into its arcs with each arc's share of the leg's
// time and length, using the same rounded parts as the search, so that the
// pieces add up to the leg exactly (see guidance.Piece).
func (r *Router) Pieces(leg Leg, a, b snap.Result) []guidance.Piece {
	g := r.g
	if leg.Direct {
		arc := g.ArcOf[graph.SegRef(a.Seg, b.Frac < a.Frac)]
		return []guidance.Piece{{Arc: arc, DistanceM: leg.DistanceM, DurationS: leg.DurationS}}
	}
	pieces := make([]guidance.Piece, len(leg.Arcs))
	first := leg.Arcs[0]
	pieces[0] = guidance.Piece{Arc: first, DistanceM: r.partLength(a, first, true),
		DurationS: float64(r.arcTime(leg.st, first)-r.along(leg.st, a, first)) / 1000}
	for i := 1; i < len(leg.Arcs); i++ {
		arc := leg.Arcs[i]
		turn := graph.Unpenalised(turnCost(g, leg.Arcs[i-1], arc)) // a destination penalty is no time
		s, _ := g.ArcSegment(arc)
		p := guidance.Piece{Arc: arc, DistanceM: float64(g.Net.SegLength[s]), DurationS: float64(turn+r.arcTime(leg.st, arc)) / 1000}
		if i == len(leg.Arcs)-1 {
			p.DistanceM = r.partLength(b, arc, false)
			p.DurationS = float64(turn+r.along(leg.st, b, arc)) / 1000
		}
		pieces[i] = p
	}
	return pieces
}

// arcTime is an arc's whole travel time in ms under st.
func (r *Router) arcTime(st *graph.State, arc uint32) uint32 { return st.ArcTime(r.g, arc) }

// along is the time from the start of arc to point p on it, under st.
func (r *Router) along(st *graph.State, p snap.Result, arc uint32) uint32 {
	if _, reversed := r.g.ArcSegment(arc); reversed {
		return alongBackward(r.arcTime(st, arc), p)
	}
	return alongForward(r.arcTime(st, arc), p)
}

// turnCost is the cost of the turn from arc a onto arc b, 0 if there is
// none (which a path from the search never contains).
func turnCost(g *graph.Graph, a, b uint32) uint32 {
	begin, end := g.Turns.Out(a)
	for i := begin; i < end; i++ {
		if to, _, cost := g.Turn(i); to == b {
			return cost
		}
	}
	return 0
}

package route

import (
	"math"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// A snapped point splits its segment's travel time. alongForward is the time
// from the segment's first node to the point travelling forward, and
// alongBackward the time from its last node to the point travelling
// backward; both are rounded once, so every way of combining the parts
// (source, target, direct) agrees to the millisecond.
func alongForward(g *graph.Graph, p snap.Result) uint32 {
	return uint32(math.Round(p.Frac * float64(g.WF[p.Seg])))
}

func alongBackward(g *graph.Graph, p snap.Result) uint32 {
	return uint32(math.Round((1 - p.Frac) * float64(g.WB[p.Seg])))
}

// Sources returns the seeds a search starts from at point p: the segment's
// last node if the profile may drive forward, its first node if backward.
func Sources(g *graph.Graph, p snap.Result, buf []search.Seed) []search.Seed {
	net := g.Net
	if w := g.WF[p.Seg]; w != graph.NoWay {
		buf = append(buf, search.Seed{Node: net.SegTo[p.Seg], Cost: w - alongForward(g, p)})
	}
	if w := g.WB[p.Seg]; w != graph.NoWay {
		buf = append(buf, search.Seed{Node: net.SegFrom[p.Seg], Cost: w - alongBackward(g, p)})
	}
	return buf
}

// Targets returns the seeds a search ends at for point p: the segment's
// first node if the profile may drive forward onto p, its last if backward.
func Targets(g *graph.Graph, p snap.Result, buf []search.Seed) []search.Seed {
	net := g.Net
	if g.WF[p.Seg] != graph.NoWay {
		buf = append(buf, search.Seed{Node: net.SegFrom[p.Seg], Cost: alongForward(g, p)})
	}
	if g.WB[p.Seg] != graph.NoWay {
		buf = append(buf, search.Seed{Node: net.SegTo[p.Seg], Cost: alongBackward(g, p)})
	}
	return buf
}

// Direct returns the cost of going from a to b along their common segment
// without passing a node, or search.Unreached when they are on different
// segments or the profile may not go that way.
func Direct(g *graph.Graph, a, b snap.Result) uint32 {
	if a.Seg != b.Seg {
		return search.Unreached
	}
	best := uint32(search.Unreached)
	if g.WF[a.Seg] != graph.NoWay && b.Frac >= a.Frac {
		best = alongForward(g, b) - alongForward(g, a)
	}
	if g.WB[a.Seg] != graph.NoWay && b.Frac <= a.Frac {
		best = min(best, alongBackward(g, b)-alongBackward(g, a))
	}
	return best
}

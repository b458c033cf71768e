package compare

import (
	"errors"
	"fmt"

	"github.com/mapsco/maps/pkg/graph"
)

// ErrNoCommonRoad means the two releases' road networks do not overlap at
// all (different countries, a truncated extract): every route would be
// unroutable on one side, and a report of zeros would hide why.
var ErrNoCommonRoad = errors.New("compare: the two releases have no road in common")

// span is the box of a network's nodes, in 1e-7 degrees.
type span struct{ west, south, east, north int32 }

func networkSpan(n *graph.Network) (span, bool) {
	if n.NumNodes() == 0 {
		return span{}, false
	}
	s := span{n.NodeCoord[0], n.NodeCoord[1], n.NodeCoord[0], n.NodeCoord[1]}
	for i := 0; i < len(n.NodeCoord); i += 2 {
		lon, lat := n.NodeCoord[i], n.NodeCoord[i+1]
		s.west, s.east = min(s.west, lon), max(s.east, lon)
		s.south, s.north = min(s.south, lat), max(s.north, lat)
	}
	return s, true
}

func (s span) String() string {
	return fmt.Sprintf("lon %.4f..%.4f, lat %.4f..%.4f",
		float64(s.west)*1e-7, float64(s.east)*1e-7, float64(s.south)*1e-7, float64(s.north)*1e-7)
}

// checkCommonRoad fails with ErrNoCommonRoad when the networks' boxes do
// not meet (or one has no road), naming both boxes.
func checkCommonRoad(old, new *graph.Network) error {
	a, okA := networkSpan(old)
	b, okB := networkSpan(new)
	switch {
	case !okA || !okB:
		return fmt.Errorf("%w: old has %d road nodes, new %d", ErrNoCommonRoad, old.NumNodes(), new.NumNodes())
	case a.east < b.west || b.east < a.west || a.north < b.south || b.north < a.south:
		return fmt.Errorf("%w: old's roads span %s, new's %s (are they the same country?)", ErrNoCommonRoad, a, b)
	}
	return nil
}

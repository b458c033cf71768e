package compile

import (
	"math"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/graph"
)

// mountain is a synthetic DEM: a 1000 m peak over x = 0.01°, 200 m ground
// elsewhere.
type mountain struct{}

func (mountain) At(lon, lat float64) (float64, bool) {
	return 200 + 1000*math.Exp(-math.Pow((lon-0.01)/0.003, 2)), true
}

// chain lays nodes along the equator at the given longitudes and joins
// consecutive ones with segments carrying flags[i].
func chain(lons []float64, flags []uint8) *graph.Network {
	net := &graph.Network{}
	for _, lon := range lons {
		net.NodeCoord = append(net.NodeCoord, geo.Fixed(lon), 0)
	}
	for i, f := range flags {
		net.SegFrom = append(net.SegFrom, uint32(i))
		net.SegTo = append(net.SegTo, uint32(i+1))
		net.SegFlags = append(net.SegFlags, f)
		net.SegLength = append(net.SegLength, float32(geo.Distance(lons[i], 0, lons[i+1], 0)))
	}
	return net
}

// TestTunnelAcrossSegments: a tunnel cut into three segments under the
// peak gets heights interpolated between its portals at every join, never
// the mountain's.
func TestTunnelAcrossSegments(t *testing.T) {
	lons := []float64{0, 0.004, 0.008, 0.012, 0.016, 0.02}
	net := chain(lons, []uint8{0, graph.FlagTunnel, graph.FlagTunnel, graph.FlagTunnel | graph.FlagToll, 0})
	h := structureHeights(net, mountain{})
	a, _ := mountain{}.At(lons[1], 0)
	b, _ := mountain{}.At(lons[4], 0)
	if h[1] != a || h[4] != b {
		t.Fatalf("portals %v %v, want the DEM's %v %v", h[1], h[4], a, b)
	}
	for v := 2; v <= 3; v++ {
		f := (lons[v] - lons[1]) / (lons[4] - lons[1])
		if want := a + f*(b-a); math.Abs(h[uint32(v)]-want) > 1e-6 {
			t.Errorf("join %d at %.0f m, want %.0f m (linear between portals)", v, h[uint32(v)], want)
		}
	}
	if _, ok := h[0]; ok {
		t.Error("a ground-only node got a structure height")
	}
}

// TestBranchingBridge: a bridge with three ends keeps every inner node
// within its portals' heights.
func TestBranchingBridge(t *testing.T) {
	net := chain([]float64{0, 0.004, 0.008, 0.012}, []uint8{graph.FlagBridge, graph.FlagBridge, graph.FlagBridge})
	// A spur from node 1 to a fifth node, also on the bridge.
	net.NodeCoord = append(net.NodeCoord, geo.Fixed(0.004), geo.Fixed(0.004))
	net.SegFrom, net.SegTo = append(net.SegFrom, 1), append(net.SegTo, 4)
	net.SegFlags = append(net.SegFlags, graph.FlagBridge)
	net.SegLength = append(net.SegLength, float32(geo.Distance(0.004, 0, 0.004, 0.004)))
	h := structureHeights(net, mountain{})
	lo, hi := math.Min(h[0], math.Min(h[3], h[4])), math.Max(h[0], math.Max(h[3], h[4]))
	for v := uint32(1); v <= 2; v++ {
		if h[v] < lo || h[v] > hi {
			t.Errorf("inner node %d at %.1f m outside the portals' %.1f..%.1f", v, h[v], lo, hi)
		}
	}
}

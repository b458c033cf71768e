package snap

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/graph"
)

// Fanout is how many pieces a node of the lowest level holds, and how many
// children any other node has. Eight boxes fill two cache lines; Andorra's
// 109,000 pieces then take six levels, and a snap cost a third less than
// with sixteen (docs/benchmarks-history.md, "Snapping anywhere").
const Fanout = 8

// Mask bits of a node, per profile.
const (
	maskUsable uint8 = 1 << iota // a piece below lies on a segment the profile may use
	maskMain                     // ... on one of its main component
)

// Index is the packed R-tree over every piece of the network's roads.
type Index struct {
	levels []uint32 // first node id of each level, then the number of nodes
	boxes  []int32  // 4 per node
	items  []uint32 // 2 per piece: segment, first shape point
	masks  map[string][]uint8
}

// Build indexes every piece of every segment of net, with the masks of
// each profile graph.
func Build(net *graph.Network, graphs []*graph.Graph) (*Index, error) {
	if len(graphs) > 0 && graphs[0].Net != net {
		return nil, fmt.Errorf("snap: graph %s is not over this network", graphs[0].Profile)
	}
	ix := &Index{items: sortedPieces(net), masks: make(map[string][]uint8, len(graphs))}
	ix.levels, ix.boxes = packLevels(net, ix.items)
	for _, g := range graphs {
		ix.masks[g.Profile] = ix.buildMask(g)
	}
	return ix, nil
}

// sortedPieces lists every piece along a Hilbert curve through its
// midpoint, ties broken by segment and point so that builds are identical.
func sortedPieces(net *graph.Network) []uint32 {
	type keyed struct {
		key     uint64
		seg, pt uint32
	}
	var pieces []keyed
	for s := range uint32(net.NumSegments()) {
		begin, end := net.Points(s)
		for pt := begin; pt+1 < end; pt++ {
			lon := (int64(net.GeomCoord[2*pt]) + int64(net.GeomCoord[2*pt+2])) / 2
			lat := (int64(net.GeomCoord[2*pt+1]) + int64(net.GeomCoord[2*pt+3])) / 2
			pieces = append(pieces, keyed{graph.HilbertKey(int32(lon), int32(lat)), s, pt})
		}
	}
	slices.SortFunc(pieces, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.seg, b.seg), cmp.Compare(a.pt, b.pt))
	})
	items := make([]uint32, 0, 2*len(pieces))
	for _, p := range pieces {
		items = append(items, p.seg, p.pt)
	}
	return items
}

// packLevels groups the pieces Fanout to a node, and the nodes Fanout to a
// parent, until one node remains, and returns each level's first node id
// and every node's box.
func packLevels(net *graph.Network, items []uint32) ([]uint32, []int32) {
	n := len(items) / 2
	if n == 0 {
		return []uint32{0}, nil
	}
	levels := []uint32{0}
	var boxes []int32
	for count := ceilDiv(n, Fanout); ; count = ceilDiv(count, Fanout) {
		levels = append(levels, levels[len(levels)-1]+uint32(count))
		if count == 1 {
			break
		}
	}
	boxes = make([]int32, 4*levels[len(levels)-1])
	for j := range ceilDiv(n, Fanout) {
		b := emptyBox()
		for i := j * Fanout; i < min(n, (j+1)*Fanout); i++ {
			pt := items[2*i+1]
			b = b.add(net.GeomCoord[2*pt], net.GeomCoord[2*pt+1]).add(net.GeomCoord[2*pt+2], net.GeomCoord[2*pt+3])
		}
		copy(boxes[4*j:], b[:])
	}
	for l := 1; l+1 < len(levels); l++ {
		below, at := levels[l-1], levels[l]
		for j := range levels[l+1] - at {
			b := emptyBox()
			for c := below + Fanout*j; c < min(at, below+Fanout*(j+1)); c++ {
				b = b.union(box(boxes[4*c : 4*c+4]))
			}
			copy(boxes[4*(at+j):], b[:])
		}
	}
	return levels, boxes
}

// buildMask marks, for profile graph g, the nodes above a piece of a
// segment g may use and of one on its main component.
func (ix *Index) buildMask(g *graph.Graph) []uint8 {
	levels := ix.levels
	mask := make([]uint8, levels[len(levels)-1])
	for i := range len(ix.items) / 2 {
		seg := ix.items[2*i]
		var m uint8
		if g.Usable(seg) {
			m = maskUsable
			if g.Big[seg] == 1 {
				m |= maskMain
			}
		}
		mask[i/Fanout] |= m
	}
	for l := 1; l+1 < len(levels); l++ {
		below, at := levels[l-1], levels[l]
		for c := below; c < at; c++ {
			mask[at+(c-below)/Fanout] |= mask[c]
		}
	}
	return mask
}

// box is min lon, min lat, max lon, max lat in 1e-7 degrees.
type box [4]int32

func emptyBox() box { return box{math.MaxInt32, math.MaxInt32, math.MinInt32, math.MinInt32} }

func (b box) add(lon, lat int32) box {
	return box{min(b[0], lon), min(b[1], lat), max(b[2], lon), max(b[3], lat)}
}

func (b box) union(o box) box {
	return box{min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3])}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

package graph

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/mapsco/maps/pkg/geo"
)

// rawSegment is a segment before nodes are renumbered.
type rawSegment struct {
	from, to     int64  // OSM node ids
	first, count uint32 // its points in the raw geometry
	way          uint32
	length       float64
}

// Build turns extracted ways into a Network and one Graph per profile, and
// reports what became of the restrictions. Identical input gives identical
// arrays: nothing depends on map order.
func Build(ctx context.Context, in Input) (*Network, []*Graph, *RestrictionStats, error) {
	var stats RestrictionStats
	if len(in.Profiles) == 0 || len(in.Profiles) > 32 {
		return nil, nil, nil, fmt.Errorf("graph: %d profiles, want 1 to 32", len(in.Profiles))
	}
	for i, w := range in.Ways {
		if len(w.Speeds) != len(in.Profiles) {
			return nil, nil, nil, fmt.Errorf("graph: way %d has speeds for %d profiles, want %d", i, len(w.Speeds), len(in.Profiles))
		}
	}
	isNode := markNodes(in)
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	segs, points, rawLim := splitWays(in, isNode)
	nodeIDs, index := numberNodes(segs, points)
	net, segWay, segLim := layoutNetwork(in, segs, points, nodeIDs, index, rawLim)
	net.Schedules, net.Zone = in.Schedules, in.Zone
	if net.Zone == nil {
		net.Zone = time.UTC
	}
	topo := newTopology(in, net, index, segWay)
	topo.segLim = segLim
	graphs := make([]*Graph, len(in.Profiles))
	for p := range in.Profiles {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		graphs[p] = buildProfile(in, net, p, topo, &stats)
	}
	return net, graphs, &stats, nil
}

// markNodes finds the OSM nodes that become graph nodes: way ends, nodes
// shared by several ways (or visited twice by one), barriers, and the
// neighbours of nodes missing from the extract, where a way is cut.
func markNodes(in Input) map[int64]bool {
	refs := make(map[int64]uint8)
	isNode := make(map[int64]bool)
	for _, w := range in.Ways {
		for i, id := range w.Nodes {
			if refs[id] < 2 {
				refs[id]++
			}
			if i == 0 || i == len(w.Nodes)-1 {
				isNode[id] = true
			}
			if _, _, ok := in.Coord(id); !ok {
				if i > 0 {
					isNode[w.Nodes[i-1]] = true
				}
				if i+1 < len(w.Nodes) {
					isNode[w.Nodes[i+1]] = true
				}
			}
		}
	}
	for id, n := range refs {
		if n >= 2 || in.Barrier(id) != 0 {
			isNode[id] = true
		}
	}
	return isNode
}

// splitWays cuts every way at graph nodes and at missing nodes. It also
// returns the limits of the barriers inside segments (not at their ends),
// by raw segment, for the few that have some.
func splitWays(in Input, isNode map[int64]bool) ([]rawSegment, []int32, map[uint32]Limits) {
	var segs []rawSegment
	var points []int32
	lims := map[uint32]Limits{}
	for wi, w := range in.Ways {
		start := -1 // index in w.Nodes of the open segment's first node
		var first uint32
		var length float64
		var lim Limits
		for i, id := range w.Nodes {
			lon, lat, ok := in.Coord(id)
			if !ok {
				start, lim = -1, Limits{}
				continue
			}
			if start >= 0 && !isNode[id] && in.NodeLimits != nil {
				lim = lim.Meet(in.NodeLimits(id))
			}
			if start >= 0 {
				plon, plat := points[len(points)-2], points[len(points)-1]
				length += geo.Distance(geo.Degrees(plon), geo.Degrees(plat), geo.Degrees(lon), geo.Degrees(lat))
			}
			points = append(points, lon, lat)
			if start < 0 {
				start, first, length = i, uint32(len(points)/2-1), 0
				continue
			}
			if isNode[id] {
				if !lim.Empty() {
					lims[uint32(len(segs))], lim = lim, Limits{}
				}
				segs = append(segs, rawSegment{from: w.Nodes[start], to: id, first: first, count: uint32(len(points)/2) - first, way: uint32(wi), length: length})
				// The end node opens the next segment, with its own copy of
				// the point so that every segment's shape is contiguous.
				points = append(points, lon, lat)
				start, first, length = i, uint32(len(points)/2-1), 0
			}
		}
	}
	return segs, points, lims
}

// numberNodes gives the segments' end nodes dense ids along a Hilbert curve.
func numberNodes(segs []rawSegment, points []int32) ([]int64, map[int64]uint32) {
	type keyed struct {
		key uint64
		id  int64
	}
	seen := make(map[int64]bool)
	var nodes []keyed
	add := func(id int64, pt uint32) {
		if !seen[id] {
			seen[id] = true
			nodes = append(nodes, keyed{HilbertKey(points[2*pt], points[2*pt+1]), id})
		}
	}
	for _, s := range segs {
		add(s.from, s.first)
		add(s.to, s.first+s.count-1)
	}
	slices.SortFunc(nodes, func(a, b keyed) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.id, b.id)
	})
	ids := make([]int64, len(nodes))
	index := make(map[int64]uint32, len(nodes))
	for i, n := range nodes {
		ids[i] = n.id
		index[n.id] = uint32(i)
	}
	return ids, index
}

// layoutNetwork orders segments by their first node, so a node's segments
// and their shapes sit together, and fills the shared arrays. It also
// returns each segment's way, which the profiles need for speeds, and
// rawLim by the segments' new numbers.
func layoutNetwork(in Input, segs []rawSegment, points []int32, nodeIDs []int64, index map[int64]uint32, rawLim map[uint32]Limits) (*Network, []uint32, map[uint32]Limits) {
	order := make([]int, len(segs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := cmp.Compare(uint64(index[segs[a].from]), uint64(index[segs[b].from])); d != 0 {
			return d
		}
		return cmp.Compare(uint64(index[segs[a].to]), uint64(index[segs[b].to]))
	})
	n := len(segs)
	net := &Network{
		NodeCoord: make([]int32, 2*len(nodeIDs)),
		SegFrom:   make([]uint32, n), SegTo: make([]uint32, n),
		SegGeom: make([]uint32, n+1), SegLength: make([]float32, n),
		SegName: make([]uint32, n), SegRef: make([]uint32, n),
		SegClass: make([]uint8, n), SegFlags: make([]uint8, n),
		SegWay: make([]int64, n), SegSign: make([]uint32, n), SegHiking: make([]uint8, n),
	}
	strs := newStringTable()
	classes := map[string]uint8{"": 0}
	net.Classes = []string{""}
	segWay := make([]uint32, n)
	segLim := make(map[uint32]Limits, len(rawLim))
	for i, si := range order {
		s := segs[si]
		segWay[i] = s.way
		if l, ok := rawLim[uint32(si)]; ok {
			segLim[uint32(i)] = l
		}
		w := &in.Ways[s.way]
		net.SegFrom[i], net.SegTo[i] = index[s.from], index[s.to]
		net.SegGeom[i] = uint32(len(net.GeomCoord) / 2)
		net.GeomCoord = append(net.GeomCoord, points[2*s.first:2*(s.first+s.count)]...)
		net.SegLength[i] = float32(s.length)
		net.SegName[i], net.SegRef[i] = strs.id(w.Name), strs.id(w.Ref)
		net.SegWay[i], net.SegSign[i] = w.ID, strs.id(w.Signpost.encode())
		net.SegFlags[i], net.SegHiking[i] = w.Flags, w.Hiking
		c, ok := classes[w.Class]
		if !ok && len(net.Classes) < 256 {
			c = uint8(len(net.Classes))
			classes[w.Class] = c
			net.Classes = append(net.Classes, w.Class)
		}
		net.SegClass[i] = c
		for _, end := range [2]struct{ node, pt uint32 }{{net.SegFrom[i], s.first}, {net.SegTo[i], s.first + s.count - 1}} {
			net.NodeCoord[2*end.node], net.NodeCoord[2*end.node+1] = points[2*end.pt], points[2*end.pt+1]
		}
	}
	net.SegGeom[n] = uint32(len(net.GeomCoord) / 2)
	net.Strings = strs.tab
	return net, segWay, segLim
}

// travelTime converts a length and a speed to whole milliseconds.
func travelTime(lengthM float64, kph float32) uint32 {
	if kph <= 0 {
		return NoWay
	}
	ms := math.Round(lengthM / (float64(kph) / 3.6) * 1000)
	return uint32(min(ms, NoWay-1))
}

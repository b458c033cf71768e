package compile

import (
	"container/heap"
	"maps"
	"slices"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
)

// structureHeights gives the nodes of bridges and tunnels a height that
// never comes from the DEM under a bridge or over a tunnel.
//
// A structure is often cut into several segments: OSM splits a tunnel where
// lanes or names change, and every junction inside it is a node. Profiling
// each segment on its own would read the joins from the DEM, i.e. from the
// mountain. So connected bridge and tunnel segments form one structure; its
// portals are the nodes where it meets a ground segment (or ends), and they
// take the DEM's height. Every other node takes the inverse-distance mean of
// the portal heights, distances measured through the structure: along a
// simple chain with two portals that is exactly the linear interpolation by
// distance that pkg/elevation applies within one line, and a branching
// tunnel still gets a smooth, bounded surface.
//
// Nodes of a structure with no portal in coverage are left out; their
// segments fall back to their own end heights.
func structureHeights(net *graph.Network, dem elevation.Sampler) map[uint32]float64 {
	adj := structureAdjacency(net)
	ground := map[uint32]bool{}
	for s := range net.NumSegments() {
		if isStructure(net.SegFlags[s]) {
			continue
		}
		for _, v := range [2]uint32{net.SegFrom[s], net.SegTo[s]} {
			if _, ok := adj[v]; ok {
				ground[v] = true
			}
		}
	}
	// Visit structures and their portals in node order: the sums below are
	// floating point, and the build must be byte-for-byte repeatable.
	starts := slices.Sorted(maps.Keys(adj))
	heights := make(map[uint32]float64, len(adj))
	seen := map[uint32]bool{}
	for _, v := range starts {
		if !seen[v] {
			nodes := component(adj, v, seen)
			slices.Sort(nodes)
			interpolateStructure(nodes, adj, ground, net, dem, heights)
		}
	}
	return heights
}

// link is one structure segment seen from one of its nodes.
type link struct {
	to     uint32
	length float64
}

// structureAdjacency links the end nodes of every bridge and tunnel segment.
func structureAdjacency(net *graph.Network) map[uint32][]link {
	adj := map[uint32][]link{}
	for s := range net.NumSegments() {
		if !isStructure(net.SegFlags[s]) {
			continue
		}
		a, b, l := net.SegFrom[s], net.SegTo[s], float64(net.SegLength[s])
		adj[a] = append(adj[a], link{b, l})
		adj[b] = append(adj[b], link{a, l})
	}
	return adj
}

// component lists the nodes connected to v through structure segments.
func component(adj map[uint32][]link, v uint32, seen map[uint32]bool) []uint32 {
	nodes := []uint32{v}
	seen[v] = true
	for i := 0; i < len(nodes); i++ {
		for _, e := range adj[nodes[i]] {
			if !seen[e.to] {
				seen[e.to] = true
				nodes = append(nodes, e.to)
			}
		}
	}
	return nodes
}

// interpolateStructure sets the heights of one structure's nodes.
func interpolateStructure(nodes []uint32, adj map[uint32][]link, ground map[uint32]bool, net *graph.Network,
	dem elevation.Sampler, heights map[uint32]float64) {
	sumW := make(map[uint32]float64, len(nodes))
	sumWH := make(map[uint32]float64, len(nodes))
	exact := map[uint32]float64{}
	for _, p := range nodes {
		if !ground[p] && len(adj[p]) > 1 {
			continue // not a portal
		}
		h, ok := dem.At(net.Node(p))
		if !ok {
			continue
		}
		exact[p] = h
		for v, d := range distancesFrom(p, adj) {
			if d > 0 {
				sumW[v] += 1 / d
				sumWH[v] += h / d
			}
		}
	}
	if len(exact) == 0 {
		return
	}
	for _, v := range nodes {
		if h, ok := exact[v]; ok {
			heights[v] = h
		} else if sumW[v] > 0 {
			heights[v] = sumWH[v] / sumW[v]
		}
	}
}

// distancesFrom runs Dijkstra from src over the structure segments.
func distancesFrom(src uint32, adj map[uint32][]link) map[uint32]float64 {
	dist := map[uint32]float64{src: 0}
	q := &nodeQueue{{src, 0}}
	for q.Len() > 0 {
		it := heap.Pop(q).(queued)
		if it.d > dist[it.v] {
			continue // a stale entry
		}
		for _, e := range adj[it.v] {
			nd := it.d + e.length
			if old, ok := dist[e.to]; !ok || nd < old {
				dist[e.to] = nd
				heap.Push(q, queued{e.to, nd})
			}
		}
	}
	return dist
}

type queued struct {
	v uint32
	d float64
}

// nodeQueue is a binary heap of nodes by distance (container/heap).
type nodeQueue []queued

func (q nodeQueue) Len() int           { return len(q) }
func (q nodeQueue) Less(i, j int) bool { return q[i].d < q[j].d }
func (q nodeQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *nodeQueue) Push(x any)        { *q = append(*q, x.(queued)) }
func (q *nodeQueue) Pop() any {
	old := *q
	it := old[len(old)-1]
	*q = old[:len(old)-1]
	return it
}

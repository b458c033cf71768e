package main

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/osm"
)

// carClasses are the highway values whose nodes are drawn as "routable car pairs" (loadgen's list).
var carClasses = []string{"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
	"motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link", "living_street"}

// index is what the comparison needs of the PBF: every highway way's tags and nodes, the nodes' positions,
// positions back to node ids (at polyline6 precision) and node pairs back to the way joining them.
type index struct {
	ways    map[int64]*osm.Way
	pos     map[int64][2]float64 // lon, lat
	byPos   map[[2]int32]int64   // position rounded to 1e-6 degree -> node id
	pairWay map[[2]int64]int64   // consecutive nodes (either order) -> way id
	degree  map[int64]uint16     // node -> highway segments that meet there
	carNode []int64              // nodes of car-class ways, sorted
	bbox    [4]float64           // min lon, min lat, max lon, max lat of carNode
	// Only withLinks (the U-turn and bearing checks): the highway segments at each node, and the nodes
	// where a vehicle may turn round though the road goes on (barriers, turning circles).
	links    map[int64][]link
	stopNode map[int64]bool
}

func key6(lon, lat float64) [2]int32 {
	return [2]int32{int32(math.Round(lon * 1e6)), int32(math.Round(lat * 1e6))}
}

func loadIndex(ctx context.Context, path string, withLinks bool) (*index, error) {
	ix := &index{ways: map[int64]*osm.Way{}, pos: map[int64][2]float64{}, byPos: map[[2]int32]int64{}, pairWay: map[[2]int64]int64{}, degree: map[int64]uint16{}}
	if withLinks {
		ix.links, ix.stopNode = map[int64][]link{}, map[int64]bool{}
	}
	car := map[int64]struct{}{}
	var segs []groupSeg
	err := osm.Scan(ctx, path, osm.Handlers{Way: func(w *osm.Way) error {
		if w.Tags["highway"] == "" || len(w.NodeIDs) < 2 {
			return nil
		}
		ix.ways[w.ID] = w
		for i, id := range w.NodeIDs {
			ix.pos[id] = [2]float64{}
			if i > 0 {
				a, b := w.NodeIDs[i-1], id
				ix.pairWay[[2]int64{min(a, b), max(a, b)}] = w.ID
				ix.degree[a]++
				ix.degree[b]++
				if withLinks {
					segs = append(segs, groupSeg{a, b, w.ID})
				}
			}
		}
		if slices.Contains(carClasses, w.Tags["highway"]) && w.Tags["access"] != "private" && w.Tags["access"] != "no" {
			for _, id := range w.NodeIDs {
				car[id] = struct{}{}
			}
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("index %s: ways: %w", path, err)
	}
	err = osm.Scan(ctx, path, osm.Handlers{Node: func(n *osm.Node) error {
		if _, ok := ix.pos[n.ID]; ok {
			ix.pos[n.ID] = [2]float64{n.Lon, n.Lat}
			ix.byPos[key6(n.Lon, n.Lat)] = n.ID
			if ix.stopNode != nil && (n.Tags["barrier"] != "" || n.Tags["highway"] == "turning_circle" || n.Tags["highway"] == "turning_loop") {
				ix.stopNode[n.ID] = true
			}
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("index %s: nodes: %w", path, err)
	}
	// A segment counts at a node only when both its nodes are in the extract: a way cut at the extract's
	// border ends there for both engines.
	// (A node the extract lacks keeps the zero position it was listed with; two nodes may share a position,
	// so byPos cannot tell.)
	for _, s := range segs {
		if ix.pos[s.a] != ([2]float64{}) && ix.pos[s.b] != ([2]float64{}) {
			ix.links[s.a] = append(ix.links[s.a], link{s.b, s.way})
			ix.links[s.b] = append(ix.links[s.b], link{s.a, s.way})
		}
	}
	ix.bbox = [4]float64{180, 90, -180, -90}
	for id := range car {
		ix.carNode = append(ix.carNode, id)
		p := ix.pos[id]
		ix.bbox = [4]float64{min(ix.bbox[0], p[0]), min(ix.bbox[1], p[1]), max(ix.bbox[2], p[0]), max(ix.bbox[3], p[1])}
	}
	slices.Sort(ix.carNode)
	return ix, nil
}

// wayUse is one way a route runs along, with the metres it runs on it.
type wayUse struct {
	ID     int64   `json:"id"`
	Len    float64 `json:"m"`
	Tags   string  `json:"tags"`
	OurKmh float64 `json:"our_kmh"`  // our profile's speed in the direction travelled (0: refused)
	OSKmh  float64 `json:"osrm_kmh"` // car.lua's speed as osrmSpeed approximates it (0: refused)
}

// waysOf turns a node sequence into the ways it runs along, merging consecutive segments of one way.
func (ix *index) waysOf(nodes []int64, sp speeds) []wayUse {
	var out []wayUse
	for i := 1; i < len(nodes); i++ {
		a, b := nodes[i-1], nodes[i]
		wid, ok := ix.pairWay[[2]int64{min(a, b), max(a, b)}]
		if !ok {
			continue
		}
		pa, pb := ix.pos[a], ix.pos[b]
		d := haversine(pa, pb)
		if n := len(out); n > 0 && out[n-1].ID == wid {
			out[n-1].Len += d
			continue
		}
		w := ix.ways[wid]
		fwd := alongWay(w.NodeIDs, a, b)
		out = append(out, wayUse{ID: wid, Len: d, Tags: summary(w.Tags), OurKmh: sp.ours(w.Tags, fwd), OSKmh: osrmSpeed(w.Tags, fwd)})
	}
	return out
}

// uTurns counts where a node sequence turns straight back (a, b, a) at a node where more than one segment
// meets: the U-turns car.lua's intersection analysis does not allow (it allows them at dead ends).
func (ix *index) uTurns(nodes []int64) int {
	n := 0
	for i := 2; i < len(nodes); i++ {
		if nodes[i] == nodes[i-2] && ix.degree[nodes[i-1]] > 1 {
			n++
		}
	}
	return n
}

// alongWay reports whether the step a -> b follows the way's node order (a closed way, a roundabout, has its
// first node twice: the step is looked for, not the nodes' first positions).
func alongWay(nodes []int64, a, b int64) bool {
	for i := 1; i < len(nodes); i++ {
		if nodes[i-1] == a && nodes[i] == b {
			return true
		}
	}
	return false
}

// nodesOfGeometry maps a decoded polyline6 geometry back to node ids; points that are no node (the snapped
// ends) are dropped.
func (ix *index) nodesOfGeometry(pts [][2]float64) []int64 {
	var out []int64
	for _, p := range pts {
		if id, ok := ix.byPos[key6(p[0], p[1])]; ok && (len(out) == 0 || out[len(out)-1] != id) {
			out = append(out, id)
		}
	}
	return out
}

func haversine(a, b [2]float64) float64 {
	const r = 6371008.8
	la1, la2 := a[1]*math.Pi/180, b[1]*math.Pi/180
	dla, dlo := la2-la1, (b[0]-a[0])*math.Pi/180
	h := math.Sin(dla/2)*math.Sin(dla/2) + math.Cos(la1)*math.Cos(la2)*math.Sin(dlo/2)*math.Sin(dlo/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(h)))
}

// summaryKeys are the tags that decide a car's access and speed in either profile.
var summaryKeys = []string{"highway", "ref", "name", "maxspeed", "maxspeed:type", "source:maxspeed", "surface", "tracktype", "smoothness",
	"access", "vehicle", "motor_vehicle", "motorcar", "oneway", "junction", "service", "lanes", "width", "toll", "route", "4wd_only", "maxheight"}

func summary(tags map[string]string) string {
	s := ""
	for _, k := range summaryKeys {
		if v, ok := tags[k]; ok {
			if s != "" {
				s += " "
			}
			s += k + "=" + v
		}
	}
	return s
}

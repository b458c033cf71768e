package synth

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/osm"
)

// source is one extract reduced to what routing reads, with nodes, ways and
// relations numbered locally (0, 1, … in original id order). A tile copies
// it with offsets added to coordinates and ids.
type source struct {
	path     string
	coord    []int32          // 2 per node: lon, lat in 1e-7 degrees
	nodeTags map[int32][]Tag  // kept tags of the few nodes that have any
	ways     []sourceWay      // highway=* ways, in original id order
	rels     []sourceRelation // type=restriction relations with all members kept
	bbox     [4]int32         // min lon, min lat, max lon, max lat of the nodes
	ends     [4]int32         // connector nodes: east, west, north, south
}

type sourceWay struct {
	refs []int32 // local node indices
	tags []Tag
}

type sourceRelation struct {
	members []sourceMember
	tags    []Tag
}

type sourceMember struct {
	typ   string // "n" or "w"
	local int32  // local node or way index
	role  string
}

// numNodes is the number of routable nodes (nodes of highway ways).
func (s *source) numNodes() int { return len(s.coord) / 2 }

// rawWay and rawRelation hold original ids until the nodes are known.
type rawWay struct {
	id   int64
	refs []int64
	tags []Tag
}

type rawRelation struct {
	id      int64
	members []osm.Member
	tags    []Tag
}

// loadSource reads path twice: highway ways and restrictions first, then the
// nodes those ways reference.
func loadSource(ctx context.Context, path string) (*source, error) {
	var ways []rawWay
	var rels []rawRelation
	needed := map[int64]struct{}{}
	err := osm.Scan(ctx, path, osm.Handlers{
		Way: func(w *osm.Way) error {
			if w.Tags["highway"] == "" || len(w.NodeIDs) < 2 {
				return nil
			}
			ways = append(ways, rawWay{w.ID, w.NodeIDs, sortedTags(w.Tags)})
			for _, id := range w.NodeIDs {
				needed[id] = struct{}{}
			}
			return nil
		},
		Relation: func(r *osm.Relation) error {
			if r.Tags["type"] == "restriction" {
				rels = append(rels, rawRelation{r.ID, r.Members, sortedTags(r.Tags)})
			}
			return nil
		},
	})
	if err != nil {
		return nil, fmt.Errorf("synth: read ways of %s: %w", path, err)
	}
	s := &source{path: path, nodeTags: map[int32][]Tag{}}
	nodeIndex, err := s.readNodes(ctx, needed)
	if err != nil {
		return nil, err
	}
	if s.numNodes() == 0 {
		return nil, fmt.Errorf("synth: %s has no highway ways", path)
	}
	wayIndex := s.addWays(ways, nodeIndex)
	s.addRelations(rels, nodeIndex, wayIndex)
	s.bbox = bounds(s.coord)
	return s, nil
}

// readNodes keeps the needed nodes in id order and returns original id →
// local index.
func (s *source) readNodes(ctx context.Context, needed map[int64]struct{}) (map[int64]int32, error) {
	type node struct {
		id       int64
		lon, lat int32
		tags     []Tag
	}
	nodes := make([]node, 0, len(needed))
	err := osm.Scan(ctx, s.path, osm.Handlers{Node: func(n *osm.Node) error {
		if _, ok := needed[n.ID]; ok {
			nodes = append(nodes, node{n.ID, geo.Fixed(n.Lon), geo.Fixed(n.Lat), routingNodeTags(n.Tags)})
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("synth: read nodes of %s: %w", s.path, err)
	}
	slices.SortFunc(nodes, func(a, b node) int { return cmp.Compare(a.id, b.id) })
	index := make(map[int64]int32, len(nodes))
	s.coord = make([]int32, 0, 2*len(nodes))
	for i, n := range nodes {
		index[n.id] = int32(i)
		s.coord = append(s.coord, n.lon, n.lat)
		if len(n.tags) > 0 {
			s.nodeTags[int32(i)] = n.tags
		}
	}
	return index, nil
}

// addWays keeps ways in id order. A ref missing from the file (a way cut by
// the extract's border) is dropped; a way left with fewer than two nodes is
// dropped whole. It returns original way id → local index.
func (s *source) addWays(ways []rawWay, nodeIndex map[int64]int32) map[int64]int32 {
	slices.SortFunc(ways, func(a, b rawWay) int { return cmp.Compare(a.id, b.id) })
	index := make(map[int64]int32, len(ways))
	for _, w := range ways {
		refs := make([]int32, 0, len(w.refs))
		for _, id := range w.refs {
			if i, ok := nodeIndex[id]; ok {
				refs = append(refs, i)
			}
		}
		if len(refs) < 2 {
			continue
		}
		index[w.id] = int32(len(s.ways))
		s.ways = append(s.ways, sourceWay{refs, w.tags})
	}
	return index
}

// addRelations keeps restrictions whose members are all kept nodes and ways;
// one with a missing member would dangle in the output.
func (s *source) addRelations(rels []rawRelation, nodeIndex, wayIndex map[int64]int32) {
	slices.SortFunc(rels, func(a, b rawRelation) int { return cmp.Compare(a.id, b.id) })
next:
	for _, r := range rels {
		members := make([]sourceMember, len(r.members))
		for i, m := range r.members {
			var local int32
			var ok bool
			switch m.Type {
			case osm.NodeMember:
				local, ok = nodeIndex[m.ID]
				members[i] = sourceMember{"n", local, m.Role}
			case osm.WayMember:
				local, ok = wayIndex[m.ID]
				members[i] = sourceMember{"w", local, m.Role}
			}
			if !ok {
				continue next
			}
		}
		s.rels = append(s.rels, sourceRelation{members, r.tags})
	}
}

// routingNodeTags returns the tags of a node that routing may read (barriers,
// signals, level crossings, traffic calming), sorted, or nil.
func routingNodeTags(tags map[string]string) []Tag {
	for _, k := range []string{"barrier", "highway", "railway", "traffic_calming"} {
		if tags[k] != "" {
			return sortedTags(tags)
		}
	}
	return nil
}

// sortedTags returns tags sorted by key: maps iterate in random order, and
// the output must not.
func sortedTags(tags map[string]string) []Tag {
	out := make([]Tag, 0, len(tags))
	for k, v := range tags {
		out = append(out, Tag{k, v})
	}
	slices.SortFunc(out, func(a, b Tag) int { return strings.Compare(a.Key, b.Key) })
	return out
}

func bounds(coord []int32) [4]int32 {
	b := [4]int32{coord[0], coord[1], coord[0], coord[1]}
	for i := 0; i < len(coord); i += 2 {
		b[0], b[1] = min(b[0], coord[i]), min(b[1], coord[i+1])
		b[2], b[3] = max(b[2], coord[i]), max(b[3], coord[i+1])
	}
	return b
}

// DefaultSources lists the extracts tiled when none are given: Andorra,
// Liechtenstein, Monaco and every city extract under dataDir/cities, in that
// order (cities sorted by name).
func DefaultSources(dataDir string) ([]string, error) {
	cities, err := filepath.Glob(filepath.Join(dataDir, "cities", "*.pbf"))
	if err != nil {
		return nil, fmt.Errorf("synth: list %s/cities: %w", dataDir, err)
	}
	slices.Sort(cities)
	out := []string{}
	for _, n := range []string{"andorra.osm.pbf", "liechtenstein.osm.pbf", "monaco.osm.pbf"} {
		out = append(out, filepath.Join(dataDir, n))
	}
	return append(out, cities...), nil
}

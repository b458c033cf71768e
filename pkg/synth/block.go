package synth

import (
	"fmt"

	"github.com/qedus/osmpbf/OSMPBF"
	"google.golang.org/protobuf/proto"
)

// blockBuilder accumulates one PrimitiveBlock of a single kind: DenseNodes
// (ids, lats and lons delta-coded), or ways, or relations, with the block's
// string table in first-use order.
type blockBuilder struct {
	entities, bytes int
	strings         []string
	index           map[string]uint32

	dense           *OSMPBF.DenseNodes
	prevID          int64
	prevLat, prevLn int64
	anyNodeTags     bool

	ways []*OSMPBF.Way
	rels []*OSMPBF.Relation
}

func (b *blockBuilder) reset() {
	b.entities, b.bytes = 0, 0
	b.strings = append(b.strings[:0], "") // index 0 is reserved
	b.index = map[string]uint32{"": 0}
	b.dense = &OSMPBF.DenseNodes{}
	b.prevID, b.prevLat, b.prevLn, b.anyNodeTags = 0, 0, 0, false
	b.ways, b.rels = nil, nil
}

func (b *blockBuilder) str(s string) uint32 {
	if i, ok := b.index[s]; ok {
		return i
	}
	i := uint32(len(b.strings))
	b.strings = append(b.strings, s)
	b.index[s] = i
	return i
}

func (b *blockBuilder) addNode(id int64, lon, lat int32, tags []Tag) {
	d := b.dense
	d.Id = append(d.Id, id-b.prevID)
	d.Lat = append(d.Lat, int64(lat)-b.prevLat)
	d.Lon = append(d.Lon, int64(lon)-b.prevLn)
	b.prevID, b.prevLat, b.prevLn = id, int64(lat), int64(lon)
	for _, t := range tags {
		d.KeysVals = append(d.KeysVals, int32(b.str(t.Key)), int32(b.str(t.Value)))
	}
	d.KeysVals = append(d.KeysVals, 0)
	b.anyNodeTags = b.anyNodeTags || len(tags) > 0
}

func (b *blockBuilder) tags(tags []Tag) (keys, vals []uint32) {
	keys, vals = make([]uint32, len(tags)), make([]uint32, len(tags))
	for i, t := range tags {
		keys[i], vals[i] = b.str(t.Key), b.str(t.Value)
	}
	return keys, vals
}

func (b *blockBuilder) addWay(id int64, refs []int64, tags []Tag) {
	w := &OSMPBF.Way{Id: proto.Int64(id), Refs: make([]int64, len(refs))}
	w.Keys, w.Vals = b.tags(tags)
	var prev int64
	for i, r := range refs {
		w.Refs[i], prev = r-prev, r
	}
	b.ways = append(b.ways, w)
}

func (b *blockBuilder) addRelation(id int64, members []Member, tags []Tag) error {
	r := &OSMPBF.Relation{Id: proto.Int64(id)}
	r.Keys, r.Vals = b.tags(tags)
	var prev int64
	for _, m := range members {
		var t OSMPBF.Relation_MemberType
		switch m.Type {
		case "n":
			t = OSMPBF.Relation_NODE
		case "w":
			t = OSMPBF.Relation_WAY
		case "r":
			t = OSMPBF.Relation_RELATION
		default:
			return fmt.Errorf("synth: pbf: relation %d: member type %q is not n, w or r", id, m.Type)
		}
		r.Types = append(r.Types, t)
		r.Memids = append(r.Memids, m.ID-prev)
		r.RolesSid = append(r.RolesSid, int32(b.str(m.Role)))
		prev = m.ID
	}
	b.rels = append(b.rels, r)
	return nil
}

// build returns the PrimitiveBlock (granularity 100 nanodegrees, no
// offsets, no metadata).
func (b *blockBuilder) build() *OSMPBF.PrimitiveBlock {
	g := &OSMPBF.PrimitiveGroup{}
	switch {
	case len(b.dense.Id) > 0:
		if !b.anyNodeTags {
			b.dense.KeysVals = nil // all-zero delimiters carry nothing
		}
		g.Dense = b.dense
	case len(b.ways) > 0:
		g.Ways = b.ways
	default:
		g.Relations = b.rels
	}
	return &OSMPBF.PrimitiveBlock{
		Stringtable:    &OSMPBF.StringTable{S: b.strings},
		Primitivegroup: []*OSMPBF.PrimitiveGroup{g},
	}
}

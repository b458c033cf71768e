package tiles

import (
	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"
	"github.com/paulmach/orb/maptile"
)

// segments returns the segments a tile draws: those of a class shown at its
// zoom with a piece within the tile or its buffer, in a fixed order. Where
// the tile holds the whole grid (low zooms) it reads every segment instead
// of every cell, which lists long pieces many times.
func (s *Source) segments(t maptile.Tile) []uint32 {
	b := t.Bound(buffer / float64(Extent))
	z := uint8(t.Z)
	var out []uint32
	if s.ix.CoversAll(b.Min[0], b.Min[1], b.Max[0], b.Max[1]) {
		for seg := range uint32(s.net.NumSegments()) {
			if s.shown(seg, z) {
				out = append(out, seg)
			}
		}
		return out
	}
	seen := map[uint32]bool{}
	s.ix.Within(b.Min[0], b.Min[1], b.Max[0], b.Max[1], func(seg, _ uint32) {
		if !seen[seg] && s.shown(seg, z) {
			seen[seg] = true
			out = append(out, seg)
		}
	})
	return out
}

// shown reports whether segment seg is drawn at zoom z.
func (s *Source) shown(seg uint32, z uint8) bool {
	return s.minZoom[s.net.SegClass[seg]] <= z
}

// features turns segments into lines in degrees with their properties.
func (s *Source) features(segs []uint32) []*geojson.Feature {
	out := make([]*geojson.Feature, 0, len(segs))
	for _, seg := range segs {
		begin, end := s.net.Points(seg)
		line := make(orb.LineString, 0, end-begin)
		for i := begin; i < end; i++ {
			lon, lat := s.net.Point(i)
			line = append(line, orb.Point{lon, lat})
		}
		f := geojson.NewFeature(line)
		f.ID = seg
		f.Properties["class"] = s.net.Class(seg)
		if name := s.net.Name(seg); name != "" {
			f.Properties["name"] = name
		}
		if ref := s.net.Ref(seg); ref != "" {
			f.Properties["ref"] = ref
		}
		out = append(out, f)
	}
	return out
}

// Package tiles draws a release's road network as Mapbox Vector Tiles (MVT
// 2.1, XYZ scheme, Web Mercator), so that a map of the release shows exactly
// what the router sees, offline, on any release.
//
// Each tile has one layer, "roads": a line per segment (the piece of an OSM
// way between two junctions) with its feature id, the segment id, and the
// properties
//
//	class   the OSM highway value (motorway, residential, footway, ...)
//	name    the road's name, when it has one
//	ref     the road's reference (e.g. CG-2), when it has one
//
// Minor classes appear only from the zoom at which a map can show them
// (zoom.go), so low-zoom tiles stay small. Segments are found through the
// snap grid and drawn from the network's shapes, both read in place from
// the release's mapping; nothing is prepared at start-up.
//
// A Source is safe for concurrent use and valid until the release it views
// is closed. Encoding a tile allocates its features and its bytes: tiles
// are for the playground page, not a hot path.
package tiles

import (
	"errors"
	"fmt"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/encoding/mvt"
	"github.com/paulmach/orb/maptile"
	"github.com/paulmach/orb/simplify"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/snap"
)

// Layer is the name of the tiles' one layer.
const Layer = "roads"

// Extent is the tiles' coordinate range per side, the MVT default.
const Extent = 4096

// buffer is how far, in tile units, lines are drawn beyond a tile's edge,
// so that a line's width and joins are whole where two tiles meet.
const buffer = 64

// MaxZoom is the deepest zoom the tiles add detail at; clients draw deeper
// zooms from these tiles (overzooming), so deeper requests are refused.
const MaxZoom = 14

// ErrNoTile means the tile coordinates do not name a tile.
var ErrNoTile = errors.New("tiles: no such tile")

// Source draws one release's network.
type Source struct {
	net     *graph.Network
	ix      *snap.Index
	minZoom []uint8 // per class index: the first zoom that draws it
}

// New returns a Source over a release's network and its snap grid.
func New(net *graph.Network, ix *snap.Index) *Source {
	s := &Source{net: net, ix: ix, minZoom: make([]uint8, len(net.Classes))}
	for i, c := range net.Classes {
		s.minZoom[i] = MinZoom(c)
	}
	return s
}

// Bounds returns the box holding every road, in degrees.
func (s *Source) Bounds() orb.Bound {
	minLon, minLat, maxLon, maxLat := s.ix.Bounds()
	return orb.Bound{Min: orb.Point{minLon, minLat}, Max: orb.Point{maxLon, maxLat}}
}

// Encode returns tile t as an uncompressed MVT; a tile holding no road is
// valid and empty. Tiles deeper than MaxZoom or outside the zoom's range
// are refused with ErrNoTile.
func (s *Source) Encode(t maptile.Tile) ([]byte, error) {
	if t.Z > MaxZoom || !t.Valid() {
		return nil, fmt.Errorf("%w: %d/%d/%d (zoom 0 to %d, x and y below 2^zoom)", ErrNoTile, t.Z, t.X, t.Y, MaxZoom)
	}
	l := &mvt.Layer{Name: Layer, Version: 2, Extent: Extent, Features: s.features(s.segments(t))}
	l.ProjectToTile(t)
	l.Clip(orb.Bound{Min: orb.Point{-buffer, -buffer}, Max: orb.Point{Extent + buffer, Extent + buffer}})
	// Points closer than a tile unit (1/16 of a pixel on a 256-pixel tile)
	// add bytes and nothing a screen can show.
	l.Simplify(simplify.DouglasPeucker(1))
	l.RemoveEmpty(1, 0)
	b, err := mvt.Marshal(mvt.Layers{l})
	if err != nil {
		return nil, fmt.Errorf("tiles: encode %d/%d/%d: %w", t.Z, t.X, t.Y, err)
	}
	return b, nil
}

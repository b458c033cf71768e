package elevation

import (
	"fmt"

	"github.com/mapsco/maps/pkg/artifact"
)

// grid is one tile's posts while it is being built: (nLat+1)×(nLon+1) stored
// heights, row-major, row 0 on the north edge and column 0 on the west edge.
type grid struct {
	lat, lon   int32
	nLat, nLon int32
	v          []uint16
}

func newGrid(lat, lon, nLat, nLon int32) *grid {
	v := make([]uint16, int(nLat+1)*int(nLon+1))
	for i := range v {
		v[i] = NoData
	}
	return &grid{lat: lat, lon: lon, nLat: nLat, nLon: nLon, v: v}
}

func (g *grid) stride() int { return int(g.nLon + 1) }

// encoder accumulates the four sections, tile after tile.
type encoder struct {
	dir    []int32
	index  []uint64
	blocks []byte
	raw    []byte
}

func newEncoder() *encoder { return &encoder{index: []uint64{0}} }

// addTile cuts g into blocks and compresses them. Tiles must be added in
// tileKey order.
func (e *encoder) addTile(g *grid) {
	rows, cols := blocksAlong(g.nLat), blocksAlong(g.nLon)
	e.dir = append(e.dir, g.lat, g.lon, g.nLat, g.nLon, int32(len(e.index)-1), rows, cols, 0)
	for br := int32(0); br < rows; br++ {
		r0, nr := blockSpan(br, g.nLat)
		for bc := int32(0); bc < cols; bc++ {
			c0, nc := blockSpan(bc, g.nLon)
			start := int(r0)*g.stride() + int(c0)
			e.blocks, e.raw = encodeBlock(e.blocks, e.raw, g.v[start:], g.stride(), int(nr), int(nc))
			e.index = append(e.index, uint64(len(e.blocks)))
		}
	}
}

// write adds the sections to w.
func (e *encoder) write(w *artifact.Writer) error {
	meta := metaWords
	if err := artifact.AddSlice(w, SectionMeta, meta[:]); err != nil {
		return fmt.Errorf("elevation: add %s: %w", SectionMeta, err)
	}
	if err := artifact.AddSlice(w, SectionTiles, e.dir); err != nil {
		return fmt.Errorf("elevation: add %s: %w", SectionTiles, err)
	}
	if err := artifact.AddSlice(w, SectionIndex, e.index); err != nil {
		return fmt.Errorf("elevation: add %s: %w", SectionIndex, err)
	}
	if err := w.Add(SectionBlocks, e.blocks); err != nil {
		return fmt.Errorf("elevation: add %s: %w", SectionBlocks, err)
	}
	return nil
}

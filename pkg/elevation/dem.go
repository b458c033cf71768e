package elevation

import (
	"context"
	"fmt"

	"github.com/mapsco/maps/pkg/artifact"
)

// DefaultCacheBlocks is the cache size Open uses when given 0: 1024 blocks of
// at most 129×129 posts, about 34 MB.
const DefaultCacheBlocks = 1024

// DEM answers height queries from the elevation sections of an artifact,
// read in place. It is safe for concurrent use. It reads the artifact's
// mapping on every cache miss, so the artifact.File must stay open for as long
// as the DEM is used.
type DEM struct {
	dir    []int32  // tile directory, tileFields per tile, sorted by tileKey
	index  []uint64 // block i is blocks[index[i]:index[i+1]]
	blocks []byte
	cache  *blockCache
}

// Open returns a DEM over the elevation sections of f, with a cache of at
// most cacheBlocks decompressed blocks (DefaultCacheBlocks when 0 or less).
// It checks the meta section and the tile directory (a few bytes per tile)
// and decompresses nothing: blocks are decoded on first use.
func Open(f *artifact.File, cacheBlocks int) (*DEM, error) {
	meta, err := artifact.SectionView[uint32](f, SectionMeta)
	if err != nil {
		return nil, fmt.Errorf("elevation: open: %w", err)
	}
	if len(meta) != len(metaWords) || [len(metaWords)]uint32(meta) != metaWords {
		return nil, fmt.Errorf("%w: meta section %v, this build reads %v", ErrCorrupt, meta, metaWords)
	}
	d := &DEM{}
	if d.dir, err = artifact.SectionView[int32](f, SectionTiles); err != nil {
		return nil, fmt.Errorf("elevation: open: %w", err)
	}
	if d.index, err = artifact.SectionView[uint64](f, SectionIndex); err != nil {
		return nil, fmt.Errorf("elevation: open: %w", err)
	}
	if d.blocks, err = f.Section(SectionBlocks); err != nil {
		return nil, fmt.Errorf("elevation: open: %w", err)
	}
	if err := d.checkDirectory(); err != nil {
		return nil, err
	}
	if cacheBlocks <= 0 {
		cacheBlocks = DefaultCacheBlocks
	}
	d.cache = newBlockCache(cacheBlocks)
	return d, nil
}

// checkDirectory validates every tile record, so that At can trust them: a
// corrupt directory is refused at Open rather than read out of bounds later.
func (d *DEM) checkDirectory() error {
	if len(d.dir)%tileFields != 0 {
		return fmt.Errorf("%w: tile directory of %d values", ErrCorrupt, len(d.dir))
	}
	next, prevKey := int64(0), int64(-1<<62)
	for i := 0; i < d.tileCount(); i++ {
		t := d.tile(i)
		ok := t.lat >= -90 && t.lat < 90 && t.lon >= -180 && t.lon < 180 &&
			t.nLat >= 1 && t.nLat <= maxCellsPerDegree && t.nLon >= 1 && t.nLon <= maxCellsPerDegree &&
			t.blockRows == blocksAlong(t.nLat) && t.bCols == blocksAlong(t.nLon) &&
			int64(t.firstBlock) == next && tileKey(t.lat, t.lon) > prevKey
		if !ok {
			return fmt.Errorf("%w: tile record %d %+v", ErrCorrupt, i, t)
		}
		next += int64(t.blockRows) * int64(t.bCols)
		prevKey = tileKey(t.lat, t.lon)
	}
	if int64(len(d.index)) != next+1 {
		return fmt.Errorf("%w: block index has %d entries for %d blocks", ErrCorrupt, len(d.index), next)
	}
	return nil
}

func (d *DEM) tileCount() int { return len(d.dir) / tileFields }

func (d *DEM) tile(i int) tileRec {
	r := d.dir[i*tileFields : i*tileFields+tileFields]
	return tileRec{r[0], r[1], r[2], r[3], r[4], r[5], r[6]}
}

// findTile binary-searches the directory for the tile with south-west corner
// (lat, lon).
func (d *DEM) findTile(lat, lon int32) (tileRec, bool) {
	key := tileKey(lat, lon)
	lo, hi := 0, d.tileCount()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tileKey(d.dir[m*tileFields], d.dir[m*tileFields+1]) < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < d.tileCount() && d.dir[lo*tileFields] == lat && d.dir[lo*tileFields+1] == lon {
		return d.tile(lo), true
	}
	return tileRec{}, false
}

// blockBytes returns the compressed bytes of block b.
func (d *DEM) blockBytes(b int32) ([]byte, error) {
	start, end := d.index[b], d.index[b+1]
	if start > end || end > uint64(len(d.blocks)) {
		return nil, fmt.Errorf("%w: block %d spans [%d, %d) of %d bytes", ErrCorrupt, b, start, end, len(d.blocks))
	}
	return d.blocks[start:end], nil
}

// Verify decompresses every block, returning the first that is corrupt. It
// reads the whole section; `mapd verify` can call it after artifact.Verify.
func (d *DEM) Verify(ctx context.Context) error {
	var buf blockBuf
	buf.init()
	for i := 0; i < d.tileCount(); i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := d.tile(i)
		for br := int32(0); br < t.blockRows; br++ {
			for bc := int32(0); bc < t.bCols; bc++ {
				_, nr := blockSpan(br, t.nLat)
				_, nc := blockSpan(bc, t.nLon)
				b := t.firstBlock + br*t.bCols + bc
				src, err := d.blockBytes(b)
				if err == nil {
					err = decodeBlock(buf.posts, src, buf.scratch, int(nr), int(nc))
				}
				if err != nil {
					return fmt.Errorf("elevation: tile N%d E%d block %d: %w", t.lat, t.lon, b, err)
				}
			}
		}
	}
	return nil
}

// Tiles returns the south-west corners (lat, lon) of the tiles in coverage,
// in directory order.
func (d *DEM) Tiles() [][2]int {
	out := make([][2]int, d.tileCount())
	for i := range out {
		t := d.tile(i)
		out[i] = [2]int{int(t.lat), int(t.lon)}
	}
	return out
}

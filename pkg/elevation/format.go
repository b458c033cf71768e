package elevation

import (
	"errors"
	"math"
)

// Section names this package writes into an artifact (see the package doc
// for their layouts).
const (
	SectionMeta   = "elevation.meta"
	SectionTiles  = "elevation.tiles"
	SectionIndex  = "elevation.index"
	SectionBlocks = "elevation.blocks"
)

// Encoding of heights and blocks. These numbers are written into the meta
// section and checked by Open, so a reader never misreads a file written with
// other ones.
const (
	layoutVersion = 1
	// BlockCells is the number of grid cells along each side of a block; a
	// block stores BlockCells+1 posts per side (it repeats its neighbours'
	// edge posts) so that every bilinear lookup touches exactly one block.
	BlockCells = 128
	// unitMM is the height unit in millimetres: 0.25 m keeps SRTM's whole
	// metres exact and quantises float sources (Copernicus) by at most
	// 0.125 m, far below their stated accuracy of metres.
	unitMM = 250
	// offsetM is the height of stored value 0.
	offsetM = -500
	// NoData is the stored value of a post outside coverage.
	NoData = math.MaxUint16
	// MinHeightM and MaxHeightM bound the heights Build accepts from a source;
	// source values outside them are treated as voids. Stored values reach
	// offsetM + (NoData-1)*unit = 15883.5 m, so the range has headroom.
	MinHeightM = -500
	MaxHeightM = 9000
	// maxCellsPerDegree bounds a tile's resolution (0.1 arc-second).
	maxCellsPerDegree = 36000
	// tileFields is the number of int32 fields in one tile directory record.
	tileFields = 8
)

var metaWords = [...]uint32{layoutVersion, BlockCells, unitMM, uint32(-offsetM), NoData}

// ErrCorrupt means an elevation section or block is malformed.
var ErrCorrupt = errors.New("elevation: corrupt data")

// ErrNoInput means Build was given no raster, or none covered any tile.
var ErrNoInput = errors.New("elevation: no input raster")

// encodeHeight converts metres to the stored unit, rounding to nearest.
// The caller has checked that h lies in [MinHeightM, MaxHeightM].
func encodeHeight(h float64) uint16 {
	return uint16(math.Round((h - offsetM) * (1000.0 / unitMM)))
}

// decodeHeight converts a stored value (not NoData) back to metres.
func decodeHeight(v uint16) float64 { return float64(v)*(unitMM/1000.0) + offsetM }

// tileRec is one row of the tile directory, decoded from tileFields int32s.
type tileRec struct {
	lat, lon         int32 // south-west corner in whole degrees
	nLat, nLon       int32 // cells per degree; the tile has n+1 posts per side
	firstBlock       int32 // index of the tile's first block in the block index
	blockRows, bCols int32 // blocks per column and per row, in row-major order
}

// tileKey orders tiles by latitude, then longitude; the directory is sorted
// by it so At can binary-search.
func tileKey(lat, lon int32) int64 { return int64(lat)*1000 + int64(lon) }

// blocksAlong returns how many blocks cover n cells.
func blocksAlong(n int32) int32 { return (n + BlockCells - 1) / BlockCells }

// blockSpan returns the first post and post count, along one axis, of block b
// of a tile with n cells: BlockCells+1 posts, fewer in the last block.
func blockSpan(b, n int32) (first, posts int32) {
	first = b * BlockCells
	return first, min(BlockCells, n-first) + 1
}

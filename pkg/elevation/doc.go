// Package elevation compiles digital elevation models into an artifact and
// answers height, ascent and grade questions from it.
//
// mapc calls Build once with the DEM rasters; mapd opens the sections with
// Open and answers /v1/elevation with DEM.At and DEM.AtMany; the graph
// compiler computes each edge's ascent, descent and steepest grade with
// Profiler.Edge, and routes get theirs from Profiler.Route over their whole
// geometry, so a route's numbers are computed the same way as its edges'.
//
// # Sources
//
// Build reads Rasters: north-up grids in EPSG:4326 with a no-data value and
// a scale. This package is pure Go, because mapd imports it and must build
// without cgo; pkg/dem opens the files (Copernicus GLO-30 GeoTIFF tiles in
// production, SRTM .hgt and .hgt.zip in tests) through GDAL for mapc, and
// warps those in another CRS. Heights are copied as the source gives them,
// in metres on the source's vertical datum (EGM2008 for Copernicus, EGM96
// for SRTM); values outside [MinHeightM, MaxHeightM], NaN and the band's
// no-data value are voids.
//
// # Tiles, posts and voids
//
// The artifact holds 1°×1° tiles. A tile with corner (lat, lon) has
// (nLat+1)×(nLon+1) posts, nLat and nLon cells per degree: its corner posts
// lie on whole degrees and neighbouring tiles repeat their shared edge, as in
// SRTM (nLat = nLon = 1200 for SRTM3). Row 0 is the north edge, column 0 the
// west edge. A tile's resolution is the finest of the sources reaching it.
// Posts that coincide with source pixel centres are copied, others are
// resampled bilinearly; where sources overlap, the first path given to Build
// wins. A tile exists when a source covers its interior; tiles no source
// covers are outside coverage, and so are posts of a tile outside every
// source. Voids inside a source's footprint are filled at build time (see
// voidfill.go: Laplace interpolation from the void's rim), so At answers
// inside coverage everywhere and null means only "outside coverage".
//
// # Sections
//
// All integers are little-endian.
//
//	elevation.meta    5 × uint32: layout version (1), BlockCells (128),
//	                  height unit in mm (250), -(height of value 0) in m (500),
//	                  NoData (65535). Open refuses other values.
//	elevation.tiles   8 × int32 per tile, sorted by (lat, lon): lat, lon of
//	                  the south-west corner in degrees; nLat, nLon cells per
//	                  degree; first block number; block rows; block columns;
//	                  0 (reserved).
//	elevation.index   uint64 × (blocks+1): block b is
//	                  blocks[index[b]:index[b+1]].
//	elevation.blocks  compressed blocks, tile after tile, each tile's blocks
//	                  in row-major order.
//
// A block covers BlockCells×BlockCells cells, fewer at a tile's south and east
// edges, and stores their posts: up to 129×129, repeating the edge posts of
// its neighbours so every bilinear lookup reads one block. A post is a uint16
// h: height = h×0.25 m − 500 m, spanning −500 m to 15883.5 m in quarter
// metres (SRTM's whole metres exactly; Copernicus floats within 0.125 m, far
// below their accuracy); 65535 is NoData. A block's bytes are
// snappy(low ‖ high): the zigzag-encoded difference of each post from its
// left neighbour (first column: from the post above), split into a plane of
// low bytes and a plane of high bytes (block.go). The two SRTM3 tiles of
// Andorra take 3.1 MB against 5.8 MB raw.
//
// # Serving
//
// Open checks the meta section and the tile directory and decodes nothing.
// At finds the tile by binary search, the block by arithmetic, and reads the
// cell's four posts through a bounded cache of decoded blocks (cache.go:
// sharded CLOCK; a hit takes a shard's read lock and allocates nothing).
// Interpolation follows GDAL's bilinear convention, so At equals
// `gdallocationinfo -r bilinear` on the source tile. A corrupt block makes At
// answer ok=false, never panic; Verify decodes every block.
//
// # Terrain along lines
//
// A line is sampled at most SampleSpacingM apart (every vertex included),
// bridge and tunnel runs are interpolated linearly between their ground ends,
// the profile is smoothed by a SmoothWindowM moving average that keeps both
// end heights and leaves straight ramps exact, ascent and descent are summed
// through a HysteresisM backlash filter, and MaxGrade is the steepest
// GradeWindowM stretch. Consequences the tests check: AscentM − DescentM ==
// EndM − StartM, reversing a line swaps ascent and descent and keeps
// MaxGrade, and a Profiler call allocates nothing once its buffers have
// grown. docs/elevation.md explains the choices.
//
// Since a line is sampled piece by piece, the same way in both directions, a
// route takes exactly the samples its whole segments take alone: mapc stores
// them per segment (Samples, samples.go) and mapd assembles a route's
// profile from them, sampling only the partial segments at its ends
// (trace.go).
//
// # Concurrency and lifetimes
//
// A DEM is safe for concurrent use and reads the artifact's mapping on cache
// misses: keep the artifact.File open while the DEM is in use, and close it
// only when no goroutine can call the DEM any more. A Profiler is for one
// goroutine at a time. Build reads its Rasters from the calling goroutine
// only.
package elevation

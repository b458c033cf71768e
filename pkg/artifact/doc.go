// Package artifact is the on-disk container of a compiled map: one file holding
// named, checksummed sections that mapd reads in place through a read-only
// memory mapping.
//
// # Layout
//
// All integers are little-endian; the reader refuses to run on a big-endian
// host rather than byte-swap, because every section is handed out as a typed
// slice over the mapping without copying.
//
//	offset  size  field
//	0       8     magic "MAPSART\x00"
//	8       4     format version (FormatVersion)
//	12      4     section count n
//	16      32    data_version, NUL-padded (at most 32 bytes)
//	48      16    kind, NUL-padded ("graph", "elevation", ...)
//	64      4     CRC-32C of the header and section table, with this field zeroed
//	68      60    reserved, zero
//	128     48*n  section table, one entry per section:
//	                0  32  name, NUL-padded
//	               32   8  offset from the start of the file
//	               40   4  length in bytes
//	               44   4  CRC-32C (Castagnoli) of the section's bytes
//	...           sections, each starting on a 64-byte boundary, zero padding between
//
// A section is opaque bytes to this package; the packages that write them
// (graph, snap, elevation) document their element types. Typed views are
// made with View, which checks size and alignment.
//
// # Checks
//
// Open checks only what is cheap: magic, format version, the header CRC, and
// that every section lies inside the file. Start-up therefore costs the same
// for a 10 MB and a 10 GB artifact. Verify reads every byte and checks every
// section's CRC; `mapd verify` and release swaps call it.
//
// # Lifetimes
//
// Slices returned by File.Section and View point into the mapping and are
// valid until File.Close. A File is safe for concurrent readers; Close must
// not race with readers (package serving reference-counts for that).
package artifact

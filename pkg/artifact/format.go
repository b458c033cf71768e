package artifact

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// FormatVersion is the version of the container and of every section layout
// written by this build. Bump it on any change a reader could misread.
// Version 2: package snap's R-tree replaced its grid. Version 3: package
// ch contracts conditional arcs (its vary table) instead of leaving them
// in a core.
const FormatVersion = 3

const (
	magic          = "MAPSART\x00"
	headerSize     = 128
	entrySize      = 48
	sectionAlign   = 64
	maxNameLen     = 32
	maxKindLen     = 16
	maxVersionLen  = 32
	headerCRCField = 64
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Sentinel errors, testable with errors.Is.
var (
	// ErrCorrupt means the file is not a well-formed artifact: bad magic, a
	// checksum mismatch, or a section outside the file.
	ErrCorrupt = errors.New("artifact: corrupt")
	// ErrFormatVersion means the file was written by an incompatible build.
	ErrFormatVersion = errors.New("artifact: unsupported format version")
	// ErrNoSection means a section the caller needs is absent.
	ErrNoSection = errors.New("artifact: no such section")
)

// entry is one row of the section table.
type entry struct {
	name   string
	offset uint64
	length uint32
	crc    uint32
}

func checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// padString returns s as exactly n bytes, NUL padded.
func padString(s string, n int) []byte {
	b := make([]byte, n)
	copy(b, s)
	return b
}

// trimString reverses padString.
func trimString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

func alignUp(n uint64) uint64 { return (n + sectionAlign - 1) &^ (sectionAlign - 1) }

var le = binary.LittleEndian

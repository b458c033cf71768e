package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"unsafe"
)

// Writer gathers sections in memory and writes them as one artifact file.
// Sections are written in the order they were added, so the same inputs give
// byte-identical files.
type Writer struct {
	kind        string
	dataVersion string
	names       map[string]bool
	sections    []pending
}

type pending struct {
	name string
	data []byte
}

// NewWriter starts an artifact of the given kind for one data release.
func NewWriter(kind, dataVersion string) (*Writer, error) {
	if len(kind) == 0 || len(kind) > maxKindLen {
		return nil, fmt.Errorf("artifact: kind %q must be 1..%d bytes", kind, maxKindLen)
	}
	if len(dataVersion) == 0 || len(dataVersion) > maxVersionLen {
		return nil, fmt.Errorf("artifact: data_version %q must be 1..%d bytes", dataVersion, maxVersionLen)
	}
	return &Writer{kind: kind, dataVersion: dataVersion, names: map[string]bool{}}, nil
}

// Add appends a section. The writer keeps data until WriteFile; do not
// modify it afterwards.
func (w *Writer) Add(name string, data []byte) error {
	if len(name) == 0 || len(name) > maxNameLen {
		return fmt.Errorf("artifact: section name %q must be 1..%d bytes", name, maxNameLen)
	}
	if w.names[name] {
		return fmt.Errorf("artifact: section %q added twice", name)
	}
	if uint64(len(data)) > 1<<32-1 {
		return fmt.Errorf("artifact: section %q is %d bytes, over the 4 GiB limit", name, len(data))
	}
	w.names[name] = true
	w.sections = append(w.sections, pending{name, data})
	return nil
}

// AddSlice appends a section holding a slice of fixed-size values, written
// in the host's (little-endian) byte order.
func AddSlice[T Fixed](w *Writer, name string, s []T) error {
	return w.Add(name, bytesOf(s))
}

// bytesOf views a slice of fixed-size values as bytes without copying.
func bytesOf[T Fixed](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// WriteFile writes the artifact to path through a temporary file in the same
// directory, fsyncs it and renames it into place, so a crash leaves either
// no file or a whole one.
func (w *Writer) WriteFile(path string) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".artifact-*")
	if err != nil {
		return fmt.Errorf("artifact: create temporary file for %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = w.writeTo(tmp); err != nil {
		return fmt.Errorf("artifact: write %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("artifact: sync %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("artifact: close %s: %w", path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o444); err != nil {
		return fmt.Errorf("artifact: chmod %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("artifact: rename into %s: %w", path, err)
	}
	return nil
}

func (w *Writer) writeTo(f *os.File) error {
	table := w.layout()
	if _, err := f.Write(w.header(table)); err != nil {
		return err
	}
	pos := uint64(headerSize + entrySize*len(table))
	zeros := make([]byte, sectionAlign)
	for i, s := range w.sections {
		if _, err := f.Write(zeros[:table[i].offset-pos]); err != nil {
			return err
		}
		if _, err := f.Write(s.data); err != nil {
			return err
		}
		pos = table[i].offset + uint64(len(s.data))
	}
	return nil
}

// layout assigns every section its aligned offset and checksum.
func (w *Writer) layout() []entry {
	table := make([]entry, len(w.sections))
	pos := uint64(headerSize + entrySize*len(w.sections))
	for i, s := range w.sections {
		pos = alignUp(pos)
		table[i] = entry{name: s.name, offset: pos, length: uint32(len(s.data)), crc: checksum(s.data)}
		pos += uint64(len(s.data))
	}
	return table
}

func (w *Writer) header(table []entry) []byte {
	h := make([]byte, headerSize+entrySize*len(table))
	copy(h, magic)
	le.PutUint32(h[8:], FormatVersion)
	le.PutUint32(h[12:], uint32(len(table)))
	copy(h[16:], padString(w.dataVersion, maxVersionLen))
	copy(h[48:], padString(w.kind, maxKindLen))
	for i, e := range table {
		row := h[headerSize+entrySize*i:]
		copy(row, padString(e.name, maxNameLen))
		le.PutUint64(row[32:], e.offset)
		le.PutUint32(row[40:], e.length)
		le.PutUint32(row[44:], e.crc)
	}
	le.PutUint32(h[headerCRCField:], checksum(h))
	return h
}

package artifact

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/edsrzf/mmap-go"
)

// File is an artifact mapped read-only into memory.
type File struct {
	path        string
	m           mmap.MMap
	mapped      bool // m came from mmap.Map and must be unmapped
	kind        string
	dataVersion string
	sections    map[string]entry
	order       []string
}

// Open maps the artifact at path and checks its header (see package doc).
// It reads no section data.
func Open(path string) (*File, error) {
	if !littleEndian() {
		return nil, fmt.Errorf("artifact: %s: big-endian hosts are not supported", path)
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("artifact: open %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("artifact: stat %w", err)
	}
	if st.Size() < headerSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, shorter than a header", ErrCorrupt, path, st.Size())
	}
	m, err := mmap.Map(fh, mmap.RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("artifact: mmap %s: %w", path, err)
	}
	f := &File{path: path, m: m, mapped: true}
	if err := f.parseHeader(); err != nil {
		m.Unmap()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse checks an artifact held in memory (tests and fuzzing use it); the
// returned File reads from b, and Close is a no-op for it.
func Parse(b []byte) (*File, error) {
	f := &File{path: "<memory>", m: b}
	if err := f.parseHeader(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) parseHeader() error {
	b := []byte(f.m)
	if len(b) < headerSize || string(b[:8]) != magic {
		return fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := le.Uint32(b[8:]); v != FormatVersion {
		return fmt.Errorf("%w: file has version %d, this build reads %d", ErrFormatVersion, v, FormatVersion)
	}
	n := uint64(le.Uint32(b[12:]))
	tableEnd := headerSize + entrySize*n
	if tableEnd > uint64(len(b)) {
		return fmt.Errorf("%w: section table of %d entries runs past the end of the file", ErrCorrupt, n)
	}
	h := make([]byte, tableEnd)
	copy(h, b[:tableEnd])
	want := le.Uint32(h[headerCRCField:])
	le.PutUint32(h[headerCRCField:], 0)
	if got := checksum(h); got != want {
		return fmt.Errorf("%w: header checksum %08x, expected %08x", ErrCorrupt, got, want)
	}
	f.dataVersion = trimString(b[16:48])
	f.kind = trimString(b[48:64])
	f.sections = make(map[string]entry, n)
	for i := uint64(0); i < n; i++ {
		row := b[headerSize+entrySize*i:]
		e := entry{name: trimString(row[:32]), offset: le.Uint64(row[32:]), length: le.Uint32(row[40:]), crc: le.Uint32(row[44:])}
		if e.offset%sectionAlign != 0 || e.offset < tableEnd || e.offset+uint64(e.length) > uint64(len(b)) {
			return fmt.Errorf("%w: section %q at [%d, +%d) lies outside the file of %d bytes", ErrCorrupt, e.name, e.offset, e.length, len(b))
		}
		if _, dup := f.sections[e.name]; dup {
			return fmt.Errorf("%w: section %q appears twice", ErrCorrupt, e.name)
		}
		f.sections[e.name] = e
		f.order = append(f.order, e.name)
	}
	return nil
}

// Kind returns the kind written in the header ("graph", "elevation", ...).
func (f *File) Kind() string { return f.kind }

// DataVersion returns the data release the artifact was compiled for.
func (f *File) DataVersion() string { return f.dataVersion }

// Size returns the file's length in bytes.
func (f *File) Size() int64 { return int64(len(f.m)) }

// Sections lists the section names in file order.
func (f *File) Sections() []string { return f.order }

// Section returns the bytes of the named section, valid until Close.
func (f *File) Section(name string) ([]byte, error) {
	e, ok := f.sections[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q in %s", ErrNoSection, name, f.path)
	}
	return f.m[e.offset : e.offset+uint64(e.length) : e.offset+uint64(e.length)], nil
}

// Verify checks every section's checksum, reading the whole file.
func (f *File) Verify() error {
	for _, name := range f.order {
		e := f.sections[name]
		if got := checksum(f.m[e.offset : e.offset+uint64(e.length)]); got != e.crc {
			return fmt.Errorf("%w: %s: section %q checksum %08x, expected %08x", ErrCorrupt, f.path, name, got, e.crc)
		}
	}
	return nil
}

// Close unmaps the file. Every slice obtained from it becomes invalid.
func (f *File) Close() error {
	if !f.mapped || f.m == nil {
		return nil
	}
	err := f.m.Unmap()
	f.m = nil
	if err != nil {
		return fmt.Errorf("artifact: unmap %s: %w", f.path, err)
	}
	return nil
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

package artifact

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func writeSample(t *testing.T) (string, []uint32, []int32) {
	t.Helper()
	w, err := NewWriter("graph", "test1")
	if err != nil {
		t.Fatal(err)
	}
	u := []uint32{1, 2, 3, 1 << 31}
	s := []int32{-7, 0, 425063000}
	if err := AddSlice(w, "u", u); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("raw", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := AddSlice(w, "s", s); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("empty", nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "a.map")
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path, u, s
}

func TestRoundTrip(t *testing.T) {
	path, u, s := writeSample(t)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Kind() != "graph" || f.DataVersion() != "test1" {
		t.Fatalf("header: kind %q version %q", f.Kind(), f.DataVersion())
	}
	if err := f.Verify(); err != nil {
		t.Fatal(err)
	}
	gu, err := SectionView[uint32](f, "u")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := SectionView[int32](f, "s")
	if err != nil {
		t.Fatal(err)
	}
	for i := range u {
		if gu[i] != u[i] {
			t.Fatalf("u[%d] = %d, want %d", i, gu[i], u[i])
		}
	}
	for i := range s {
		if gs[i] != s[i] {
			t.Fatalf("s[%d] = %d, want %d", i, gs[i], s[i])
		}
	}
	raw, _ := f.Section("raw")
	if string(raw) != "hello" {
		t.Fatalf("raw = %q", raw)
	}
	if e, _ := f.Section("empty"); len(e) != 0 {
		t.Fatalf("empty section has %d bytes", len(e))
	}
	if _, err := f.Section("missing"); !errors.Is(err, ErrNoSection) {
		t.Fatalf("missing section: %v", err)
	}
	if got := f.Sections(); len(got) != 4 || got[0] != "u" || got[3] != "empty" {
		t.Fatalf("sections %v", got)
	}
}

func TestDeterministic(t *testing.T) {
	a, _, _ := writeSample(t)
	b, _, _ := writeSample(t)
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if string(ba) != string(bb) {
		t.Fatal("same sections gave different files")
	}
}

func TestCorruption(t *testing.T) {
	path, _, _ := writeSample(t)
	good, _ := os.ReadFile(path)
	f, _ := Parse(good)
	sec, _ := f.Section("s")
	sectionByte := len(good) - len(sec) - 64 // somewhere inside section data
	for i := range good {
		if &good[i] == &sec[0] {
			sectionByte = i
		}
	}
	cases := []struct {
		name      string
		mutate    func([]byte) []byte
		openErr   error
		verifyErr error
	}{
		{"flipped byte in a section", func(b []byte) []byte { b[sectionByte] ^= 0x40; return b }, nil, ErrCorrupt},
		{"flipped byte in the header", func(b []byte) []byte { b[20] ^= 1; return b }, ErrCorrupt, nil},
		{"flipped byte in the section table", func(b []byte) []byte { b[headerSize+40] ^= 1; return b }, ErrCorrupt, nil},
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }, ErrCorrupt, nil},
		{"truncated to a stub", func(b []byte) []byte { return b[:10] }, ErrCorrupt, nil},
		{"wrong format version", func(b []byte) []byte { b[8] = 99; return b }, ErrFormatVersion, nil},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }, ErrCorrupt, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := c.mutate(append([]byte(nil), good...))
			p := filepath.Join(t.TempDir(), "bad.map")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Open(p)
			if c.openErr != nil {
				if !errors.Is(err, c.openErr) {
					t.Fatalf("Open: %v, want %v", err, c.openErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer f.Close()
			if err := f.Verify(); !errors.Is(err, c.verifyErr) {
				t.Fatalf("Verify: %v, want %v", err, c.verifyErr)
			}
		})
	}
}

func TestWriterRejects(t *testing.T) {
	if _, err := NewWriter("graph", "this-data-version-is-longer-than-32-bytes"); err == nil {
		t.Error("accepted a 41-byte data_version")
	}
	if _, err := NewWriter("", "v"); err == nil {
		t.Error("accepted an empty kind")
	}
	w, _ := NewWriter("graph", "v")
	if err := w.Add("a", nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("a", nil); err == nil {
		t.Error("accepted a duplicate section")
	}
	if err := w.Add("a-name-that-is-far-too-long-for-the-table", nil); err == nil {
		t.Error("accepted a 41-byte section name")
	}
}

func TestViewChecks(t *testing.T) {
	b := bytesOf(make([]uint64, 2)) // 8-byte aligned backing
	if _, err := View[uint32](b[:7]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("7 bytes as uint32: %v", err)
	}
	if _, err := View[uint32](b[1:5]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("misaligned: %v", err)
	}
}

// FuzzParse feeds arbitrary bytes to the header parser: it must never panic,
// and any file it accepts must have every section inside the buffer.
func FuzzParse(f *testing.F) {
	w, _ := NewWriter("graph", "fuzz")
	AddSlice(w, "x", []uint32{1, 2, 3})
	w.Add("y", []byte("abc"))
	p := filepath.Join(f.TempDir(), "seed.map")
	if err := w.WriteFile(p); err != nil {
		f.Fatal(err)
	}
	seed, _ := os.ReadFile(p)
	f.Add(seed)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		af, err := Parse(b)
		if err != nil {
			return
		}
		for _, name := range af.Sections() {
			s, err := af.Section(name)
			if err != nil {
				t.Fatal(err)
			}
			_ = len(s)
		}
		_ = af.Verify()
	})
}

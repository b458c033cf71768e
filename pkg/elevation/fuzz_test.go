package elevation

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// syntheticArtifact encodes a 300×300-cell tile at 41°N 1°E (3×3 blocks)
// with a smooth surface and a corner outside coverage, without GDAL, and
// returns the artifact file's bytes.
func syntheticArtifact(t testing.TB) []byte {
	g := newGrid(41, 1, 300, 300)
	for r := 0; r <= 300; r++ {
		for c := 0; c <= 300; c++ {
			if r < 20 && c < 20 {
				continue // NoData: outside coverage
			}
			h := 500 + 300*math.Sin(float64(r)/40)*math.Cos(float64(c)/55)
			g.v[r*g.stride()+c] = encodeHeight(h)
		}
	}
	enc := newEncoder()
	enc.addTile(g)
	w, err := artifact.NewWriter("elevation", "fuzz")
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.write(w); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(tmpRoot, "synthetic-"+filepath.Base(t.Name())+".elev")
	if err := w.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// probe opens b and reads heights all over it; it must never panic.
func probe(b []byte) {
	f, err := artifact.Parse(b)
	if err != nil {
		return
	}
	d, err := Open(f, 2)
	if err != nil {
		return
	}
	for lat := 40.9; lat <= 42.1; lat += 0.07 {
		for lon := 0.9; lon <= 2.1; lon += 0.07 {
			d.At(lon, lat)
		}
	}
	_ = d.Verify(context.Background())
	var p Profiler
	p.Edge(d, [][2]float64{{1.1, 41.1}, {1.9, 41.8}}, Ground)
}

func TestSyntheticRoundTrip(t *testing.T) {
	b := syntheticArtifact(t)
	f, err := artifact.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(f, 4)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, rc := range [][2]int{{20, 0}, {150, 150}, {299, 300}, {128, 256}, {300, 300}} {
		r, c := rc[0], rc[1]
		want := decodeHeight(encodeHeight(500 + 300*math.Sin(float64(r)/40)*math.Cos(float64(c)/55)))
		h, ok := d.At(1+float64(c)/300, 42-float64(r)/300)
		if !ok || math.Abs(h-want) > 1e-9 {
			t.Errorf("post %d,%d: %.3f %v, want %.3f", r, c, h, ok, want)
		}
	}
	if _, ok := d.At(1.01, 41.99); ok {
		t.Error("NoData corner answered")
	}
}

// TestCorruptBlocks zeroes the blocks section: At must answer ok=false
// rather than crash, and Verify must report ErrCorrupt.
func TestCorruptBlocks(t *testing.T) {
	b := syntheticArtifact(t)
	f, _ := artifact.Parse(b)
	sec, _ := f.Section(SectionBlocks)
	start := bytes.Index(b, sec)
	for i := range sec {
		b[start+i] = 0xff
	}
	f, err := artifact.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(f, 4)
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := d.At(1.5, 41.5); ok {
		t.Errorf("corrupt block answered %.1f", h)
	}
	if err := d.Verify(context.Background()); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify: %v", err)
	}
}

// FuzzOpen feeds arbitrary artifact bytes to Open, At, Verify and Edge.
func FuzzOpen(f *testing.F) {
	f.Add(syntheticArtifact(f))
	f.Fuzz(func(t *testing.T, b []byte) { probe(b) })
}

// FuzzCorruptSections overwrites bytes inside the sections of a valid
// artifact (so the header checks still pass and the damage reaches the tile
// directory, block index and blocks) and probes the result.
func FuzzCorruptSections(f *testing.F) {
	good := syntheticArtifact(f)
	f.Add(uint32(0), []byte{0xff})
	f.Add(uint32(300), []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint32(5000), []byte("snappy"))
	af, err := artifact.Parse(good)
	if err != nil {
		f.Fatal(err)
	}
	meta, _ := af.Section(SectionMeta) // the first section: header and table come before
	sections := bytes.Index(good, meta)
	f.Fuzz(func(t *testing.T, pos uint32, patch []byte) {
		b := bytes.Clone(good)
		at := sections + int(pos%uint32(len(b)-sections))
		copy(b[at:], patch)
		probe(b)
	})
}

// FuzzDecodeBlock: decodeBlock never panics on arbitrary bytes, and blocks
// from encodeBlock decode to what was encoded.
func FuzzDecodeBlock(f *testing.F) {
	f.Add([]byte{}, uint8(3), uint8(4))
	f.Add([]byte{0x10, 0x00, 0xff}, uint8(129), uint8(129))
	f.Fuzz(func(t *testing.T, b []byte, rows, cols uint8) {
		r, c := 1+int(rows)%(BlockCells+1), 1+int(cols)%(BlockCells+1)
		var buf blockBuf
		buf.init()
		_ = decodeBlock(buf.posts, b, buf.scratch, r, c)
		v := make([]uint16, r*c)
		for i := range v {
			if len(b) > 0 {
				v[i] = uint16(b[i%len(b)])<<8 | uint16(b[(i*7)%len(b)])
			}
		}
		enc, _ := encodeBlock(nil, nil, v, c, r, c)
		if err := decodeBlock(buf.posts, enc, buf.scratch, r, c); err != nil {
			t.Fatal(err)
		}
		for i := range v {
			if buf.posts[i] != v[i] {
				t.Fatalf("post %d: %d, want %d", i, buf.posts[i], v[i])
			}
		}
	})
}

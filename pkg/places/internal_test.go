package places

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"Sant Julià de Lòria":  "sant julia de loria",
		"  l'Aldosa ":          "l aldosa",
		"Carrer de l·Església": "carrer de l esglesia",
		"Œuvre—Ñandú":          "oeuvre nandu",
		"":                     "",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrefixDistance(t *testing.T) {
	var rows [3][]int
	for _, c := range []struct {
		q, key string
		want   int
	}{
		{"encamp", "encamp", 0}, {"enca", "encamp", 0}, {"encmp", "encamp", 1}, {"enacmp", "encamp", 1},
		{"xncamp", "encamp", 1}, {"andora la vela", "andorra la vella", 2}, {"ordino", "encamp", 3},
	} {
		if got := prefixDistance(c.q, []byte(c.key), 2, &rows); got != c.want {
			t.Errorf("prefixDistance(%q, %q) = %d, want %d", c.q, c.key, got, c.want)
		}
	}
}

// TestRoundTrip writes entries as mapc does and reads them back.
func TestRoundTrip(t *testing.T) {
	in := Build([]Entry{{Name: "Encamp", Kind: Town, Lon: 1.58, Lat: 42.5345}},
		[]Segment{{Name: "Carrer Major", Lon: 1.581, Lat: 42.535, Length: 80}, {Name: "Carrer Major", Lon: 1.5812, Lat: 42.5352, Length: 40},
			{Name: "Carrer Major", Lon: 1.70, Lat: 42.55, Length: 10}})
	if len(in) != 3 { // Encamp, and two Carrer Major 10 km apart
		t.Fatalf("built %+v", in)
	}
	x := roundTrip(t, in)
	for i, e := range in {
		if got := x.Entry(i); got.Name != e.Name || got.Near != e.Near || got.Kind != e.Kind {
			t.Errorf("entry %d: %+v, wrote %+v", i, got, e)
		}
	}
	ms := x.Search("carrer major", 5)
	if len(ms) != 2 || ms[0].Near != "Encamp" && ms[1].Near != "Encamp" {
		t.Errorf("carrer major: %+v, want both, one near Encamp", ms)
	}
}

func roundTrip(t testing.TB, entries []Entry) *Index {
	w, err := artifact.NewWriter("graph", "v")
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(w, entries); err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/a"
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	x, err := Load(f)
	if err != nil || x == nil {
		t.Fatalf("load: %v %v", x, err)
	}
	return x
}

// FuzzIndex: sections from a damaged file are refused or, when accepted,
// every entry reads and any search runs without panicking.
func FuzzIndex(f *testing.F) {
	f.Add([]byte{3, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, []byte("abcde"), []byte("abc"), "ab")
	f.Fuzz(func(t *testing.T, recBytes, text, keys []byte, q string) {
		recBytes = recBytes[:len(recBytes)/4*4]
		rec, err := artifact.View[uint32](bytes.Clone(recBytes))
		if err != nil {
			return
		}
		x, err := newIndex(rec, text, keys)
		if err != nil {
			return
		}
		for i := range x.Len() {
			x.Entry(i)
		}
		x.Search(q, MaxLimit)
		x.Within(-180, -90, 180, 90, 20, MaxLimit)
	})
}

// TestPrefixDistanceBand: the banded distance equals the full table's
// (capped at max+1) on random strings of a small alphabet.
func TestPrefixDistanceBand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, rng.IntN(9))
		for i := range b {
			b[i] = "abc "[rng.IntN(4)]
		}
		return string(b)
	}
	var rows [3][]int
	for range 20000 {
		q, key, limit := word(), word(), rng.IntN(3)
		want := min(fullPrefixDistance(q, key), limit+1)
		if got := prefixDistance(q, []byte(key), limit, &rows); got != want {
			t.Fatalf("prefixDistance(%q, %q, %d) = %d, want %d", q, key, limit, got, want)
		}
	}
}

// fullPrefixDistance is the whole table, the reference.
func fullPrefixDistance(q, key string) int {
	d := make([][]int, len(q)+1)
	for i := range d {
		d[i] = make([]int, len(key)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(q); i++ {
		for j := 1; j <= len(key); j++ {
			cost := 1
			if q[i-1] == key[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && q[i-1] == key[j-2] && q[i-2] == key[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return slices.Min(d[len(q)])
}

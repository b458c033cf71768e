package places_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/places"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

// first returns the best match of q in Andorra's index, failing when none.
func first(t *testing.T, x *places.Index, q string) places.Match {
	t.Helper()
	ms := x.Search(q, 5)
	if len(ms) == 0 {
		t.Fatalf("%q finds nothing", q)
	}
	return ms[0]
}

// TestSearchAndorra searches the index mapc built from Andorra's extract:
// its capital and a town by name, in other spellings, by a later word, with
// typos, and a street, each where OSM has it.
func TestSearchAndorra(t *testing.T) {
	rel := compiletest.OpenAndorra(t)
	x := rel.Places
	if x == nil || x.Len() < 100 {
		t.Fatalf("Andorra's release has no place index, or a tiny one: %v", x)
	}
	laVella := first(t, x, "Andorra la Vella")
	if laVella.Name != "Andorra la Vella" || laVella.Kind > places.Town ||
		geo.Distance(laVella.Lon, laVella.Lat, 1.5218, 42.5063) > 1500 {
		t.Errorf("Andorra la Vella: %+v, want the town within 1.5 km of its centre", laVella.Entry)
	}
	for _, q := range []string{"andorra la vella", "ANDORRA LA", "Andora la Vela", "la vella"} {
		if got := first(t, x, q); got.Name != laVella.Name || got.Lon != laVella.Lon {
			t.Errorf("%q: first %+v, want %+v", q, got.Entry, laVella.Entry)
		}
	}
	encamp := first(t, x, "Encamp")
	if encamp.Name != "Encamp" || encamp.Kind == places.Street || geo.Distance(encamp.Lon, encamp.Lat, 1.5800, 42.5345) > 1500 {
		t.Errorf("Encamp: %+v, want the town within 1.5 km of its centre", encamp.Entry)
	}
	for _, q := range []string{"encmp", "Enacmp", "encam"} { // a letter lost, two swapped, a prefix
		if got := first(t, x, q); got.Name != "Encamp" || got.Kind != encamp.Kind {
			t.Errorf("%q: first %+v, want Encamp", q, got.Entry)
		}
	}
	julia := first(t, x, "sant julia de loria") // accents dropped
	if julia.Name != "Sant Julià de Lòria" || julia.Kind == places.Street {
		t.Errorf("sant julia de loria: %+v", julia.Entry)
	}
	meritxell := first(t, x, "Avinguda Meritxell")
	if meritxell.Kind != places.Street || meritxell.Near == "" || geo.Distance(meritxell.Lon, meritxell.Lat, 1.5218, 42.5063) > 2000 {
		t.Errorf("Avinguda Meritxell: %+v, want a street of Andorra la Vella's centre, named near a settlement", meritxell.Entry)
	}
	if ms := x.Search("zzzzqqqq", 5); len(ms) != 0 {
		t.Errorf("nonsense finds %+v", ms)
	}
}

// TestSearchRanksAndBounds: a limit is kept, places rank before streets of
// the same match, and one or two letters find no typos (everything would).
func TestSearchRanksAndBounds(t *testing.T) {
	x := compiletest.OpenAndorra(t).Places
	ms := x.Search("sant", places.MaxLimit)
	if len(ms) != places.MaxLimit {
		t.Fatalf("sant: %d matches, want the limit %d", len(ms), places.MaxLimit)
	}
	for i := 1; i < len(ms); i++ {
		if ms[i-1].Kind == places.Street && ms[i].Kind != places.Street && strings.HasPrefix(strings.ToLower(ms[i].Name), "sant") {
			t.Errorf("sant: street %q ranks above place %q", ms[i-1].Name, ms[i].Name)
		}
	}
	for _, m := range x.Search("en", 20) {
		if !strings.Contains(strings.ToLower(m.Name), "en") {
			t.Errorf("en: %q matched without containing it", m.Name)
		}
	}
}

// TestWithinLabelsByZoom: the whole country at zoom 9 shows its towns only;
// zoom 13 adds villages and suburbs; streets are labels from zoom 16.
func TestWithinLabelsByZoom(t *testing.T) {
	x := compiletest.OpenAndorra(t).Places
	low := x.Within(1.40, 42.42, 1.80, 42.66, 9, 200)
	high := x.Within(1.40, 42.42, 1.80, 42.66, 13, 200)
	if len(low) == 0 || len(high) <= len(low) {
		t.Fatalf("%d labels at zoom 9, %d at 13: want some, then more", len(low), len(high))
	}
	names := map[string]bool{}
	for _, e := range low {
		if e.Kind > places.Town {
			t.Errorf("zoom 9 labels %s %q", e.Kind, e.Name)
		}
		names[e.Name] = true
	}
	if !names["Andorra la Vella"] || !names["Encamp"] {
		t.Errorf("zoom 9 labels %v, want Andorra la Vella and Encamp", names)
	}
	for _, e := range high {
		if e.Kind == places.Street {
			t.Errorf("a street is a label at zoom 13: %q", e.Name)
		}
	}
	streets := 0
	for _, e := range x.Within(1.515, 42.503, 1.530, 42.512, 16, 200) { // Andorra la Vella's centre
		if e.Kind == places.Street {
			streets++
		}
	}
	if streets < 10 {
		t.Errorf("Andorra la Vella's centre at zoom 16: %d streets named, want many", streets)
	}
	if got := x.Within(1.40, 42.42, 1.80, 42.66, 13, 3); len(got) != 3 || got[0].Kind > places.Town {
		t.Errorf("limit 3: %+v, want the 3 largest", got)
	}
}

// BenchmarkSearch: what one search box request costs on Andorra, an exact
// name and a typo (which reads every name with the edit distance).
func BenchmarkSearch(b *testing.B) {
	x := compiletest.OpenAndorra(b).Places
	for _, q := range []string{"Andorra la Vella", "Encmp"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				x.Search(q, 8)
			}
		})
	}
}

package graph

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// TestStoreDuplicates writes a graph with a via-way restriction's duplicate
// and reads it back in place; a file without the duplicates section (as
// written before they existed) loads as having none, and one whose section
// disagrees with the arcs is refused.
func TestStoreDuplicates(t *testing.T) {
	net, graphs, _, err := Build(context.Background(), viaInput(noVia([]int64{wayW, wayV}, wayU)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.map")
	w, err := artifact.NewWriter("graph", "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(w, net, graphs); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	g := load(t, path)["car"]
	want := graphs[0]
	if !slices.Equal(g.Dup, want.Dup) || len(g.Dup) != 2 || !g.IsDuplicate(g.firstDup()) || g.IsDuplicate(g.firstDup()-1) {
		t.Fatalf("duplicates %v read back as %v", want.Dup, g.Dup)
	}
	if b, e := g.Duplicates(g.Dup[0]); e-b < 1 || g.Original(b) != g.Dup[0] {
		t.Errorf("Duplicates(%d) = [%d, %d)", g.Dup[0], b, e)
	}
	// A file with duplicates whose section is missing or short is refused
	// rather than misread: the duplicates' Fwd entries would be left over.
	drop := func([]byte) []byte { return nil }
	short := func(b []byte) []byte { return b[:4] }
	for name, edit := range map[string]func([]byte) []byte{"without": drop, "short": short} {
		if _, err := loadEdited(t, path, filepath.Join(dir, name+".map"), edit); err == nil {
			t.Errorf("%s: a file whose duplicates section disagrees with its arcs loaded", name)
		}
	}
	// A file without duplicates and without the section, as written before
	// via-way restrictions were modelled, loads as having none.
	_, plain, _, err := Build(context.Background(), viaInput())
	if err != nil {
		t.Fatal(err)
	}
	w, _ = artifact.NewWriter("graph", "test")
	if err := Write(w, net, plain); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "plain.map")
	if err := w.WriteFile(old); err != nil {
		t.Fatal(err)
	}
	gs, err := loadEdited(t, old, filepath.Join(dir, "old.map"), drop)
	if err != nil || gs["car"].NumDuplicates() != 0 {
		t.Errorf("a file without the duplicates section: %v", err)
	}
}

// loadEdited copies the artifact at path to out with every duplicates
// section passed through edit (dropped when it returns nil), and loads it.
func loadEdited(t *testing.T, path, out string, edit func([]byte) []byte) (map[string]*Graph, error) {
	t.Helper()
	w, _ := artifact.NewWriter("graph", "test")
	f, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range f.Sections() {
		b, _ := f.Section(name)
		if strings.HasSuffix(name, ".arc_dup") {
			if b = edit(b); b == nil {
				continue
			}
		}
		if err := w.Add(name, slices.Clone(b)); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	if err := w.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	f, err = artifact.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	_, graphs, err := Load(f)
	return graphs, err
}

func load(t *testing.T, path string) map[string]*Graph {
	t.Helper()
	f, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	_, graphs, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return graphs
}

package main

import (
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mapsco/maps/"

// mapc links the release on disk (pkg/release), not mapd's side of it
// (pkg/serving: routers, holder, watcher). The one exception is mapc
// compare, which routes in process on purpose, through pkg/compare's
// release.go alone.
func TestLinksOnlyTheReleaseOnDisk(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	importers := map[string][]string{} // package -> the module's packages importing it
	var walk func(path string)
	walk = func(path string) {
		dir := filepath.Join(root, strings.TrimPrefix(path, module))
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			seen := importers[imp] != nil
			importers[imp] = append(importers[imp], path)
			if !seen {
				walk(imp)
			}
		}
	}
	walk(module + "cmd/mapc")
	if got := importers[module+"pkg/release"]; len(got) == 0 {
		t.Fatal("mapc does not link pkg/release: the walk is broken")
	}
	if got, want := importers[module+"pkg/serving"], []string{module + "pkg/compare"}; !slices.Equal(got, want) {
		t.Errorf("pkg/serving is imported by %v, want only %v", got, want)
	}
	if got, want := filesImporting(t, filepath.Join(root, "pkg/compare"), module+"pkg/serving"), []string{"release.go"}; !slices.Equal(got, want) {
		t.Errorf("in pkg/compare, %v import pkg/serving, want only %v", got, want)
	}
}

// filesImporting lists the non-test Go files of the package in dir that
// import path.
func filesImporting(t *testing.T, dir, path string) []string {
	t.Helper()
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if strings.Trim(imp.Path.Value, `"`) == path {
				out = append(out, name)
			}
		}
	}
	return out
}

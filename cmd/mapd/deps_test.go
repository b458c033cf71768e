package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// mapd is one static file an operator copies into an empty container image
// (deploy/Dockerfile): no package it links may use cgo. GDAL, which mapc
// needs to read DEMs, lives in pkg/dem for that reason.
func TestLinksNoCgo(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{if .CgoFiles}}{{.ImportPath}}{{end}}{{end}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1") // with cgo off, go list would hide cgo files
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "" {
		t.Errorf("mapd links packages that use cgo:\n%s", got)
	}
}

// TestMain builds the mapd that the end-to-end tests run with CGO_ENABLED=0:
// it must be statically linked, with no program interpreter and no shared
// library needed.
func TestBuildsStatic(t *testing.T) {
	f, err := elf.Open(mapdBin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("mapd has a %v segment: it is not static", p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err == nil && len(libs) > 0 {
		t.Errorf("mapd needs shared libraries %v", libs)
	}
}

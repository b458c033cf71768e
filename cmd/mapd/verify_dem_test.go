package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

// TestVerifyReportsDEMCoverage: mapd verify says how much of the roads the
// release's DEM reaches, as mapc build measured it, and warns under the
// documented threshold.
func TestVerifyReportsDEMCoverage(t *testing.T) {
	dir := compiletest.Andorra(t)
	out, err := exec.Command(mapdBin, "verify", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	for _, want := range []string{"elevation: N42E001.hgt.zip spans 100.0 % of the road nodes", "elevation: 100.0 % of "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("verify printed:\n%s\nwant %q", out, want)
		}
	}

	// The same manifest with a tenth of the roads out of reach.
	m, err := release.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Stats["dem_road_nodes_covered"] = m.Stats["dem_road_nodes"] * 9 / 10
	partial := t.TempDir()
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(partial, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	if err := reportDEMCoverage(&w, partial); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.String(), "90.0 % of") || !strings.Contains(w.String(), "under 99 %") {
		t.Errorf("90 %% covered:\n%s\nwant the share and the warning", w.String())
	}
}

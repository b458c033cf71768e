package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/release"
)

// fakeRelease writes a small release that verifies: one data file listed in
// the manifest with its real size and SHA-256. broken lists a wrong SHA-256.
func fakeRelease(t *testing.T, dir, v string, built time.Time, broken bool) {
	t.Helper()
	rd := filepath.Join(dir, v)
	if err := os.MkdirAll(rd, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(rd, "notes.txt")
	if err := os.WriteFile(data, []byte(strings.Repeat(v, 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, n, err := release.FileSHA256(data)
	if err != nil {
		t.Fatal(err)
	}
	if broken {
		sum = strings.Repeat("0", 64)
	}
	m := release.Manifest{DataVersion: v, BuildTime: built, FormatVersion: artifact.FormatVersion,
		Files: []release.FileInfo{{Name: "notes.txt", Bytes: n, SHA256: sum}}}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(rd, release.ManifestFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runRelease executes `mapc release ARGS --dir dir` and returns its output.
func runRelease(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := newReleaseCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(append(args, "--dir", dir))
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func TestReleaseListUsePrune(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)
	for i, v := range []string{"2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04"} {
		fakeRelease(t, dir, v, day.AddDate(0, 0, i), false)
	}
	fakeRelease(t, dir, "broken", day.AddDate(0, 0, 10), true)
	os.Mkdir(filepath.Join(dir, ".2026-11-05.tmp-123"), 0o755) // a build in progress

	if out, err := runRelease(t, dir, "use", "2026-11-02"); err != nil || out != "current -> 2026-11-02\n" {
		t.Fatalf("use: %q %v", out, err)
	}
	if target, _ := os.Readlink(filepath.Join(dir, "current")); target != "2026-11-02" {
		t.Errorf("current -> %q, want a relative link to 2026-11-02", target)
	}
	if out, err := runRelease(t, dir, "use", "broken"); err == nil || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("use of a release that fails verification: %q %v", out, err)
	}
	if out, err := runRelease(t, dir, "use", "2026-12-31"); err == nil {
		t.Errorf("use of a missing release: %q", out)
	}

	out, err := runRelease(t, dir, "list")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "CURRENT") || !strings.HasPrefix(lines[1], "    ") ||
		!strings.Contains(lines[1], "broken") || !strings.HasPrefix(lines[4], "*") || !strings.Contains(lines[4], "2026-11-02T02:00:00Z") {
		t.Errorf("list:\n%s", out)
	}
	var rows []map[string]any
	out, _ = runRelease(t, dir, "list", "--json")
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 5 || rows[3]["current"] != true || rows[3]["bytes"] != 10000.0 {
		t.Errorf("list --json: %v\n%s", err, out)
	}

	// Keep 2: the two newest (broken, 11-04) stay, and current (11-02) always.
	if out, _ := runRelease(t, dir, "prune", "--keep", "2", "--dry-run"); out != "keeping broken (among the 2 newest)\nkeeping 2026-11-04 (among the 2 newest)\nkeeping 2026-11-02 (current)\nwould remove 2026-11-03\nwould remove 2026-11-01\n" {
		t.Errorf("prune --dry-run: %q", out)
	}
	if out, err := runRelease(t, dir, "prune", "--keep", "2"); err != nil || out != "keeping broken (among the 2 newest)\nkeeping 2026-11-04 (among the 2 newest)\nkeeping 2026-11-02 (current)\nremoved 2026-11-03\nremoved 2026-11-01\n" {
		t.Errorf("prune: %q %v", out, err)
	}
	for name, want := range map[string]bool{"2026-11-01": false, "2026-11-02": true, "2026-11-03": false, "2026-11-04": true, "broken": true, ".2026-11-05.tmp-123": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("after prune, %s exists = %v, want %v", name, err == nil, want)
		}
	}
	// Nothing left to prune: it says so, and what it keeps.
	if out, err := runRelease(t, dir, "prune", "--keep", "2", "--dry-run"); err != nil || out != "keeping broken (among the 2 newest)\nkeeping 2026-11-04 (among the 2 newest)\nkeeping 2026-11-02 (current)\nnothing to prune in "+dir+" with --keep 2\n" {
		t.Errorf("prune --dry-run with nothing to prune: %q %v", out, err)
	}
	if dirRes, err := release.Resolve(dir); err != nil || filepath.Base(dirRes) != "2026-11-02" {
		t.Errorf("current resolves to %q, %v", dirRes, err)
	}
}

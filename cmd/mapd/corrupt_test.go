package main

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mapsco/maps/pkg/release"
)

// copyRelease copies the release in src to dst, so that it can be damaged.
func copyRelease(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		in, err := os.Open(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dst, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// largestSection returns the byte range of the biggest section of an
// artifact, read from its section table (see package artifact's layout).
func largestSection(t *testing.T, b []byte) (off, n uint64) {
	t.Helper()
	count := binary.LittleEndian.Uint32(b[12:])
	for i := range uint64(count) {
		row := b[128+48*i:]
		if l := uint64(binary.LittleEndian.Uint32(row[40:])); l > n {
			off, n = binary.LittleEndian.Uint64(row[32:]), l
		}
	}
	if n == 0 {
		t.Fatal("artifact has no non-empty section")
	}
	return off, n
}

// damage edits the graph artifact of the release in dir; with resum, the
// manifest's sizes and SHA-256 are rewritten to match, so that only the
// artifact's own checks can catch the damage.
func damage(t *testing.T, dir string, edit func(b []byte) []byte, resum bool, manifest func(*release.Manifest)) {
	t.Helper()
	path := filepath.Join(dir, release.GraphFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
	if !resum && manifest == nil {
		return
	}
	m, err := release.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if resum {
		for i := range m.Files {
			m.Files[i].SHA256, m.Files[i].Bytes, err = release.FileSHA256(filepath.Join(dir, m.Files[i].Name))
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if manifest != nil {
		manifest(m)
	}
	j, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, release.ManifestFile), j, 0o644); err != nil {
		t.Fatal(err)
	}
}

// corruptions are the damaged releases a swap and `mapd verify` must refuse,
// each with a word the refusal must contain.
var corruptions = []struct {
	name     string
	edit     func(t *testing.T, b []byte) []byte
	resum    bool
	manifest func(*release.Manifest)
	why      string
}{
	{"flipped-byte", flipSectionByte, false, nil, "sha256"},
	{"flipped-byte-resummed", flipSectionByte, true, nil, "checksum"},
	{"truncated", truncateHalf, false, nil, "bytes"},
	{"truncated-resummed", truncateHalf, true, nil, "outside the file"},
	{"format-version-header", setFormatVersion, true, nil, "format version"},
	{"format-version-manifest", keep, false, func(m *release.Manifest) { m.FormatVersion = 99 }, "format version"},
}

func flipSectionByte(t *testing.T, b []byte) []byte {
	off, n := largestSection(t, b)
	b[off+n/2] ^= 0x10
	return b
}

func truncateHalf(_ *testing.T, b []byte) []byte { return b[:len(b)/2] }

func setFormatVersion(_ *testing.T, b []byte) []byte {
	binary.LittleEndian.PutUint32(b[8:], 99)
	return b
}

func keep(_ *testing.T, b []byte) []byte { return b }

// TestCorruptReleasesRefused damages copies of a good release in every way
// of corruptions: `mapd verify` fails on each, a running mapd refuses to swap
// to each and keeps answering from the release it serves, and it still swaps
// to a good release afterwards.
func TestCorruptReleasesRefused(t *testing.T) {
	data := t.TempDir()
	linkReleases(t, data, "swap1", "swap2")
	for _, c := range corruptions {
		dir := filepath.Join(data, c.name)
		copyRelease(t, filepath.Join(data, "swap2"), dir)
		damage(t, dir, func(b []byte) []byte { return c.edit(t, b) }, c.resum, c.manifest)
	}
	if err := release.Use(data, "swap1"); err != nil {
		t.Fatal(err)
	}
	// Polling off: every attempt below is a SIGHUP, so each is tried once.
	s := launchMapd(t, "--data", data, "--watch-interval", "0")
	for i, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			out, err := exec.Command(mapdBin, "verify", filepath.Join(data, c.name)).CombinedOutput()
			if err == nil || !strings.Contains(string(out), c.why) {
				t.Errorf("mapd verify: %v, %q; want a failure mentioning %q", err, out, c.why)
			}
			if err := release.Use(data, c.name); err != nil {
				t.Fatal(err)
			}
			s.signal(t, syscall.SIGHUP)
			refusal := s.waitLog(t, 10*time.Second, func(l map[string]any) bool {
				msg, _ := l["msg"].(string)
				dir, _ := l["dir"].(string)
				return strings.HasPrefix(msg, "release swap refused") && strings.HasSuffix(dir, "/"+c.name)
			})
			if !strings.Contains(refusal["err"].(string), c.why) {
				t.Errorf("refused with %q; want it to mention %q", refusal["err"], c.why)
			}
			r := s.post(t, "/v1/directions", `{"coordinates":`+laVellaToPas+`}`)
			if r.status != 200 || r.body["data_version"] != "swap1" {
				t.Errorf("after refusing %s: status %d, data_version %v", c.name, r.status, r.body["data_version"])
			}
			if got := scrape(t, s.metricsBase)[`mapd_release_swaps_total{outcome="refused"}`]; got != float64(i+1) {
				t.Errorf("refused swaps %v, want %d", got, i+1)
			}
		})
	}
	if err := release.Use(data, "swap2"); err != nil {
		t.Fatal(err)
	}
	s.signal(t, syscall.SIGHUP)
	waitServed(t, s.base, "swap2", 10*time.Second)
	if r := s.do(t, "GET", "/v1/health/ready", "", ""); r.status != 200 || r.body["data_version"] != "swap2" {
		t.Errorf("ready after the good swap: %d %s", r.status, r.raw)
	}
}

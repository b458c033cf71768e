package shareddata

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB whose Skip and Fatal record the message and
// return, so that Path's choice can be looked at.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed = fmt.Sprint(args...) }

// An absent file skips the test with its path and the README's, unless the
// data is required (CI), when it fails the test with the same message.
func TestAbsentFile(t *testing.T) {
	t.Setenv(RequireEnv, "")
	const name = "no-such-extract.osm.pbf"
	wantPath := filepath.Join(filepath.Clean(Dir()), name)
	wantReadme := filepath.Join(filepath.Clean(Dir()), "README.md")

	r := &recorder{TB: t}
	Path(r, name)
	if r.failed != "" || !strings.Contains(r.skipped, wantPath) || !strings.Contains(r.skipped, wantReadme) {
		t.Errorf("skipped %q, failed %q: want a skip naming %s and %s", r.skipped, r.failed, wantPath, wantReadme)
	}

	t.Setenv(RequireEnv, "1")
	r = &recorder{TB: t}
	Path(r, name)
	if r.skipped != "" || !strings.Contains(r.failed, wantPath) {
		t.Errorf("with %s set: skipped %q, failed %q: want a failure naming %s", RequireEnv, r.skipped, r.failed, wantPath)
	}
}

// The directory is the one beside the repository that holds the data and
// its README.
func TestPresentFile(t *testing.T) {
	p := Path(t, "README.md")
	if filepath.Base(filepath.Dir(p)) != "data" || filepath.Base(filepath.Dir(filepath.Dir(p))) != "shared" {
		t.Errorf("README at %s, want .../shared/data/README.md", p)
	}
	if err := Missing("README.md", "andorra.osm.pbf"); err != nil {
		t.Error(err)
	}
}

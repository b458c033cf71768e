package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/release"
)

// The command line is tested here, with the mapc binary compiletest builds
// from this checkout, rather than in cmd/mapc: these tests need the same two
// Andorra releases as the rest of the package, which cost most of its time.

// mapc runs the mapc binary and returns its standard output, standard error
// and exit status.
func mapc(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(compiletest.Mapc(t), args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// quick keeps the command-line runs short: the comparisons themselves are
// tested in process.
var quick = []string{"--sample", "150", "--isochrones", "6", "--matrix", "8", "--elevation-points", "30"}

func TestCompareCommandExitStatus(t *testing.T) {
	_, old, edited := fixture(t)
	tmp := t.TempDir()
	jsonPath, htmlPath := filepath.Join(tmp, "r.json"), filepath.Join(tmp, "r.html")

	out, errOut, code := mapc(t, append([]string{"compare", old, old, "--json", jsonPath, "--html", htmlPath}, quick...)...)
	if code != 0 || !strings.Contains(out, "PASS") {
		t.Fatalf("compare with itself: exit %d, want 0\n%s%s", code, out, errOut)
	}
	var rep Report
	b, err := os.ReadFile(jsonPath)
	if err == nil {
		err = json.Unmarshal(b, &rep)
	}
	if err != nil || rep.Violations == nil || len(rep.Violations) != 0 || len(rep.Routes) != 6 {
		t.Fatalf("JSON report: %v; %d routes, violations %v", err, len(rep.Routes), rep.Violations)
	}
	checkHTML(t, htmlPath, "PASS")

	out, errOut, code = mapc(t, append([]string{"compare", old, edited, "--json", "-", "--html", htmlPath}, quick...)...)
	if code != 2 || !strings.Contains(errOut, "FAIL") {
		t.Fatalf("compare with the edited release: exit %d, want 2\n%s", code, errOut)
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Violations) == 0 {
		t.Fatalf("--json - wrote %d bytes: %v, %d violations", len(out), err, len(rep.Violations))
	}
	checkHTML(t, htmlPath, "FAIL", "<polyline")

	bad := filepath.Join(tmp, "bad.json")
	os.WriteFile(bad, []byte(`{"duration_ratio_maxx": 2}`), 0o644)
	if _, errOut, code = mapc(t, "compare", old, edited, "--thresholds", bad); code != 1 || !strings.Contains(errOut, "/duration_ratio_maxx: unknown threshold") {
		t.Fatalf("a misspelt threshold: exit %d, want 1\n%s", code, errOut)
	}
	if _, errOut, code = mapc(t, "compare", old, edited, "--sample", "0"); code != 1 || !strings.Contains(errOut, "want at least 1 pair") {
		t.Fatalf("--sample 0: exit %d, want 1\n%s", code, errOut)
	}
	if _, errOut, code = mapc(t, "compare", old, filepath.Join(tmp, "nothing")); code != 1 {
		t.Fatalf("a missing release: exit %d, want 1\n%s", code, errOut)
	}
}

// checkHTML asserts the report is one self-contained page holding want.
func checkHTML(t *testing.T, path string, want ...string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, w := range append(want, "<svg", "data:image/png;base64,") {
		if !strings.Contains(page, w) {
			t.Errorf("%s lacks %q", path, w)
		}
	}
	for _, external := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), external) {
			t.Errorf("%s refers outside itself (%q)", path, external)
		}
	}
}

func TestReleaseUseGate(t *testing.T) {
	dir, _, _ := fixture(t)
	if _, errOut, code := mapc(t, "release", "use", "edited", "--dir", dir, "--gate-with", "current"); code != 1 || !strings.Contains(errOut, "no current release") {
		t.Fatalf("gate with no current release: exit %d, want 1\n%s", code, errOut)
	}
	if _, errOut, code := mapc(t, "release", "use", "old", "--dir", dir, "--sample", "10"); code != 1 || !strings.Contains(errOut, "needs --gate-with") {
		t.Fatalf("--sample without --gate-with: exit %d, want 1\n%s", code, errOut)
	}
	if _, errOut, code := mapc(t, "release", "use", "old", "--dir", dir, "--no-verify"); code != 0 {
		t.Fatalf("use old: exit %d\n%s", code, errOut)
	}
	out, errOut, code := mapc(t, append([]string{"release", "use", "edited", "--dir", dir, "--no-verify", "--gate-with", "current"}, quick...)...)
	if code != 2 || !strings.Contains(errOut, "not switching to edited") || !strings.Contains(out, "FAIL") {
		t.Fatalf("gated use of the edited release: exit %d, want 2\n%s%s", code, out, errOut)
	}
	if cur, _ := release.CurrentName(dir); cur != "old" {
		t.Fatalf("current is %q after a refused gate, want old", cur)
	}
	// A pipeline that accepts every change: all thresholds off.
	loose := filepath.Join(t.TempDir(), "loose.json")
	var th Thresholds
	doc := map[string]any{}
	for name := range th.fields() {
		doc[name] = nil
	}
	b, _ := json.Marshal(doc)
	os.WriteFile(loose, b, 0o644)
	out, errOut, code = mapc(t, append([]string{"release", "use", "edited", "--dir", dir, "--no-verify", "--gate-with", "old", "--thresholds", loose}, quick...)...)
	if code != 0 || !strings.Contains(out, "current -> edited") {
		t.Fatalf("gate with every threshold off: exit %d, want 0\n%s%s", code, out, errOut)
	}
	if cur, _ := release.CurrentName(dir); cur != "edited" {
		t.Fatalf("current is %q, want edited", cur)
	}
}

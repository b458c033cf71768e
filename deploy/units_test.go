package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	execStart = regexp.MustCompile(`(?m)^ExecStart=(\S+) serve (.*)$`)
	flagName  = regexp.MustCompile(`--[a-z][a-z-]*`)
)

// TestUnitsMatchTheBinary: every flag the systemd units pass to mapd serve
// exists in this mapd, and is explained in the unit's comments; the units
// pass systemd-analyze verify where systemd is installed.
func TestUnitsMatchTheBinary(t *testing.T) {
	help, err := exec.Command(mapdBin, "serve", "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("mapd serve --help: %v\n%s", err, help)
	}
	units, _ := filepath.Glob("systemd/*.service")
	if len(units) < 2 {
		t.Fatalf("found %d units in systemd/, want mapd.service and mapd@.service", len(units))
	}
	for _, unit := range units {
		raw, err := os.ReadFile(unit)
		if err != nil {
			t.Fatal(err)
		}
		m := execStart.FindStringSubmatch(string(raw))
		if m == nil {
			t.Errorf("%s: no ExecStart=... serve line", unit)
			continue
		}
		var comments strings.Builder
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "#") {
				comments.WriteString(line + "\n")
			}
		}
		for _, flag := range flagName.FindAllString(m[2], -1) {
			if !strings.Contains(string(help), "  "+flag+" ") {
				t.Errorf("%s: mapd serve has no flag %s", unit, flag)
			}
			if !regexp.MustCompile(`(?m)^#\s+` + flag + `\b`).MatchString(comments.String()) {
				t.Errorf("%s: %s is not explained in the unit's comments", unit, flag)
			}
		}
		verifyUnit(t, unit, raw, m[1])
	}
}

// verifyUnit runs systemd-analyze verify on a copy of the unit whose mapd
// is the test's binary (verify checks that the program exists).
func verifyUnit(t *testing.T, unit string, raw []byte, program string) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Logf("%s: systemd-analyze is not installed; the unit's syntax is not checked", unit)
		return
	}
	name := filepath.Base(unit)
	if strings.HasSuffix(name, "@.service") {
		name = strings.TrimSuffix(name, "@.service") + "@1.service"
	}
	copy := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(copy, []byte(strings.ReplaceAll(string(raw), program, mapdBin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", copy).CombinedOutput()
	// verify exits 0 on most warnings: any output is a finding.
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify %s: %v\n%s", unit, err, out)
	}
}

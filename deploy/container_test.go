package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var (
	dockerCmd        = regexp.MustCompile(`(?m)^CMD (\[.*\])$`)
	dockerEntrypoint = regexp.MustCompile(`(?m)^ENTRYPOINT \["([^"]+)"\]$`)
)

// TestDockerfileMatchesTheBinary: the image builds mapd without cgo, and
// the command it runs is one this mapd accepts (docker itself is not run
// here: the machines that run the tests have none).
func TestDockerfileMatchesTheBinary(t *testing.T) {
	raw, err := os.ReadFile("container/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(raw)
	if !strings.Contains(df, "CGO_ENABLED=0") || !strings.Contains(df, "go build") || !strings.Contains(df, "./cmd/mapd") {
		t.Error("container/Dockerfile does not build ./cmd/mapd with CGO_ENABLED=0")
	}
	if !strings.Contains(df, "FROM gcr.io/distroless/static") {
		t.Error("container/Dockerfile's image is not distroless/static")
	}
	m := dockerCmd.FindStringSubmatch(df)
	e := dockerEntrypoint.FindStringSubmatch(df)
	if m == nil || e == nil {
		t.Fatal("container/Dockerfile: no ENTRYPOINT [...] or CMD [...] line")
	}
	if !strings.Contains(df, "/out/mapd "+e[1]) {
		t.Errorf("the ENTRYPOINT %s is not where the binary is copied", e[1])
	}
	var args []string
	if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
		t.Fatalf("CMD %s: %v", m[1], err)
	}
	// --help after the image's arguments: cobra rejects an unknown flag
	// or a bad value before it prints the help.
	out, err := exec.Command(mapdBin, append(args, "--help")...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Usage:") {
		t.Errorf("mapd %s --help: %v\n%s", strings.Join(args, " "), err, out)
	}
}

package client_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedMatchesDocument regenerates the client from the OpenAPI
// document with the oapi-codegen go.mod pins and compares it with
// client.gen.go: a document changed without `go generate ./pkg/client`
// fails here. Skipped with -short: the race pass would only repeat it.
func TestGeneratedMatchesDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("compared once, in the full pass")
	}
	// The same configuration without its output file: the code comes to stdout.
	cfg, err := os.ReadFile("oapi-codegen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.Split(string(cfg), "\n") {
		if !strings.HasPrefix(line, "output:") {
			kept = append(kept, line)
		}
	}
	tmp := filepath.Join(t.TempDir(), "oapi-codegen.yaml")
	if err := os.WriteFile(tmp, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", tmp, "../api/openapi.json")
	cmd.Stderr = &stderr
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, stderr.Bytes())
	}
	got, err := os.ReadFile("client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("client.gen.go is not what pkg/api/openapi.json generates: run go generate ./pkg/client and commit")
	}
}

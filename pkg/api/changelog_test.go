package api

import (
	"os"
	"strings"
	"testing"
)

// TestChangelogLinked: the OpenAPI document's description and the README
// send readers to CHANGELOG.md, which exists and has its Unreleased section
// (where every change a client or operator notices is named).
func TestChangelogLinked(t *testing.T) {
	if d := loadOpenAPI(t).Info.Description; !strings.Contains(d, "CHANGELOG.md") {
		t.Errorf("info.description does not name CHANGELOG.md:\n%s", d)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "`CHANGELOG.md`") {
		t.Error("README.md does not link CHANGELOG.md")
	}
	log, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "\n## Unreleased\n") {
		t.Error("CHANGELOG.md has no '## Unreleased' section")
	}
}

package jsonscan

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyTheStandardLibrary keeps the imports pointing one way: pkg/api uses this package, and this
// package knows nothing of the service.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 1 || got[0] != "github.com/mapsco/maps/pkg/jsonscan" {
		t.Errorf("jsonscan depends on packages outside the standard library: %v", got)
	}
}

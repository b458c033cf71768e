// Package deploy tests the deployment recipes of this directory as an
// operator runs them: the nginx configuration in front of three mapd
// replicas on one PostgreSQL ledger and one Redis limiter
// (scaleout_test.go), and the systemd units (units_test.go).
package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

// mapdBin is the mapd binary built from this checkout for the tests.
var mapdBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "deploy-test-")
	if err != nil {
		panic(err)
	}
	mapdBin = filepath.Join(dir, "mapd")
	build := exec.Command("go", "build", "-o", mapdBin, "./cmd/mapd")
	build.Dir = compiletest.Root()
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // as deploy/container/Dockerfile builds it
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build mapd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	compiletest.Cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

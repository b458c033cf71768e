package release_test

import (
	"os"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	compiletest.Cleanup()
	os.Exit(code)
}

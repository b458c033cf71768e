package isochrone

import (
	"os"
	"sync"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/serving"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if andorra.rel != nil {
		andorra.rel.Close()
	}
	compiletest.Cleanup()
	os.Exit(code)
}

// andorra is the Andorra release, opened once for every test.
var andorra struct {
	once sync.Once
	rel  *serving.Release
	err  error
}

func openAndorra(t testing.TB) *serving.Release {
	t.Helper()
	dir := compiletest.Andorra(t)
	andorra.once.Do(func() { andorra.rel, andorra.err = serving.Open(dir) })
	if andorra.err != nil {
		t.Fatal(andorra.err)
	}
	return andorra.rel
}

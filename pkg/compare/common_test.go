package compare

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/graph"
)

func TestCheckCommonRoad(t *testing.T) {
	net := func(coords ...int32) *graph.Network { return &graph.Network{NodeCoord: coords} }
	andorra := net(14_000_000, 424_000_000, 18_000_000, 426_500_000)
	for _, c := range []struct {
		name     string
		old, new *graph.Network
		common   bool
	}{
		{"same", andorra, andorra, true},
		{"overlapping", andorra, net(17_000_000, 425_000_000, 19_000_000, 430_000_000), true},
		{"touching", andorra, net(18_000_000, 420_000_000, 20_000_000, 424_000_000), true},
		{"east of it", andorra, net(74_000_000, 437_000_000, 74_500_000, 437_500_000), false},
		{"north of it", andorra, net(15_000_000, 427_000_000, 16_000_000, 428_000_000), false},
		{"no road", andorra, net(), false},
	} {
		err := checkCommonRoad(c.old, c.new)
		if (err == nil) != c.common || (err != nil && !errors.Is(err, ErrNoCommonRoad)) {
			t.Errorf("%s: %v, want common %v", c.name, err, c.common)
		}
	}
}

// TestCompareNoCommonRoad: Andorra against Monaco says so and exits 1,
// instead of a report of zeros.
func TestCompareNoCommonRoad(t *testing.T) {
	out := t.TempDir()
	if _, errOut, code := mapc(t, "build", "--osm", compiletest.SharedData(t, "monaco.osm.pbf"), "--profiles",
		filepath.Join(compiletest.Root(), "profiles"), "--data-version", "monaco", "--out", out); code != 0 {
		t.Fatalf("build Monaco: %s", errOut)
	}
	stdout, errOut, code := mapc(t, append([]string{"compare", compiletest.Andorra(t), filepath.Join(out, "monaco")}, quick...)...)
	if code != 1 || !strings.Contains(errOut, "the two releases have no road in common") || !strings.Contains(errOut, "lon 7.") {
		t.Errorf("Andorra against Monaco: exit %d\n%s%s", code, stdout, errOut)
	}
}

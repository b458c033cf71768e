package compile

import (
	"testing"

	"github.com/mapsco/maps/pkg/compile/compiletest"
	"github.com/mapsco/maps/pkg/serving"
)

// TestHikingGrade: both spellings of each sac_scale grade, in order, and
// nothing for a value the scale does not have.
func TestHikingGrade(t *testing.T) {
	for want, names := range sacScale {
		for _, v := range names {
			if got := hikingGrade(v); got != uint8(want+1) {
				t.Errorf("hikingGrade(%q) = %d, want %d", v, got, want+1)
			}
		}
	}
	for _, v := range []string{"", "t3", "T7", "yes", "hiking;mountain_hiking"} {
		if got := hikingGrade(v); got != 0 {
			t.Errorf("hikingGrade(%q) = %d, want 0", v, got)
		}
	}
}

// TestAndorraKeepsHiking: the compiled Andorra keeps a grade for its
// mountain paths, none harder than T5 on a path the pedestrian may use
// (the profile refuses T6), and none at all on its roads.
func TestAndorraKeepsHiking(t *testing.T) {
	rel, err := serving.Open(compiletest.Andorra(t))
	if err != nil {
		t.Fatal(err)
	}
	defer rel.Close()
	net, g := rel.Network, rel.Routers["pedestrian"].Graph()
	if net.SegHiking == nil {
		t.Fatal("no net.seg_hiking section")
	}
	var graded [7]int
	for s := range uint32(net.NumSegments()) {
		h := net.SegHiking[s]
		graded[h]++
		if h == 6 && g.Usable(s) {
			t.Errorf("segment %d is T6 and the pedestrian may use it", s)
		}
		if c := net.Class(s); h > 0 && (c == "primary" || c == "trunk" || c == "secondary") {
			t.Errorf("segment %d, a %s road, has sac_scale grade %d", s, c, h)
		}
	}
	t.Logf("segments per grade (untagged, T1..T6): %v", graded)
	if graded[1] == 0 || graded[2] == 0 || graded[3] == 0 {
		t.Errorf("Andorra has T1, T2 and T3 paths; kept %v", graded)
	}
}

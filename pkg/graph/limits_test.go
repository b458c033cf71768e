package graph

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// TestBuildLimits: a profile with a vehicle keeps, per arc, the limits of
// its way, of a barrier inside its segment (both directions) and of a
// barrier at its head node (arriving only), and drops the kinds of limit
// its own vehicle does not fit under; a profile without one keeps none.
// The records read back from a written file, and decide vehicles.
func TestBuildLimits(t *testing.T) {
	in := testInput()
	in.Ways[0].Limits = Limits{Height: 420}                 // a-b posted 4.20 m
	in.Ways[1].Limits = Limits{Height: 380, NoHazmat: true} // b-c: 3.80 m is below the vehicle, hazmat=no stays
	in.Ways[3].Nodes = []int64{3, 8, 5}                     // c-e through node 8, a barrier posted 4.50 m
	coord := in.Coord
	in.Coord = func(id int64) (int32, int32, bool) {
		if id == 8 {
			return 10020000, 424995000, true
		}
		return coord(id)
	}
	in.NodeLimits = func(id int64) Limits {
		switch id {
		case 8:
			return Limits{Height: 450}
		case 4: // d, a graph node (a bollard for cars)
			return Limits{Weight: 2500}
		}
		return Limits{}
	}
	in.Vehicles = []*Vehicle{{Height: 400, Weight: 1800}, nil}
	net, graphs, _, err := Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	name := func(g *Graph, a uint32) string {
		s, rev := g.ArcSegment(a)
		from, to := nodeName(net, net.SegFrom[s]), nodeName(net, net.SegTo[s])
		if rev {
			from, to = to, from
		}
		return from + to
	}
	records := func(g *Graph) map[string]Limits {
		m := map[string]Limits{}
		for i := range g.NumLimited() {
			a, l := g.Limited(i)
			m[name(g, a)] = l
		}
		return m
	}
	want := map[string]Limits{"ab": {Height: 420}, "ba": {Height: 420}, "bc": {NoHazmat: true}, "cb": {NoHazmat: true},
		"ce": {Height: 450}, "bd": {Weight: 2500}, "ed": {Weight: 2500}}
	got := records(graphs[car])
	if len(got) != len(want) {
		t.Errorf("car limits %v, want %v", got, want)
	}
	for k, l := range want {
		if got[k] != l {
			t.Errorf("car arc %s: limits %+v, want %+v", k, got[k], l)
		}
	}
	if graphs[foot].NumLimited() != 0 || graphs[foot].Limits != nil {
		t.Errorf("foot, without a vehicle, has %d limit records", graphs[foot].NumLimited())
	}
	path := filepath.Join(t.TempDir(), "g.map")
	w, err := artifact.NewWriter("graph", "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(w, net, graphs); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	g := load(t, path)["car"]
	if !slices.Equal(g.Limits, graphs[car].Limits) {
		t.Fatalf("limits %v read back as %v", graphs[car].Limits, g.Limits)
	}
	for _, c := range []struct {
		v    Vehicle
		want []string
	}{
		{Vehicle{Height: 400, Weight: 1800}, nil},
		{Vehicle{Height: 300}, nil},
		{Vehicle{Height: 420}, nil},
		{Vehicle{Height: 430}, []string{"ab", "ba"}},
		{Vehicle{Height: 460, Weight: 2600}, []string{"ab", "ba", "bd", "ce", "ed"}},
		{Vehicle{Hazmat: true}, []string{"bc", "cb"}},
	} {
		var names []string
		for _, a := range g.ArcsRefusing(c.v) {
			names = append(names, name(g, a))
		}
		slices.Sort(names)
		if !slices.Equal(names, c.want) {
			t.Errorf("vehicle %+v refused on %v, want %v", c.v, names, c.want)
		}
	}
}

// TestStoredUnits: sizes round to the nearest centimetre and 10 kg, a
// positive one is never 0 (no limit), and a huge one saturates.
func TestStoredUnits(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want uint16
	}{{4.30, 430}, {4.304, 430}, {4.306, 431}, {0.001, 1}, {0, 0}, {-1, 0}, {1e9, 65535}} {
		if got := Centimetres(c.in); got != c.want {
			t.Errorf("Centimetres(%v) = %d, want %d", c.in, got, c.want)
		}
	}
	if got := TensOfKilograms(7.5); got != 750 {
		t.Errorf("TensOfKilograms(7.5) = %d", got)
	}
}

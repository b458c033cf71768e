package graph

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mapsco/maps/pkg/artifact"
)

// TestStoreWaysAndSignposts writes a network whose way 2-5-8 (W then V in
// the via fixture, joined here into one way through node 5) carries
// signposts, reads it back and checks which segments share a way and what
// their signs say; a file without the two sections (written before they
// were kept) loads with neither, and a short section is refused.
func TestStoreWaysAndSignposts(t *testing.T) {
	in := viaInput()
	in.Ways = append(in.Ways, Way{ID: 20, Nodes: []int64{2, 5, 8}, Class: "primary", Speeds: [][2]float32{{36, 36}},
		Signpost: Signpost{Destination: "Andorra la Vella;Escaldes", DestinationRef: "CG-2", JunctionRef: "3", Backward: "Encamp"}})
	net, graphs, _, err := Build(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.map")
	w, _ := artifact.NewWriter("graph", "test")
	if err := Write(w, net, graphs); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got := loadNet(t, path, dir, "same", func(b []byte) []byte { return b })
	var signed []uint32
	for s := range uint32(got.NumSegments()) {
		if got.Class(s) == "primary" {
			signed = append(signed, s)
		}
	}
	if len(signed) != 2 || !got.SameWay(signed[0], signed[1]) {
		t.Fatalf("way 20's segments %v not one way", signed)
	}
	want := Signpost{Destination: "Andorra la Vella;Escaldes", DestinationRef: "CG-2", JunctionRef: "3", Backward: "Encamp"}
	for _, s := range signed {
		if sp := got.Signpost(s); sp != want {
			t.Errorf("segment %d signpost %+v, want %+v", s, sp, want)
		}
	}
	along, against := want.Towards(false), want.Towards(true)
	if along.Destination != "Andorra la Vella;Escaldes" || against.Destination != "Encamp" || against.DestinationRef != "CG-2" ||
		against.Backward != "" || along.Forward != "" {
		t.Errorf("towards: along %+v, against %+v", along, against)
	}
	for s := range uint32(got.NumSegments()) {
		if got.Class(s) != "primary" && (got.SameWay(s, signed[0]) || !got.Signpost(s).IsZero()) {
			t.Errorf("segment %d (%s) shares way 20 or its signs", s, got.Class(s))
		}
	}
	old := loadNet(t, path, dir, "old", func([]byte) []byte { return nil })
	if old == nil || old.HasWays() || old.SameWay(signed[0], signed[1]) || !old.Signpost(signed[0]).IsZero() {
		t.Errorf("a file without the sections: %+v", old)
	}
	if short := loadNet(t, path, dir, "short", func(b []byte) []byte { return b[:8] }); short != nil {
		t.Errorf("a file with short way and sign sections loaded")
	}
}

// loadNet copies the artifact at path with the net.seg_way and
// net.seg_sign sections passed through edit (dropped when it returns nil)
// and loads its network, nil when Load refuses it.
func loadNet(t *testing.T, path, dir, name string, edit func([]byte) []byte) *Network {
	t.Helper()
	w, _ := artifact.NewWriter("graph", "test")
	f, err := artifact.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range f.Sections() {
		b, _ := f.Section(sec)
		if sec == secSegWay || sec == secSegSign {
			if b = edit(slices.Clone(b)); b == nil {
				continue
			}
		}
		if err := w.Add(sec, slices.Clone(b)); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	out := filepath.Join(dir, name+".map")
	if err := w.WriteFile(out); err != nil {
		t.Fatal(err)
	}
	f, err = artifact.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	net, _, err := Load(f)
	if err != nil {
		if !strings.Contains(err.Error(), "disagree") {
			t.Errorf("%s: refused for another reason: %v", name, err)
		}
		return nil
	}
	return net
}

package compiletest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mapsco/maps/pkg/geo"
	"github.com/mapsco/maps/pkg/internal/shareddata"
	"github.com/mapsco/maps/pkg/osm"
	"github.com/mapsco/maps/pkg/synth"
)

// Edit is what EditedAndorraRelease changes in the Andorra extract: ways
// removed (as a mapper deleting a road would), and one-way ways flipped
// (oneway=yes becomes oneway=-1, as a mapper reversing a one-way would: the
// geometry stays, the allowed direction turns round). Everything else is
// copied: every node with its tags, every other way, every relation (a
// relation naming a removed way keeps the dangling member, as in OSM).
type Edit struct {
	Remove []int64
	Flip   []int64
	// Renumber gives ways a new id, as a mapper who deleted a way and drew
	// it again would (relations keep naming the old id).
	Renumber map[int64]int64
}

// andorraBBox is andorra.osm.pbf's header box (left, bottom, right, top in
// 1e-7 degrees, from ../shared/data/README.md); mapc does not read it.
var andorraBBox = [4]int32{14123680, 424276000, 17874810, 426571700}

// EditedAndorraRelease writes ../shared/data/andorra.osm.pbf with e applied
// into out/version.osm.pbf with the project's PBF writer (synth.PBFWriter),
// compiles it with AndorraDEM into out/version with `mapc build`, as
// AndorraRelease compiles the original, and returns the release directory.
// The test fails if a way of e is missing or a flipped way is not
// oneway=yes: the edit would not be the one the test means.
func EditedAndorraRelease(t testing.TB, out, version string, e Edit) string {
	t.Helper()
	RequireAndorra(t)
	pbf := filepath.Join(out, version+".osm.pbf")
	if err := WriteEditedAndorra(pbf, e); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "--osm", pbf, "--profiles", filepath.Join(Root(), "profiles"),
		"--data-version", version, "--out", out}
	for _, dem := range AndorraDEM() {
		args = append(args, "--dem", dem)
	}
	if b, err := exec.Command(mapcIn(t, out), args...).CombinedOutput(); err != nil {
		t.Fatalf("mapc build edited Andorra as %s: %v\n%s", version, err, b)
	}
	return filepath.Join(out, version)
}

// WriteEditedAndorra writes the edited copy of andorra.osm.pbf to path.
func WriteEditedAndorra(path string, e Edit) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := synth.NewPBFWriter(f, andorraBBox, "compiletest")
	if err != nil {
		return err
	}
	ed := editor{w: w, remove: set(e.Remove), flip: set(e.Flip), renumber: e.Renumber, seen: map[int64]bool{}}
	err = osm.Scan(context.Background(), filepath.Join(shareddata.Dir(), "andorra.osm.pbf"), osm.Handlers{Node: ed.node, Way: ed.way, Relation: ed.relation})
	if err != nil {
		return fmt.Errorf("edit andorra.osm.pbf: %w", err)
	}
	edited := append(slices.Clone(e.Remove), e.Flip...)
	for id := range e.Renumber {
		edited = append(edited, id)
	}
	for _, id := range edited {
		if !ed.seen[id] {
			return fmt.Errorf("edit andorra.osm.pbf: way %d is not in the extract", id)
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}

type editor struct {
	w            *synth.PBFWriter
	remove, flip map[int64]bool
	renumber     map[int64]int64
	seen         map[int64]bool
}

func set(ids []int64) map[int64]bool {
	m := map[int64]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}

func (ed *editor) node(n *osm.Node) error {
	return ed.w.Node(n.ID, geo.Fixed(n.Lon), geo.Fixed(n.Lat), sortedTags(n.Tags))
}

func (ed *editor) way(w *osm.Way) error {
	_, renumbered := ed.renumber[w.ID]
	if ed.remove[w.ID] || ed.flip[w.ID] || renumbered {
		ed.seen[w.ID] = true
	}
	if ed.remove[w.ID] {
		return nil
	}
	if ed.flip[w.ID] {
		if w.Tags["oneway"] != "yes" {
			return fmt.Errorf("way %d to flip has oneway=%q, want yes", w.ID, w.Tags["oneway"])
		}
		w.Tags["oneway"] = "-1"
	}
	if id, ok := ed.renumber[w.ID]; ok {
		return ed.w.Way(id, w.NodeIDs, sortedTags(w.Tags))
	}
	return ed.w.Way(w.ID, w.NodeIDs, sortedTags(w.Tags))
}

func (ed *editor) relation(r *osm.Relation) error {
	members := make([]synth.Member, len(r.Members))
	for i, m := range r.Members {
		members[i] = synth.Member{Type: memberType(m), ID: m.ID, Role: m.Role}
	}
	return ed.w.Relation(r.ID, members, sortedTags(r.Tags))
}

func memberType(m osm.Member) string {
	switch m.Type {
	case osm.NodeMember:
		return "n"
	case osm.WayMember:
		return "w"
	}
	return "r"
}

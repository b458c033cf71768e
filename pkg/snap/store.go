package snap

import (
	"fmt"
	"slices"

	"github.com/mapsco/maps/pkg/artifact"
)

const (
	secLevels = "snap.levels"
	secBoxes  = "snap.boxes"
	secItems  = "snap.items"
)

// maskSection names a profile's node masks.
func maskSection(profile string) string { return profile + ".snap" }

// Write adds the index to an artifact.
func (ix *Index) Write(w *artifact.Writer) error {
	errs := []error{
		artifact.AddSlice(w, secLevels, ix.levels),
		artifact.AddSlice(w, secBoxes, ix.boxes),
		artifact.AddSlice(w, secItems, ix.items),
	}
	profiles := make([]string, 0, len(ix.masks))
	for p := range ix.masks {
		profiles = append(profiles, p)
	}
	slices.Sort(profiles) // a fixed section order keeps builds byte-identical
	for _, p := range profiles {
		errs = append(errs, artifact.AddSlice(w, maskSection(p), ix.masks[p]))
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("snap: %w", err)
		}
	}
	return nil
}

// Load views the index stored in f with the masks of the given profiles,
// checking that its parts agree.
func Load(f *artifact.File, profiles []string) (*Index, error) {
	levels, err := artifact.SectionView[uint32](f, secLevels)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	boxes, err := artifact.SectionView[int32](f, secBoxes)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	items, err := artifact.SectionView[uint32](f, secItems)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	ix := &Index{levels: levels, boxes: boxes, items: items, masks: make(map[string][]uint8, len(profiles))}
	if err := ix.checkShape(); err != nil {
		return nil, err
	}
	nodes := int(levels[len(levels)-1])
	for _, p := range profiles {
		mask, err := artifact.SectionView[uint8](f, maskSection(p))
		if err != nil {
			return nil, fmt.Errorf("snap: %w", err)
		}
		if len(mask) != nodes {
			return nil, fmt.Errorf("snap: %w: %d masks of profile %s for %d nodes", artifact.ErrCorrupt, len(mask), p, nodes)
		}
		ix.masks[p] = mask
	}
	return ix, nil
}

// checkShape checks that the levels are those Build packs for the number
// of pieces, and that every node has a box: then no query reads outside
// the tables.
func (ix *Index) checkShape() error {
	bad := func(what string) error { return fmt.Errorf("snap: %w: %s", artifact.ErrCorrupt, what) }
	if len(ix.items)%2 != 0 {
		return bad("odd item table")
	}
	if len(ix.levels) == 0 || ix.levels[0] != 0 {
		return bad("no levels")
	}
	want := ceilDiv(len(ix.items)/2, Fanout)
	for l := 0; l+1 < len(ix.levels); l++ {
		if int(ix.levels[l+1]-ix.levels[l]) != want || ix.levels[l+1] < ix.levels[l] {
			return bad(fmt.Sprintf("level %d has %d nodes, want %d", l, ix.levels[l+1]-ix.levels[l], want))
		}
		if want == 1 && l+2 != len(ix.levels) {
			return bad("levels above the root")
		}
		want = ceilDiv(want, Fanout)
	}
	if len(ix.items) > 0 && ix.levels[len(ix.levels)-1]-ix.levels[len(ix.levels)-2] != 1 {
		return bad("no root")
	}
	if len(ix.boxes) != 4*int(ix.levels[len(ix.levels)-1]) {
		return bad(fmt.Sprintf("%d box values for %d nodes", len(ix.boxes), ix.levels[len(ix.levels)-1]))
	}
	return nil
}

package snap

import (
	"fmt"

	"github.com/mapsco/maps/pkg/artifact"
)

const (
	secMeta  = "snap.meta"
	secFirst = "snap.first"
	secItems = "snap.items"
)

// Write adds the index to an artifact.
func (ix *Index) Write(w *artifact.Writer) error {
	meta := []float64{ix.minLon, ix.minLat, ix.cell, float64(ix.cols), float64(ix.rows)}
	for _, err := range []error{
		artifact.AddSlice(w, secMeta, meta),
		artifact.AddSlice(w, secFirst, ix.first),
		artifact.AddSlice(w, secItems, ix.items),
	} {
		if err != nil {
			return fmt.Errorf("snap: %w", err)
		}
	}
	return nil
}

// Load views the index stored in f, checking that its parts agree.
func Load(f *artifact.File) (*Index, error) {
	meta, err := artifact.SectionView[float64](f, secMeta)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	first, err := artifact.SectionView[uint32](f, secFirst)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	items, err := artifact.SectionView[uint32](f, secItems)
	if err != nil {
		return nil, fmt.Errorf("snap: %w", err)
	}
	if len(meta) != 5 || !(meta[2] > 0) || meta[3] < 0 || meta[4] < 0 {
		return nil, fmt.Errorf("snap: %w: bad grid parameters", artifact.ErrCorrupt)
	}
	ix := &Index{minLon: meta[0], minLat: meta[1], cell: meta[2], cols: int(meta[3]), rows: int(meta[4]), first: first, items: items}
	if len(first) != ix.cols*ix.rows+1 || 2*int(first[len(first)-1]) != len(items) {
		return nil, fmt.Errorf("snap: %w: grid of %d×%d cells does not match its tables", artifact.ErrCorrupt, ix.cols, ix.rows)
	}
	return ix, nil
}

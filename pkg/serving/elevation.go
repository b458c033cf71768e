package serving

import (
	"fmt"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/release"
)

// openElevation maps the DEM when the manifest lists it. The DEM reads the
// mapping on cache misses, so it lives exactly as long as the release.
func (r *Release) openElevation() error {
	if !r.Manifest.HasFile(release.ElevationFile) {
		return nil
	}
	f, err := r.open(release.ElevationFile, "elevation")
	if err != nil {
		return err
	}
	d, err := elevation.Open(f, 0)
	if err != nil {
		return fmt.Errorf("release %s: %w", r.Dir, err)
	}
	r.DEM = d
	return nil
}

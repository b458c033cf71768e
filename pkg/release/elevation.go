package release

import (
	"fmt"

	"github.com/mapsco/maps/pkg/elevation"
)

// ElevationFile is the artifact holding the release's DEM (pkg/elevation's
// sections). mapc writes it only when built with --dem; a release without it
// has no elevation: /v1/elevation answers null and routes carry no profile.
const ElevationFile = "elevation.map"

// openElevation maps the DEM when the manifest lists it. The DEM reads the
// mapping on cache misses, so it lives exactly as long as the release.
func (r *Release) openElevation() error {
	if !r.Manifest.hasFile(ElevationFile) {
		return nil
	}
	f, err := r.open(ElevationFile, "elevation")
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

// hasFile reports whether the manifest lists a file of that name.
func (m *Manifest) hasFile(name string) bool {
	for _, f := range m.Files {
		if f.Name == name {
			return true
		}
	}
	return false
}

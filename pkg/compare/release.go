package compare

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/serving"
)

// side is one release as the comparison sees it. This file is the only one
// that imports pkg/serving (Open, Release's fields): mapc compare routes in
// process on purpose, and keeping that here keeps the rest of mapc linking
// only the on-disk side (pkg/release).
type side struct {
	dir      string
	manifest *release.Manifest
	rel      *serving.Release
}

// openSide maps the release in dir: a release directory, or a directory of
// releases whose current pointer names one.
func openSide(dir string) (*side, error) {
	resolved, err := release.Resolve(dir)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	rel, err := serving.Open(resolved)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return &side{dir: resolved, manifest: rel.Manifest, rel: rel}, nil
}

func (s *side) close() error { return s.rel.Close() }

// router returns the profile's router, or nil when the release lacks it.
func (s *side) router(profile string) *route.Router { return s.rel.Routers[profile] }

// profiles lists the release's profiles in manifest order.
func (s *side) profiles() []string {
	var out []string
	for _, p := range s.manifest.Profiles {
		if s.rel.Routers[p.Name] != nil {
			out = append(out, p.Name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.rel.Routers)) { // a router the manifest does not stamp
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

func (s *side) network() *graph.Network { return s.rel.Network }

// dem returns the release's DEM, or nil when it was built without one.
func (s *side) dem() *elevation.DEM { return s.rel.DEM }

package serving

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/places"
	"github.com/mapsco/maps/pkg/release"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// Release is an opened release: its files mapped, its graphs viewed in
// place, a router per profile. Open does no per-node work, so it takes the
// same few milliseconds for any size of country.
type Release struct {
	Dir      string
	Manifest *release.Manifest
	Network  *graph.Network
	Snap     *snap.Index // the R-tree over every segment's shape, in place
	Routers  map[string]*route.Router
	DEM      *elevation.DEM // nil when the release has no elevation.map
	// Terrain holds the height samples along every segment (nil when the
	// release was built without a DEM, or before they were stored).
	Terrain *elevation.Samples
	// Places is the release's place index (named places and streets), nil
	// when the release was built before mapc wrote one.
	Places *places.Index
	files  []*artifact.File

	closeOnce sync.Once
	unmapped  chan struct{} // closed by Close
}

// Open maps the release in dir after checking its manifest and the headers
// of its artifacts (not their checksums: see release.Verify).
func Open(dir string) (*Release, error) {
	m, err := release.ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := release.CheckFormat(dir, m); err != nil {
		return nil, err
	}
	r := &Release{Dir: dir, Manifest: m, Routers: map[string]*route.Router{}, unmapped: make(chan struct{})}
	f, err := r.open(release.GraphFile, "graph")
	if err != nil {
		r.Close()
		return nil, err
	}
	net, graphs, err := graph.Load(f)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	ix, err := snap.Load(f, slices.Sorted(maps.Keys(graphs)))
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	r.Network, r.Snap = net, ix
	if r.Terrain, err = elevation.OpenSamples(f, net.NumSegments()); err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	if r.Places, err = places.Load(f); err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	if err := r.makeRouters(f, graphs, ix); err != nil {
		r.Close()
		return nil, err
	}
	if err := r.openElevation(); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// open maps one artifact and checks it belongs to this release.
func (r *Release) open(name, kind string) (*artifact.File, error) {
	f, err := artifact.Open(filepath.Join(r.Dir, name))
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", r.Dir, err)
	}
	r.files = append(r.files, f)
	if f.Kind() != kind || f.DataVersion() != r.Manifest.DataVersion {
		return nil, fmt.Errorf("release %s: %w: %s is a %q artifact of data version %q, want %q of %q",
			r.Dir, artifact.ErrCorrupt, name, f.Kind(), f.DataVersion(), kind, r.Manifest.DataVersion)
	}
	return f, nil
}

// Close unmaps the release's files. Nothing obtained from it may be used
// afterwards. Closing twice is harmless.
func (r *Release) Close() error {
	var first error
	r.closeOnce.Do(func() {
		for _, rt := range r.Routers { // a customization reads the mapping
			rt.StopCustomizing()
		}
		for _, f := range r.files {
			if err := f.Close(); err != nil && first == nil {
				first = err
			}
		}
		r.files = nil
		close(r.unmapped)
	})
	return first
}

// Unmapped is closed once Close has unmapped the release: after a Swap, when
// the last request still using it is done.
func (r *Release) Unmapped() <-chan struct{} { return r.unmapped }

package release

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/snap"
)

// Release is an opened release: its files mapped, its graphs viewed in
// place, a router per profile. Open does no per-node work, so it takes the
// same few milliseconds for any size of country.
type Release struct {
	Dir      string
	Manifest *Manifest
	Network  *graph.Network
	Snap     *snap.Index // the grid over every segment's shape, in place
	Routers  map[string]*route.Router
	DEM      *elevation.DEM // nil when the release has no elevation.map
	// Terrain holds the height samples along every segment (nil when the
	// release was built without a DEM, or before they were stored).
	Terrain *elevation.Samples
	files   []*artifact.File

	closeOnce sync.Once
	unmapped  chan struct{} // closed by Close
}

// Open maps the release in dir after checking its manifest and the headers
// of its artifacts (not their checksums: see Verify).
func Open(dir string) (*Release, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	if err := checkFormat(dir, m); err != nil {
		return nil, err
	}
	r := &Release{Dir: dir, Manifest: m, Routers: map[string]*route.Router{}, unmapped: make(chan struct{})}
	f, err := r.open(GraphFile, "graph")
	if err != nil {
		r.Close()
		return nil, err
	}
	net, graphs, err := graph.Load(f)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	ix, err := snap.Load(f)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("release %s: %w", dir, err)
	}
	r.Network, r.Snap = net, ix
	if r.Terrain, err = elevation.OpenSamples(f, net.NumSegments()); err != nil {
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

// Verify checks a release completely: the manifest names this build's
// format version, every file it lists exists with its size and SHA-256, and
// every artifact's header and section checksums hold.
func Verify(dir string) error {
	m, err := ReadManifest(dir)
	if err != nil {
		return err
	}
	if err := checkFormat(dir, m); err != nil {
		return err
	}
	if len(m.Files) == 0 {
		return fmt.Errorf("release %s: %w: manifest lists no files", dir, artifact.ErrCorrupt)
	}
	for _, want := range m.Files {
		path := filepath.Join(dir, want.Name)
		got, err := fileInfo(path)
		if err != nil {
			return err
		}
		if got.Bytes != want.Bytes || got.SHA256 != want.SHA256 {
			return fmt.Errorf("release %s: %w: %s has %d bytes sha256 %s, manifest says %d bytes %s",
				dir, artifact.ErrCorrupt, want.Name, got.Bytes, got.SHA256, want.Bytes, want.SHA256)
		}
		if filepath.Ext(want.Name) != ".map" {
			continue
		}
		if err := verifyArtifact(path); err != nil {
			return fmt.Errorf("release %s: %w", dir, err)
		}
	}
	return nil
}

func verifyArtifact(path string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	f, err := artifact.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Verify()
}

// checkFormat refuses a release written in a format this build cannot read.
func checkFormat(dir string, m *Manifest) error {
	if m.FormatVersion != artifact.FormatVersion {
		return fmt.Errorf("release %s: %w: manifest says %d, this build reads %d", dir, artifact.ErrFormatVersion, m.FormatVersion, artifact.FormatVersion)
	}
	return nil
}

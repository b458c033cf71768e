package compile

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/dem"
	"github.com/mapsco/maps/pkg/elevation"
	"github.com/mapsco/maps/pkg/release"
)

// demStep is the elevation artifact of a release being built, open for the
// terrain step. Close it once the graph is built.
type demStep struct {
	file    *artifact.File
	dem     *elevation.DEM
	stats   *elevation.Stats
	sources []release.Source
}

// buildDEM compiles the --dem rasters into dir/elevation.map (see
// pkg/elevation) and maps it back, so that the terrain step reads heights
// exactly as mapd will. It returns nil when the build has no DEM.
func buildDEM(ctx context.Context, o Options, dir string) (*demStep, error) {
	if len(o.DEM) == 0 {
		return nil, nil
	}
	t := time.Now()
	sources, err := demSources(o.DEM)
	if err != nil {
		return nil, err
	}
	w, err := artifact.NewWriter("elevation", o.DataVersion)
	if err != nil {
		return nil, err
	}
	st, err := dem.Build(ctx, o.DEM, w, o.Log)
	if err != nil {
		return nil, fmt.Errorf("compile: elevation: %w", err)
	}
	path := filepath.Join(dir, release.ElevationFile)
	if err := w.WriteFile(path); err != nil {
		return nil, fmt.Errorf("compile: elevation: %w", err)
	}
	f, err := artifact.Open(path)
	if err != nil {
		return nil, fmt.Errorf("compile: elevation: %w", err)
	}
	d, err := elevation.Open(f, 0)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("compile: elevation: %w", err)
	}
	o.Log.Info("elevation artifact written", "tiles", st.Tiles, "bytes", st.CompressedBytes,
		"filled_posts", st.FilledPosts, "elapsed", since(t))
	return &demStep{file: f, dem: d, stats: st, sources: sources}, nil
}

// demSources names each raster by content for the manifest. GDAL virtual
// paths (/vsis3/..., /vsicurl/...) are named by path only: hashing them
// would download them a second time.
func demSources(paths []string) ([]release.Source, error) {
	out := make([]release.Source, 0, len(paths))
	for _, p := range paths {
		if strings.HasPrefix(p, "/vsi") {
			out = append(out, release.Source{Path: p})
			continue
		}
		sum, size, err := release.FileSHA256(p)
		if err != nil {
			return nil, fmt.Errorf("compile: DEM input: %w", err)
		}
		out = append(out, release.Source{Path: filepath.Base(p), SHA256: sum, Bytes: size})
	}
	return out, nil
}

// checkDEMPaths fails early, before the long OSM read, on a local raster
// that does not exist.
func checkDEMPaths(paths []string) error {
	for _, p := range paths {
		if strings.HasPrefix(p, "/vsi") {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return fmt.Errorf("compile: DEM input: %w", err)
		}
	}
	return nil
}

// addStats records the DEM step in the manifest's stats.
func (d *demStep) addStats(stats map[string]int64) {
	stats["dem_tiles"] = int64(d.stats.Tiles)
	stats["dem_filled_posts"] = d.stats.FilledPosts
	stats["dem_empty_posts"] = d.stats.EmptyPosts
	stats["dem_bytes"] = d.stats.CompressedBytes
	stats["dem_ms"] = d.stats.Elapsed.Milliseconds()
}

func (d *demStep) close() {
	if d != nil {
		d.file.Close()
	}
}

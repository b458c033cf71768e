package dem

import (
	"context"
	"log/slog"

	"github.com/mapsco/maps/pkg/artifact"
	"github.com/mapsco/maps/pkg/elevation"
)

// Build opens the rasters at paths, best first, and adds their elevation
// sections to w (elevation.Build). The same paths in the same order give
// byte-identical sections. log may be nil.
func Build(ctx context.Context, paths []string, w *artifact.Writer, log *slog.Logger) (*elevation.Stats, error) {
	rasters := make([]elevation.Raster, 0, len(paths))
	defer func() {
		for _, r := range rasters {
			r.(*Raster).Close()
		}
	}()
	for _, p := range paths {
		r, err := Open(p)
		if err != nil {
			return nil, err
		}
		rasters = append(rasters, r)
	}
	return elevation.Build(ctx, rasters, w, log)
}

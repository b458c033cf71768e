package snap

import "github.com/mapsco/maps/pkg/graph"

// NearestAnywhere is Nearest without the coverage check, for benchmarks
// of points farther from every road than the coverage allows in Andorra.
func (f *Finder) NearestAnywhere(lon, lat float64, o Options, st *graph.State) (Snapped, error) {
	return f.nearest(lon, lat, o, st)
}

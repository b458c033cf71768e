package snap

import (
	"math"

	"github.com/mapsco/maps/pkg/geo"
)

// Covers reports whether (lon, lat) lies in the release's coverage: the box
// of every road (the root's) grown by CoverageMargin on each side. The
// margin in longitude is taken at the box's edge nearer a pole, where a
// degree is shortest, so that it is at least CoverageMargin everywhere.
func (ix *Index) Covers(lon, lat float64) bool {
	if len(ix.boxes) < 4 || math.IsNaN(lon) || math.IsNaN(lat) {
		return false
	}
	minLon, minLat, maxLon, maxLat := ix.Extent()
	dLat := CoverageMargin / geo.MetresPerDegreeLat
	poleward := max(math.Abs(minLat), math.Abs(maxLat)) + dLat
	dLon := dLat / math.Max(geo.LonScale(math.Min(poleward, 89)), 1e-3)
	return lon >= minLon-dLon && lon <= maxLon+dLon && lat >= minLat-dLat && lat <= maxLat+dLat
}

// Extent returns the box of every road, in degrees; zero for an empty
// network.
func (ix *Index) Extent() (minLon, minLat, maxLon, maxLat float64) {
	if len(ix.boxes) < 4 {
		return 0, 0, 0, 0
	}
	root := ix.boxes[len(ix.boxes)-4:]
	return geo.Degrees(root[0]), geo.Degrees(root[1]), geo.Degrees(root[2]), geo.Degrees(root[3])
}

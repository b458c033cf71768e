package compile

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/release"
)

// DEMCoverage says how much of the road network the DEMs reach: per
// raster, the share of road nodes within its extent, and in all the share
// that has a height in the elevation artifact.
type DEMCoverage struct {
	Nodes     int64
	PerSource []float64 // in --dem order
	Covered   float64   // with a height
}

// coverage measures d against the network's nodes.
func (d *demStep) coverage(net *graph.Network) DEMCoverage {
	c := DEMCoverage{Nodes: int64(net.NumNodes()), PerSource: make([]float64, len(d.stats.Extents))}
	inside := make([]int64, len(d.stats.Extents))
	var covered int64
	for n := range net.NumNodes() {
		lon, lat := float64(net.NodeCoord[2*n])*1e-7, float64(net.NodeCoord[2*n+1])*1e-7
		for i, e := range d.stats.Extents {
			if e.Contains(lon, lat) {
				inside[i]++
			}
		}
		if _, ok := d.dem.At(lon, lat); ok {
			covered++
		}
	}
	if c.Nodes == 0 {
		return c
	}
	for i := range inside {
		c.PerSource[i] = float64(inside[i]) / float64(c.Nodes)
	}
	c.Covered = float64(covered) / float64(c.Nodes)
	return c
}

// checkCoverage records the coverage in the manifest's sources and stats,
// fails when a raster reaches no road (a wrong tile list would otherwise
// ship a release whose every elevation is null and whose routes are flat)
// and warns when, together, they leave more than 1 % of the roads without
// a height.
func (d *demStep) checkCoverage(net *graph.Network, stats map[string]int64, log *slog.Logger) error {
	c := d.coverage(net)
	stats["dem_road_nodes"] = c.Nodes
	stats["dem_road_nodes_covered"] = int64(c.Covered*float64(c.Nodes) + 0.5)
	for i, share := range c.PerSource {
		d.sources[i].RoadCoverage = &share
		log.Info("DEM coverage", "dem", filepath.Base(d.stats.Extents[i].Path), "road_nodes_pct", fmt.Sprintf("%.1f", 100*share))
		if share == 0 && c.Nodes > 0 {
			e := d.stats.Extents[i]
			return fmt.Errorf("compile: DEM %s covers none of the %d road nodes (it spans lon %.3f..%.3f, lat %.3f..%.3f): is it the right tile for this extract?",
				filepath.Base(e.Path), c.Nodes, e.West, e.East, e.South, e.North)
		}
	}
	if c.Covered < release.MinDEMCoverage {
		log.Warn("the DEMs leave road nodes without a height: their elevations answer null and their grades are flat",
			"covered_pct", fmt.Sprintf("%.1f", 100*c.Covered), "threshold_pct", fmt.Sprintf("%.0f", 100*release.MinDEMCoverage), "road_nodes", c.Nodes)
	}
	return nil
}

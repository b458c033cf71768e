package main

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/mapsco/maps/pkg/osm"
)

// carClasses are highway values a car may drive on: sampling only their
// nodes keeps most requests routable (a few land on private or isolated
// roads and answer 422, which the breakdown shows).
var carClasses = []string{"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential",
	"motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link", "living_street"}

// samplePoints returns the positions of every node of a car road in the PBF,
// shuffled with seed: bodies take points from the front.
func samplePoints(ctx context.Context, path string, seed uint64) ([][2]float64, error) {
	wanted := map[int64]struct{}{}
	err := osm.Scan(ctx, path, osm.Handlers{Way: func(w *osm.Way) error {
		if slices.Contains(carClasses, w.Tags["highway"]) && w.Tags["access"] != "private" && w.Tags["access"] != "no" {
			for _, id := range w.NodeIDs {
				wanted[id] = struct{}{}
			}
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("sample points: %w", err)
	}
	type node struct {
		id  int64
		pos [2]float64
	}
	var nodes []node
	err = osm.Scan(ctx, path, osm.Handlers{Node: func(n *osm.Node) error {
		if _, ok := wanted[n.ID]; ok {
			nodes = append(nodes, node{n.ID, [2]float64{n.Lon, n.Lat}})
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("sample points: %w", err)
	}
	if len(nodes) < 2 {
		return nil, fmt.Errorf("sample points: %s has fewer than 2 car-road nodes", path)
	}
	// File order, then a seeded shuffle: the same file and seed give the same points.
	slices.SortFunc(nodes, func(a, b node) int { return cmp.Compare(a.id, b.id) })
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	r.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	pts := make([][2]float64, len(nodes))
	for i, n := range nodes {
		pts[i] = n.pos
	}
	return pts, nil
}

package ch

import "github.com/mapsco/maps/pkg/graph"

// CrossCore computes h's core table under st, for the benchmarks.
func CrossCore(h *Hierarchy, st *graph.State) { h.crossCore(st) }

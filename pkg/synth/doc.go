// Package synth generates synthetic countries for scale work: it tiles real
// OSM extracts side by side on a grid of 1° cells, gives every copy fresh
// ids, joins neighbouring copies with two-way trunk roads, and writes the
// result as an OSM PBF that mapc compiles like any extract.
//
// # Why
//
// The extracts we have are small (Andorra has about 108k routable nodes);
// compile time, memory and query costs of the contraction hierarchy only
// show at national scale (millions of nodes). A tiled country is real road
// geometry, real tags and real turn restrictions at any size, so the figures
// it gives are those of real data, not of a lattice.
//
// # What is kept
//
// Only what routing reads: ways tagged highway=* (all their tags), the
// nodes those ways reference (tags only for barrier, highway, railway and
// traffic_calming nodes), and type=restriction relations whose members are
// all kept. Buildings, land use, ferries (whose lines may leave the 1° cell)
// and every other object are dropped, so a copy is a fraction of its source.
//
// # Layout and ids
//
// Tile t sits at row t / cols, column t % cols of a grid of 1° cells,
// cols = ceil(sqrt(N)), and copies source t % len(sources). Each copy is
// shifted by whole degrees when its roads fit within one 1° cell (the case
// for every extract in ../shared/data), else by a fixed offset. Ids are
// dense and start at 1: tile 0's nodes, tile 1's nodes, …, then the trunk
// roads' intermediate nodes; ways and relations likewise. Trunk roads run
// from the easternmost (northernmost) node of a tile's largest two-way car
// network to the westernmost (southernmost) node of its east (north)
// neighbour's, with a node every ~500 m, tagged highway=trunk,
// name="Synthetic trunk K", ref="ST-K".
//
// # Costs
//
// Generation keeps the filtered sources in memory (a few tens of MiB for
// the ten default extracts: less than decoding one of them) and streams the
// output one PrimitiveBlock at a time, so memory does not grow with the
// number of tiles. Output is byte-for-byte deterministic for the same
// arguments: no maps are iterated, no clocks or random numbers are written.
//
// Nothing here is shared between goroutines; Generate may be called
// concurrently with different options.
package synth

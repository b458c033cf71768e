// Package isochrone computes the area reachable from a point within time or
// distance budgets, as nested polygons that follow the road network.
//
// # Pipeline (one file per step)
//
//  1. search.go: a Dijkstra over the profile's turn-expanded graph from the
//     origin's seeds, bounded by the largest budget. Its labels are the cost
//     of reaching each arc's end, so an arc's start is reached at its label
//     minus its own weight, and an arc whose start is within budget but end
//     is not is reached in part: the fraction (budget − start) / weight.
//     Time budgets weigh arcs by travel time with turn costs (milliseconds);
//     distance budgets by length (centimetres) with turns free but still
//     restricted, i.e. the shortest network distance the profile may drive,
//     not the length of the fastest path: "how far can I get within 10 km"
//     is a question about distance, and the shortest distance is the one
//     that answers it. Both are exact integers, like every search here.
//     phast.go holds the measured alternative, PHAST over the contraction
//     hierarchy (package ch), which gives the same labels. Compute does not
//     use it: PHAST sweeps every arc of the country whatever the budget, so
//     on the 3M-node synthetic country a 30-minute search is over ten
//     times slower than the bounded Dijkstra (on Andorra, where an hour
//     reaches nearly every arc, it is faster, but the search is a small
//     part of an isochrone there); and the hierarchy weighs by time only,
//     and PHAST uses its static weights, without the departure's time
//     conditions and with the destination penalties the Dijkstra drops
//     (graph.DestinationPenalty: a destination-only street is reachable).
//     docs/benchmarks-history.md has the figures.
//  2. sample.go: the reached part of every arc becomes a polyline in a local
//     plane around the origin, with the cost at each vertex. Tunnels and
//     ferries are left out: the land above a tunnel or around a ferry line is
//     not somewhere one can be.
//  3. raster.go: the polylines are drawn onto a grid whose cell is the
//     longest side of their extent divided by Options.GridCells (clamped to
//     Options.MinCellM..MaxCellM): fine for a short walk, coarse for an
//     hour's drive, and always about the same amount of work. Each cell
//     keeps the least cost of the road points in it.
//  4. closing.go: a min filter over a disc of BufferCells+ClosingCells then a
//     max filter over a disc of ClosingCells. Thresholding the result at a
//     budget gives the cells within BufferCells of road reached within that
//     budget, morphologically closed so that gaps narrower than
//     2×ClosingCells between reached roads are filled. Flat morphology
//     commutes with thresholds, so one pair of filters serves every budget
//     and the areas are nested by construction.
//  5. regions.go: per budget, the mask is thresholded, united with the
//     previous (smaller) budget's final mask grown by one cell, holes smaller
//     than MinHoleCells are filled and components smaller than
//     MinSpeckCells (other than the origin's) dropped. Growing the smaller
//     mask keeps the two outlines at least 0.7 cell apart, so simplification
//     cannot make them touch.
//  6. marching.go: marching squares traces each mask's outlines through the
//     midpoints between cell centres, inside on the left, so exteriors come
//     out counter-clockwise and holes clockwise. Diagonal (saddle) cells are
//     joined, matching 8-connected insides and 4-connected outsides.
//  7. simplify.go: Douglas–Peucker with a tolerance of SimplifyCells (0.6
//     cell), which removes the staircase marching squares leaves on slanted
//     outlines. check.go then verifies that no two rings cross or touch,
//     within the budget and against the previous one; if they do, the
//     rings are simplified again at 0.3 cell, which cannot fail (distinct
//     parts of outlines are at least 0.7 cell apart and simplification
//     moves an outline by at most its tolerance), and at worst left as
//     traced. On Andorra no contour has needed the fallback.
//  8. rings.go: rings are grouped into polygons by the component of the
//     cells they enclose, projected back to degrees and rounded to 6
//     decimals, and closed (first point repeated) as RFC 7946 asks.
//
// # Concurrency and lifetimes
//
// An Engine is safe for concurrent use: it keeps a pool of scratch space
// (search labels, grids, masks) so that a request allocates little beyond
// the polygons it returns. Returned Contours own their memory. The graph
// passed to Compute must stay valid for the call only.
//
// # Departure time
//
// Request.Departure (zero: now) selects the graph's time conditions in
// force for the whole search (graph.State): arcs closed then and turns
// forbidden then are not taken, and conditional speeds apply. They are
// evaluated once, at departure, not again along the way.
package isochrone

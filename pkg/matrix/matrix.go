// Package matrix answers duration and distance tables between sets of
// points with the contraction hierarchy's many-to-many search.
//
// It builds on package route for snapping and for the seeds of a snapped
// point, so a matrix cell always equals the directions answer between the
// same two points; pairs that share an arc (both points on one road between
// two junctions) are answered by route's point-to-point search, which
// handles the cases buckets cannot (see route.MakeEnds).
//
// Tables are computed per request and own their memory; a Router from
// package route is safe for concurrent use, and so is everything here.
package matrix

import (
	"math"
	"slices"

	"github.com/mapsco/maps/pkg/ch"
	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/route"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Table holds a result: Durations[i][j] in seconds and Distances[i][j] in
// metres, NaN where target j cannot be reached from source i (or either
// point is not near a usable road).
type Table struct {
	Durations [][]float64
	Distances [][]float64
}

// Compute fills a table from sources to targets on r's profile, under the
// conditions q's state says are in force (see ch.Query.SetState). Large
// tables are computed on up to GOMAXPROCS goroutines, the others with
// queries from r's pool given q's state; the table is the same either way.
func Compute(r *route.Router, q *ch.Query, sources, targets []route.Point) Table {
	qs := queries(r, q, len(sources)+len(targets))
	defer func() {
		for _, w := range qs[1:] {
			r.PutQuery(w)
		}
	}()
	ends := snapAll(qs, r, q.State(), append(sources[:len(sources):len(sources)], targets...))
	src, dst := ends[:len(sources)], ends[len(sources):]
	se, te := make([]ch.Endpoint, len(src)), make([]ch.Endpoint, len(dst))
	for i := range src {
		se[i] = src[i].Endpoint
	}
	for j := range dst {
		te[j] = withDuplicates(r.Graph(), dst[j].Endpoint)
	}
	cells := make([]ch.Cell, len(src)*len(dst))
	ch.ParallelTable(qs, se, te, cells)
	t := newTable(len(src), len(dst))
	for i := range src {
		for j := range dst {
			if !src[i].ok || !dst[j].ok {
				continue
			}
			c := cells[i*len(dst)+j]
			if sharesArc(se[i], te[j]) {
				c = pointToPoint(r, q, src[i].Result, dst[j].Result)
			}
			if c.Cost != search.Unreached {
				t.Durations[i][j] = float64(c.Cost) / 1000
				t.Distances[i][j] = float64(c.DistCM) / 100
			}
		}
	}
	return t
}

func newTable(rows, cols int) Table {
	t := Table{Durations: make([][]float64, rows), Distances: make([][]float64, rows)}
	cells := make([]float64, 2*rows*cols)
	for i := range cells {
		cells[i] = math.NaN()
	}
	for i := range rows {
		t.Durations[i] = cells[2*i*cols : (2*i+1)*cols : (2*i+1)*cols]
		t.Distances[i] = cells[(2*i+1)*cols : (2*i+2)*cols : (2*i+2)*cols]
	}
	return t
}

// endpoint gives a point's seeds with their distances: for a source, from
// the point to the arc's end; for a target, from the point to the arc's
// end too (the search subtracts it).
func endpoint(g *graph.Graph, st *graph.State, p snap.Result) ch.Endpoint {
	e := ch.Endpoint{Seeds: route.Sources(g, st, p)}
	length := float64(g.Net.SegLength[p.Seg]) * 100
	for _, s := range e.Seeds {
		_, reversed := g.ArcSegment(s.Node)
		left := (1 - p.Frac) * length
		if reversed {
			left = p.Frac * length
		}
		e.Dists = append(e.Dists, int64(math.Round(left)))
	}
	return e
}

// withDuplicates makes a point's endpoint a target's: its arcs'
// duplicates (see route.Targets) are reached as the arcs are.
func withDuplicates(g *graph.Graph, e ch.Endpoint) ch.Endpoint {
	if g.NumDuplicates() == 0 {
		return e
	}
	out := ch.Endpoint{Seeds: slices.Clone(e.Seeds), Dists: slices.Clone(e.Dists)}
	for i, s := range e.Seeds {
		begin, end := g.Duplicates(s.Node)
		for d := begin; d < end; d++ {
			out.Seeds = append(out.Seeds, search.Seed{Node: d, Cost: s.Cost})
			out.Dists = append(out.Dists, e.Dists[i])
		}
	}
	return out
}

func sharesArc(a, b ch.Endpoint) bool {
	for _, s := range a.Seeds {
		for _, t := range b.Seeds {
			if s.Node == t.Node {
				return true
			}
		}
	}
	return false
}

func pointToPoint(r *route.Router, q *ch.Query, a, b snap.Result) ch.Cell {
	leg, ok := r.Leg(q, a, b)
	if !ok {
		return ch.Cell{Cost: search.Unreached}
	}
	return ch.Cell{Cost: uint32(math.Round(leg.DurationS * 1000)), DistCM: int64(math.Round(leg.DistanceM * 100))}
}

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
	"context"
	"fmt"
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
// point is not near a usable road), and where each point was placed.
type Table struct {
	Durations [][]float64
	Distances [][]float64
	Sources   []Placement
	Targets   []Placement
	// OperationsApplied is true when a road operation in force changed a
	// cell: the fastest path without it crossed a road it changes.
	OperationsApplied bool
}

// Placement is where a point was placed on the network (see package snap),
// or why it could not be: Err wraps route.ErrUnsnappable.
type Placement struct {
	snap.Snapped
	Err error
}

// Compute fills a table from sources to targets on r's profile, placing
// the points by the default rule, under the conditions q's state says are
// in force (see ch.Query.SetState).
func Compute(r *route.Router, q *ch.Query, sources, targets []route.Point) Table {
	t, _ := ComputeWith(context.Background(), r, q, sources, targets, nil, nil) // never ends: no error
	return t
}

// ComputeWith is Compute with each source and target placed by its own
// options (nil, or shorter than the points, for the default). A cell
// whose two points are joined by no path is computed again from and to
// their fallbacks (snap.Snapped), as route.RouteThrough does, so that it
// equals the directions answer. Large tables are computed on up to
// GOMAXPROCS goroutines, the others with queries from r's pool given q's
// state; the table is the same either way.
//
// The cells that road operations change are found again by searches
// whose cost grows with the operations in force and the table's size
// (repairRows): when ctx ends during them, ComputeWith stops and returns
// ctx's error, so a request's deadline bounds a busy operations day.
func ComputeWith(ctx context.Context, r *route.Router, q *ch.Query, sources, targets []route.Point, srcOpts, dstOpts []snap.Options) (Table, error) {
	qs := queries(r, q, len(sources)+len(targets))
	defer func() {
		for _, w := range qs[1:] {
			r.PutQuery(w)
		}
	}()
	opts := append(padOptions(srcOpts, len(sources)), padOptions(dstOpts, len(targets))...)
	ends := placeAll(qs, r, q.State(), append(sources[:len(sources):len(sources)], targets...), opts)
	src, dst := ends[:len(sources)], ends[len(sources):]
	t := newTable(len(src), len(dst))
	if err := t.fill(ctx, r, q, qs, src, dst, fallbacks(r.Graph(), q.State(), src), fallbacks(r.Graph(), q.State(), dst)); err != nil {
		return Table{}, err
	}
	if !t.OperationsApplied {
		t.OperationsApplied = movedByOperations(r, q.State(), sources, targets, opts, ends)
	}
	t.Sources, t.Targets = placements(src), placements(dst)
	return t, nil
}

// movedByOperations reports whether road operations moved a source or a
// target off a road they close (route.Router.MovedByOperations): its
// cells then start or end elsewhere because of them.
func movedByOperations(r *route.Router, st *graph.State, sources, targets []route.Point, opts []snap.Options, ends []end) bool {
	if !st.Overlay().HasOperations() {
		return false
	}
	all := append(sources[:len(sources):len(sources)], targets...)
	var pts []route.Point
	var placed []snap.Snapped
	var with []snap.Options
	for i, e := range ends {
		if e.Err == nil {
			pts, placed, with = append(pts, all[i]), append(placed, e.Snapped), append(with, opts[i])
		}
	}
	return r.MovedByOperations(pts, with, placed, st)
}

// fill computes every cell between placed points in one table whose rows
// are the placed sources and then the fallbacks of those that have one
// (fbSrc[i], as package route falls back), its columns likewise: a cell
// that no path joins is then read again from the fallbacks' row and column.
// A point off the main component with a fallback leaves most of its cells
// unreached, so a second table of the cells left would search from nearly
// every source and target again; here a fallback costs one more search.
// A cell does not depend on the table's other rows and columns (see
// ch.ParallelTable). It returns ctx's error if ctx ends while cells are
// repaired.
func (t *Table) fill(ctx context.Context, r *route.Router, q *ch.Query, qs []*ch.Query, src, dst, fbSrc, fbDst []end) error {
	sl, sAt, sFb := lineUp(src, fbSrc)
	dl, dAt, dFb := lineUp(dst, fbDst)
	if len(sl) == 0 || len(dl) == 0 {
		return nil
	}
	se, te := make([]ch.Endpoint, len(sl)), make([]ch.Endpoint, len(dl))
	for a, e := range sl {
		se[a] = e.Endpoint
	}
	for b, e := range dl {
		te[b] = withDuplicates(r.Graph(), e.Endpoint)
	}
	cells := make([]ch.Cell, len(sl)*len(dl))
	ch.ParallelTable(qs, se, te, cells)
	if q.Customized() {
		t.OperationsApplied = operatedCells(qs, se, te, cells)
	} else {
		repaired, err := repairRows(ctx, r, q, sl, dl, se, te, cells)
		if err != nil {
			return err
		}
		// With a request's exclusions in force too, a cell found again may owe
		// it to them alone: the table then says true if any cell was.
		t.OperationsApplied = repaired && q.State().Overlay().HasOperations()
	}
	cell := func(a, b int) ch.Cell {
		if sharesArc(se[a], te[b]) {
			return pointToPoint(r, q, sl[a].Result, dl[b].Result)
		}
		return cells[a*len(dl)+b]
	}
	for i, a := range sAt {
		for j, b := range dAt {
			if a < 0 || b < 0 {
				continue
			}
			c := cell(a, b)
			if c.Cost == search.Unreached && (src[i].HasFallback || dst[j].HasFallback) {
				c = cell(sFb[i], dFb[j])
			}
			if c.Cost == search.Unreached && q.State() != nil {
				c = fallBackNow(r, q, src[i].Snapped, dst[j].Snapped)
			}
			if c.Cost != search.Unreached {
				t.Durations[i][j] = float64(graph.Unpenalised(c.Cost)) / 1000 // a destination penalty is no time
				t.Distances[i][j] = float64(c.DistCM) / 100
			}
		}
	}
	return nil
}

// lineUp lists the placed ends and then the fallbacks (fbs[i]) of those
// that have one: at[i] is end i's place in list (-1 if it was not placed),
// fb[i] its fallback's (at[i] if it has none).
func lineUp(ends, fbs []end) (list []end, at, fb []int) {
	at, fb = make([]int, len(ends)), make([]int, len(ends))
	n := 0 // the list's length: one allocation of 168-byte ends, not doublings
	for _, e := range ends {
		if e.Err == nil {
			n++
			if e.HasFallback {
				n++
			}
		}
	}
	list = make([]end, 0, n)
	for i, e := range ends {
		at[i], fb[i] = -1, -1
		if e.Err == nil {
			at[i], fb[i] = len(list), len(list)
			list = append(list, e)
		}
	}
	for i, e := range ends {
		if e.Err == nil && e.HasFallback {
			fb[i] = len(list)
			list = append(list, fbs[i])
		}
	}
	return list, at, fb
}

// fallbacks is each point moved to its fallback where it has one, and
// left where it is otherwise.
func fallbacks(g *graph.Graph, st *graph.State, ends []end) []end {
	out := slices.Clone(ends)
	for i, e := range ends {
		if e.Err == nil && e.HasFallback {
			out[i].Result = e.Fallback
			out[i].Endpoint = endpoint(g, st, e.Fallback)
		}
	}
	return out
}

func placements(ends []end) []Placement {
	out := make([]Placement, len(ends))
	for i, e := range ends {
		out[i] = Placement{Snapped: e.Snapped, Err: e.Err}
	}
	return out
}

func padOptions(o []snap.Options, n int) []snap.Options {
	out := make([]snap.Options, n)
	copy(out, o)
	return out
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

// fallBackNow is the cell between a and b when each that has no fallback
// and lies off the main component at the time of travel moves to its
// nearest road on it, as route.RouteThrough does last: a time-conditioned
// closure can cut off a road that is on the main component at other times.
// It is reached only for cells no path joins otherwise, which are rare.
func fallBackNow(r *route.Router, q *ch.Query, a, b snap.Snapped) ch.Cell {
	main := q.State().MainSegments()
	ra, rb := a.Result, b.Result
	moved := false
	for _, p := range []*snap.Result{&ra, &rb} {
		x := a
		if p == &rb {
			x = b
		}
		if x.HasFallback {
			*p = x.Fallback
			continue
		}
		if main[p.Seg] {
			continue
		}
		if res, ok := r.Finder().NearestOnMain(x.From[0], x.From[1], x.Options, q.State(), main); ok {
			*p, moved = res, true
		}
	}
	if !moved {
		return ch.Cell{Cost: search.Unreached}
	}
	return pointToPoint(r, q, ra, rb)
}

func pointToPoint(r *route.Router, q *ch.Query, a, b snap.Result) ch.Cell {
	leg, ok := r.Leg(q, a, b)
	if !ok {
		return ch.Cell{Cost: search.Unreached}
	}
	return legCell(leg)
}

// repairRows finds again, exactly, every cell whose fastest path without
// the road operations in force crosses a road they change (its distance
// holds ch.TaintMark): a row's single such cell as directions finds a leg,
// a row's several by one search from the row's source under the
// operations (route.Router.LegsFrom). It reports whether any cell was, or
// ctx's error when ctx ends first (checked before each row and after each
// row's search, which stops when ctx ends).
func repairRows(ctx context.Context, r *route.Router, q *ch.Query, sl, dl []end, se, te []ch.Endpoint, cells []ch.Cell) (bool, error) {
	repaired := false
	var cols []int
	var bs []snap.Result
	for a := range sl {
		cols, bs = cols[:0], bs[:0]
		for b := range dl {
			c := cells[a*len(dl)+b]
			if c.Cost != search.Unreached && c.DistCM >= ch.TaintMark && !sharesArc(se[a], te[b]) {
				cols, bs = append(cols, b), append(bs, dl[b].Result)
			}
		}
		if len(cols) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("repairing the cells road operations change, row %d of %d: %w", a, len(sl), err)
		}
		repaired = true
		switch {
		case len(cols) == 1:
			cells[a*len(dl)+cols[0]] = pointToPoint(r, q, sl[a].Result, bs[0])
		default:
			legs, ok := r.LegsFrom(ctx, q.State(), sl[a].Result, bs)
			if err := ctx.Err(); err != nil { // the search stopped early: its legs are not the fastest
				return false, fmt.Errorf("repairing the cells road operations change, row %d of %d: %w", a, len(sl), err)
			}
			for k, b := range cols {
				cells[a*len(dl)+b] = ch.Cell{Cost: search.Unreached}
				if ok[k] {
					cells[a*len(dl)+b] = legCell(legs[k])
				}
			}
		}
	}
	return repaired, nil
}

// operatedCells reports whether the road operations in force changed a
// cell of a table searched on a hierarchy customized under them (exact as
// found), and takes the marks out of the cells' distances. A cell whose
// path a slowdown lengthens holds ch.TaintMark; a table with none asks the
// compiled hierarchy whether a fastest path without the operations would
// cross a road they change (the operations turned it away, or closed every
// way), as repairRows would have found.
func operatedCells(qs []*ch.Query, se, te []ch.Endpoint, cells []ch.Cell) bool {
	marked := false
	for i := range cells {
		if cells[i].Cost != search.Unreached && cells[i].DistCM >= ch.TaintMark {
			cells[i].DistCM %= ch.TaintMark
			marked = true
		}
	}
	if marked || !qs[0].State().Overlay().HasOperations() {
		return marked
	}
	compiled := make([]ch.Cell, len(cells))
	for _, q := range qs {
		q.SetStateCompiled(q.State())
	}
	defer func() {
		for _, q := range qs {
			q.SetState(q.State())
		}
	}()
	ch.ParallelTable(qs, se, te, compiled)
	for _, c := range compiled {
		if c.Cost != search.Unreached && c.DistCM >= ch.TaintMark {
			return true
		}
	}
	return false
}

func legCell(leg route.Leg) ch.Cell {
	return ch.Cell{Cost: uint32(math.Round(leg.DurationS * 1000)), DistCM: int64(math.Round(leg.DistanceM * 100))}
}

package isochrone

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/mapsco/maps/pkg/graph"
	"github.com/mapsco/maps/pkg/search"
	"github.com/mapsco/maps/pkg/snap"
)

// Unit says what a budget measures.
type Unit uint8

const (
	Minutes    Unit = iota // travel time
	Kilometers             // shortest network distance
)

// String returns the unit's name in the API ("minutes", "kilometers").
func (u Unit) String() string {
	if u == Kilometers {
		return "kilometers"
	}
	return "minutes"
}

// Budget is one contour asked for.
type Budget struct {
	Value float64
	Unit  Unit
}

// cost converts the budget to search units: milliseconds or centimetres.
func (b Budget) cost() uint32 {
	if b.Unit == Kilometers {
		return uint32(math.Round(b.Value * 1e5))
	}
	return uint32(math.Round(b.Value * 60000))
}

// Point is [lon, lat] in degrees.
type Point = [2]float64

// Ring is a closed ring: its last point repeats its first.
type Ring []Point

// Polygon is an exterior ring (counter-clockwise) followed by its holes
// (clockwise).
type Polygon []Ring

// Contour is the area reachable within one budget: one or more polygons
// that neither overlap nor touch.
type Contour struct {
	Budget   Budget
	Polygons []Polygon
	// OperationsApplied is true when a road an operation in force changes
	// (a closure or a slowdown, see Request.State) starts within the
	// budget: without the operation the area could differ.
	OperationsApplied bool
}

// Request is what Compute is asked.
type Request struct {
	Budgets []Budget
	// Departure is the hook for time-conditioned restrictions (see the
	// package doc); zero means "now".
	Departure time.Time
	// State, when not nil, is the state to search under instead of the
	// graph's conditions at Departure: route.Router.StateAt's, which adds
	// the road operations in force (graph.Overlay).
	State *graph.State
}

// Options tune the polygon construction. The zero value of each field
// means its default, given in brackets; see the package doc for why.
type Options struct {
	GridCells     int     // cells along the longest side of the reached extent [400]
	MinCellM      float64 // smallest cell, metres [5]
	MaxCellM      float64 // largest cell, metres [500]
	BufferCells   int     // reached roads are widened by this radius [2]
	ClosingCells  int     // gaps up to twice this wide are closed [2]
	MinHoleCells  int     // smaller holes are filled [64]
	MinSpeckCells int     // smaller islands are dropped, except the origin's [20]
	SimplifyCells float64 // Douglas–Peucker tolerance [0.6]; negative: none
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.GridCells, 400)
	def(&o.BufferCells, 2)
	def(&o.ClosingCells, 2)
	def(&o.MinHoleCells, 64)
	def(&o.MinSpeckCells, 20)
	if o.MinCellM <= 0 {
		o.MinCellM = 5
	}
	if o.MaxCellM <= 0 {
		o.MaxCellM = 500
	}
	if o.SimplifyCells == 0 {
		o.SimplifyCells = 0.6
	}
	return o
}

// Errors a caller can test for with errors.Is.
var (
	ErrNoBudget  = errors.New("isochrone: no budget")
	ErrNotOnRoad = errors.New("isochrone: origin lies on no arc of the profile")
)

// Engine computes isochrones. The zero Engine uses default Options; it is
// safe for concurrent use and must not be copied after first use. It keeps
// the scratch memory of search.DefaultWorkers computations (search.Pool):
// more at once wait for one to finish, so the memory isochrones hold does
// not grow with the number of clients.
type Engine struct {
	Options Options
	once    sync.Once
	pool    *search.Pool[*scratch]
}

// Compute returns one Contour per budget, ordered by unit (minutes first)
// then by value, each inside the next larger one of the same unit.
func (e *Engine) Compute(ctx context.Context, g *graph.Graph, origin snap.Result, req Request) ([]Contour, error) {
	if len(req.Budgets) == 0 {
		return nil, ErrNoBudget
	}
	budgets := slices.Clone(req.Budgets)
	slices.SortStableFunc(budgets, func(a, b Budget) int {
		if a.Unit != b.Unit {
			return int(a.Unit) - int(b.Unit)
		}
		return cmp.Compare(a.Value, b.Value)
	})
	e.once.Do(func() { e.pool = search.NewPool(search.DefaultWorkers(), func() *scratch { return new(scratch) }) })
	sc, err := e.pool.Get(ctx)
	if err != nil {
		return nil, err
	}
	defer e.pool.Put(sc)
	opt := e.Options.withDefaults()
	out := make([]Contour, 0, len(budgets))
	for lo := 0; lo < len(budgets); {
		hi := lo + 1
		for hi < len(budgets) && budgets[hi].Unit == budgets[lo].Unit {
			hi++
		}
		cs, err := sc.contours(ctx, g, origin, budgets[lo:hi], stateOf(g, req), opt)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
		lo = hi
	}
	return out, nil
}

// contours runs the whole pipeline for budgets of one unit, ascending.
func (sc *scratch) contours(ctx context.Context, g *graph.Graph, origin snap.Result, budgets []Budget, st *graph.State, opt Options) ([]Contour, error) {
	m := metric(budgets[0].Unit)
	limit := budgets[len(budgets)-1].cost()
	if !sc.search(g, origin, m, limit, st) {
		return nil, fmt.Errorf("%w: segment %d", ErrNotOnRoad, origin.Seg)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc.sample(g, origin, limit)
	gr := sc.layout(opt)
	sc.rasterise(gr)
	sc.close(gr, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Contour, len(budgets))
	sc.resetMasks(gr)
	for i, b := range budgets {
		out[i].Budget = b
		out[i].OperationsApplied = sc.operated < b.cost()
		if i > 0 && b.cost() == budgets[i-1].cost() {
			out[i].Polygons = out[i-1].Polygons // same area; sharing is safe, nothing mutates them
			continue
		}
		sc.region(gr, b.cost(), i == 0, opt)
		out[i].Polygons = sc.polygons(gr, opt)
	}
	return out, nil
}

// stateOf is the state a request searches under: its own, or g's
// conditions at its departure (now when zero).
func stateOf(g *graph.Graph, req Request) *graph.State {
	if req.State != nil {
		return req.State
	}
	if req.Departure.IsZero() {
		return g.StateAt(time.Now())
	}
	return g.StateAt(req.Departure)
}

package route

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mapsco/maps/pkg/graph"
)

// Operation is a published road operation (a closure or a slowdown) as it
// applies to one profile's arcs: the milliseconds it adds to each arc it
// changes (graph.NoWay: closed), and when it is in force.
type Operation struct {
	ID      string
	Changes []ArcChange
	From    time.Time // zero: since ever
	Until   time.Time // zero: open-ended; in force while From <= t < Until
}

// ArcChange is what an operation does to one arc.
type ArcChange struct {
	Arc   uint32
	Extra uint32 // milliseconds added, graph.NoWay for a closure
}

// activeAt reports whether o is in force at t.
func (o *Operation) activeAt(t time.Time) bool {
	return (o.From.IsZero() || !t.Before(o.From)) && (o.Until.IsZero() || t.Before(o.Until))
}

// operations are a router's published operations and the overlays made of
// the sets of them in force at the times asked for, kept by that set.
type operations struct {
	ops   []Operation
	mu    sync.Mutex
	by    map[string]*graph.Overlay // by the ids in force, joined
	asked map[*graph.Overlay]int    // requests for each of by's overlays after the first
	last  atomic.Pointer[span]      // the overlay last asked for and when it holds
}

// span is an overlay and the times it holds for: no operation starts or
// ends in [from, until).
type span struct {
	ov          *graph.Overlay
	from, until time.Time // zero: unbounded
}

func (s *span) holds(t time.Time) bool {
	return (s.from.IsZero() || !t.Before(s.from)) && (s.until.IsZero() || t.Before(s.until))
}

// spanAt is the span of the set of operations in force at t.
func (o *operations) spanAt(t time.Time, ov *graph.Overlay) *span {
	s := &span{ov: ov}
	for i := range o.ops {
		for _, b := range [2]time.Time{o.ops[i].From, o.ops[i].Until} {
			switch {
			case b.IsZero():
			case !t.Before(b) && (s.from.IsZero() || b.After(s.from)):
				s.from = b
			case t.Before(b) && (s.until.IsZero() || b.Before(s.until)):
				s.until = b
			}
		}
	}
	return s
}

// SetOperations replaces the operations the router applies (nil: none).
// Every search that starts after it returns sees them; one already
// running finishes under those it started with. The overlay of the
// operations in force now is made at once, with its hierarchy taint, so
// that no request waits for them.
func (r *Router) SetOperations(ops []Operation) {
	r.ops.Store(&operations{ops: slices.Clone(ops), by: map[string]*graph.Overlay{}, asked: map[*graph.Overlay]int{}})
	r.overlayAt(time.Now(), 0, nil, Avoid{})
}

// Operations returns the operations the router applies.
func (r *Router) Operations() []Operation {
	if o := r.ops.Load(); o != nil {
		return o.ops
	}
	return nil
}

// overlayAt returns the overlay of the operations in force at t with the
// roads x excludes, those vehicle v is refused and those a avoids closed,
// nil when there is none of them.
func (r *Router) overlayAt(t time.Time, x Exclude, v *vehicleClosing, a Avoid) *graph.Overlay {
	o := r.ops.Load()
	if x == 0 && v == nil && a.None() && (o == nil || len(o.ops) == 0) {
		return nil
	}
	for o == nil { // exclusions without operations: an empty set of them keeps the overlays
		r.ops.CompareAndSwap(nil, &operations{by: map[string]*graph.Overlay{}, asked: map[*graph.Overlay]int{}})
		o = r.ops.Load()
	}
	if a.Areas != nil {
		return o.areaOverlay(r, t, x, v, a)
	}
	if x != 0 || v != nil || !a.None() {
		return o.overlayOf(r, t, x, v, a)
	}
	if s := o.last.Load(); s != nil && s.holds(t) {
		return s.ov // most requests depart now: no allocation
	}
	ov := o.overlayOf(r, t, 0, nil, Avoid{})
	o.last.Store(o.spanAt(t, ov))
	return ov
}

// overlayOf makes (or finds) the overlay of the operations in force at t
// with x's roads, v's arcs and a's roads closed (a without areas: those
// are areaOverlay's).
func (o *operations) overlayOf(r *Router, t time.Time, x Exclude, v *vehicleClosing, a Avoid) *graph.Overlay {
	var key strings.Builder
	for i := range o.ops {
		if o.ops[i].activeAt(t) {
			key.WriteString(strconv.Itoa(i))
			key.WriteByte(',')
		}
	}
	if key.Len() == 0 && x == 0 && v == nil && a.None() {
		return nil
	}
	key.WriteByte('x')
	key.WriteString(strconv.Itoa(int(x)))
	if v != nil {
		key.WriteString("v" + v.key)
	}
	key.WriteString(a.key())
	o.mu.Lock()
	defer o.mu.Unlock()
	if ov, ok := o.by[key.String()]; ok {
		if n := o.asked[ov] + 1; n < math.MaxInt32 {
			o.asked[ov] = n
			if n%customizeAfter == 0 && !r.h.Customized(ov) {
				r.customize(ov, false) // asked often: worth its own hierarchy
			}
		}
		return ov
	}
	ov := graph.NewOverlayClosing(r.g, o.extraAt(t), r.closedArcs(x, v, a))
	if ov != nil {
		r.h.Taint(ov)
	}
	if x == 0 && v == nil && a.None() {
		r.customize(ov, true) // the operations in force alone: every request's
	}
	if len(o.by) >= maxOverlays {
		clear(o.by) // windows opening and closing: rare, and cheap to redo
		clear(o.asked)
	}
	o.by[key.String()] = ov
	return ov
}

// areaOverlay makes the overlay of one request with avoid areas: the
// operations in force at t, x's roads, v's arcs and a's roads closed. It
// is the request's own, never kept, and short-lived: the hierarchy's taint
// is made only if a table asks for it, and not kept either
// (ch.Query.SetState).
func (o *operations) areaOverlay(r *Router, t time.Time, x Exclude, v *vehicleClosing, a Avoid) *graph.Overlay {
	ov := graph.NewOverlayClosing(r.g, o.extraAt(t), r.closedArcs(x, v, a)) // o.ops never changes: no lock
	ov.SetShortLived()
	return ov
}

// extraAt is what the operations in force at t add to each arc they
// change, the most where several change one.
func (o *operations) extraAt(t time.Time) map[uint32]uint32 {
	extra := map[uint32]uint32{}
	for i := range o.ops {
		if !o.ops[i].activeAt(t) {
			continue
		}
		for _, c := range o.ops[i].Changes {
			if x, ok := extra[c.Arc]; !ok || c.Extra > x {
				extra[c.Arc] = c.Extra
			}
		}
	}
	return extra
}

// maxOverlays bounds the overlays a router keeps (distinct sets of
// operations in force at the times asked for, each with the sets of
// exclusions asked for).
const maxOverlays = 64

// opsPointer is the router's published operations.
type opsPointer = atomic.Pointer[operations]

// OperationsApplied reports whether a road operation in force changed the
// route: a leg was found under operations because the fastest path without
// them crossed a road they change, the route itself travels such a road
// (its time includes a slowdown), or a waypoint was placed off a road they
// close (Directions).
func (rt *Route) OperationsApplied() bool {
	ov := rt.st.Overlay()
	if !ov.HasOperations() { // none, or only the request's exclusions
		return false
	}
	if rt.moved {
		return true
	}
	for i, l := range rt.Legs {
		if l.Operated || ov.TouchesOperations(l.Arcs) || l.Direct && segmentChanged(rt.g, ov, rt.Snapped[i].Seg) {
			return true
		}
	}
	return false
}

// segmentChanged reports whether a road operation changes either arc of s.
func segmentChanged(g *graph.Graph, ov *graph.Overlay, s uint32) bool {
	for _, rev := range [2]bool{false, true} {
		if a := g.ArcOf[graph.SegRef(s, rev)]; a != graph.NoArc && ov.HasOperation(a) {
			return true
		}
	}
	return false
}

// stateCache keeps the states made of a departure-time state and an
// overlay: a state is where the main component under its closures is
// computed (graph.State.MainSegments, a pass over the whole graph, for
// requests whose points need a fallback), so requests under the same
// conditions, operations and exclusions share one rather than each
// making its own.
type stateCache struct {
	mu sync.Mutex
	m  map[stateKey]*graph.State
}

type stateKey struct {
	base *graph.State // nil: the graph's own times
	ov   *graph.Overlay
}

// maxStates bounds the states kept (each may hold a main-component set of
// a byte per segment, 0.6 MB on the ~3M-node country): a departure-time
// state changes every minute, each with an overlay per set of exclusions
// asked for.
const maxStates = 16

// with returns base with ov applied, made once per pair.
func (c *stateCache) with(base *graph.State, ov *graph.Overlay) *graph.State {
	k := stateKey{base.Base(), ov}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[k]; ok {
		return st
	}
	if c.m == nil || len(c.m) >= maxStates {
		c.m = map[stateKey]*graph.State{} // the minute moved on: the old ones are done
	}
	st := k.base.With(ov)
	c.m[k] = st
	return st
}

package graph

import (
	"slices"
	"sync/atomic"
)

// Overlay is what published road operations (closures and slowdowns), and
// a request's own exclusions (roads it will not use), do to one profile's
// arcs after the release was compiled: each changed arc gets an extra
// travel time, or is closed. Which changes are operations is kept apart
// (HasOperation), since answers say whether operations informed them. Operations only ever make an arc
// dearer, never cheaper, so every time the graph (and a hierarchy built on
// it) holds stays a lower bound of the time under an overlay: that is what
// lets searches keep the hierarchy's speed and still answer exactly (see
// route and ch.Taint).
//
// An Overlay applies through a State (State.With), the one value that
// carries every query-time change of cost, departure-time conditions and
// operations alike. It is read-only once made and safe for concurrent use.
type Overlay struct {
	g     *Graph
	id    uint64   // distinct per overlay: states under different overlays are not Same
	arcs  []uint32 // the changed arcs, ascending (originals and their duplicates)
	extra []uint32 // per arcs[i]: milliseconds added, NoWay when closed
	mark  []uint64 // bit a%64 of word a/64 set for a changed arc a
	ops   []uint64 // the same for the arcs road operations change; nil when none does
	short bool     // made for one request (SetShortLived)
}

var overlayIDs atomic.Uint64

// NewOverlay makes the overlay that adds extra[a] milliseconds to each arc
// a (NoWay closes it) of g, all of them road operations. An arc's
// duplicates (via-way copies, see Graph.Dup) are changed with it: they are
// the same road. An overlay with no change is nil.
func NewOverlay(g *Graph, extra map[uint32]uint32) *Overlay {
	return NewOverlayClosing(g, extra, nil)
}

// NewOverlayClosing is NewOverlay with the arcs of closed closed as well,
// which are not road operations (a request's exclusions).
func NewOverlayClosing(g *Graph, extra map[uint32]uint32, closed []uint32) *Overlay {
	if len(extra) == 0 && len(closed) == 0 {
		return nil
	}
	all := make(map[uint32]uint32, len(extra)+len(closed))
	words := (len(g.Turns.First) + 63) / 64
	o := &Overlay{g: g, id: overlayIDs.Add(1), mark: make([]uint64, words)}
	if len(extra) > 0 {
		o.ops = make([]uint64, words)
	}
	set := func(a, x uint32, ops bool) {
		all[a] = max(all[a], x)
		if ops {
			o.ops[a>>6] |= 1 << (a & 63)
		}
	}
	for a, x := range extra {
		set(a, x, true)
		begin, end := g.Duplicates(a)
		for d := begin; d < end; d++ {
			set(d, x, true)
		}
	}
	for _, a := range closed {
		set(a, NoWay, false)
		begin, end := g.Duplicates(a)
		for d := begin; d < end; d++ {
			set(d, NoWay, false)
		}
	}
	for a := range all {
		o.arcs = append(o.arcs, a)
	}
	slices.Sort(o.arcs)
	o.extra = make([]uint32, len(o.arcs))
	for i, a := range o.arcs {
		o.extra[i] = all[a]
		o.mark[a>>6] |= 1 << (a & 63)
	}
	return o
}

// SetShortLived marks o as made for one request (its avoid areas): what is
// derived from it, such as a hierarchy's taint, is not kept for others.
// Call it before o is shared; nil is left alone.
func (o *Overlay) SetShortLived() {
	if o != nil {
		o.short = true
	}
}

// ShortLived reports whether o was made for one request.
func (o *Overlay) ShortLived() bool { return o != nil && o.short }

// Has reports whether the overlay changes arc a. It inlines: searches ask
// it for every edge.
func (o *Overlay) Has(a uint32) bool {
	return o != nil && int(a>>6) < len(o.mark) && o.mark[a>>6]>>(a&63)&1 != 0
}

// HasOperation reports whether a road operation changes arc a.
func (o *Overlay) HasOperation(a uint32) bool {
	return o != nil && int(a>>6) < len(o.ops) && o.ops[a>>6]>>(a&63)&1 != 0
}

// HasOperations reports whether road operations change any arc.
func (o *Overlay) HasOperations() bool { return o != nil && o.ops != nil }

// TouchesOperations reports whether a road operation changes any of arcs.
func (o *Overlay) TouchesOperations(arcs []uint32) bool {
	if !o.HasOperations() {
		return false
	}
	for _, a := range arcs {
		if o.HasOperation(a) {
			return true
		}
	}
	return false
}

// Extra returns the milliseconds the overlay adds to arc a, NoWay when it
// closes a, 0 when it leaves a alone.
func (o *Overlay) Extra(a uint32) uint32 {
	if !o.Has(a) {
		return 0
	}
	i, _ := slices.BinarySearch(o.arcs, a)
	return o.extra[i]
}

// Arcs returns the changed arcs, ascending; the caller must not change them.
func (o *Overlay) Arcs() []uint32 {
	if o == nil {
		return nil
	}
	return o.arcs
}

// Touches reports whether any of arcs is changed by the overlay.
func (o *Overlay) Touches(arcs []uint32) bool {
	if o == nil {
		return false
	}
	for _, a := range arcs {
		if o.Has(a) {
			return true
		}
	}
	return false
}

// Marks returns the bit set Has reads (bit a%64 of word a/64 is arc a's);
// the caller must not change it.
func (o *Overlay) Marks() []uint64 {
	if o == nil {
		return nil
	}
	return o.mark
}

// With returns s with the overlay o applied on top of its conditions (s
// nil: the graph's own times with o). A nil o gives s's conditions alone.
func (s *State) With(o *Overlay) *State {
	if o == nil {
		return s.Base()
	}
	if s == nil {
		return &State{g: o.g, ov: o}
	}
	return s.copyWith(o)
}

// copyWith is s with overlay o, sharing s's arrays (its caches start
// empty: MainSegments differs under closures).
func (s *State) copyWith(o *Overlay) *State {
	return &State{g: s.g, times: s.times, extra: s.extra, banned: s.banned, penalised: s.penalised, ov: o}
}

// Base returns s without its overlay: the departure-time conditions alone,
// nil when the graph has none. Searches over a hierarchy, whose shortcuts
// hold the graph's own times, run under the base state and leave the
// overlay to the exact repair (see route).
func (s *State) Base() *State {
	if s == nil || s.ov == nil {
		return s
	}
	if s.g.condMark == nil {
		return nil // the graph has no conditions: no state but the overlay
	}
	return s.copyWith(nil)
}

// Overlay returns the overlay applied to s, nil for none.
func (s *State) Overlay() *Overlay {
	if s == nil {
		return nil
	}
	return s.ov
}

// same reports whether o and p are the same overlay (both nil, or one).
func (o *Overlay) same(p *Overlay) bool {
	if o == nil || p == nil {
		return o == p
	}
	return o.id == p.id
}

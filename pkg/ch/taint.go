package ch

import (
	"sync"
	"sync/atomic"

	"github.com/mapsco/maps/pkg/graph"
)

// Taint marks the hierarchy's edges whose path, unpacked, enters an arc a
// road-operations overlay changes (graph.Overlay). The hierarchy's weights
// are the graph's own, which an overlay only raises, so a search over it
// still gives a lower bound of every cost under the overlay, and the exact
// cost wherever the path it finds crosses no changed arc: that path costs
// the same under the overlay, and no other path costs less than before.
// Tables cannot see their paths, so their searches carry the number of
// tainted edges along each path in the distance (TaintMark centimetres
// each, far beyond any real length), and a cell whose distance holds a mark
// is repaired by the caller (see package matrix).
//
// Marking works upward from the changed arcs: an original edge is tainted
// when it enters a changed arc (its weight holds that arc's time), and a
// shortcut over middle m when either of its halves, both stored at m, is.
// A Taint is read-only once made and safe for concurrent use.
type Taint struct {
	ov     *graph.Overlay
	up, dn []uint64 // bit sets over the indexes of Up and Dn entries
	count  int      // edges marked
}

// TaintMark is what a tainted edge adds to a table search's distance, in
// centimetres: 2^40 cm is 11 million km, so a cell's real distance and its
// count of tainted edges never mix.
const TaintMark int64 = 1 << 40

// Count returns how many hierarchy edges the overlay taints.
func (t *Taint) Count() int { return t.count }

// at reports whether entry i of Up (up) or Dn is tainted.
func (t *Taint) at(up bool, i uint32) bool {
	set := t.dn
	if up {
		set = t.up
	}
	return set[i>>6]>>(i&63)&1 != 0
}

// NewTaint marks h's edges under overlay ov (see Taint).
func NewTaint(h *Hierarchy, ov *graph.Overlay) *Taint {
	t := &Taint{ov: ov, up: make([]uint64, (len(h.Up)/4+63)/64), dn: make([]uint64, (len(h.Dn)/4+63)/64)}
	var work []uint32 // nodes holding a newly tainted edge: the middles of the shortcuts to check
	queued := map[uint32]bool{}
	push := func(m uint32) {
		if !queued[m] {
			queued[m] = true
			work = append(work, m)
		}
	}
	// Original edges into a changed arc: Up entries of any node whose head
	// is changed, and Dn entries stored at the changed arc itself.
	for u := range uint32(h.NumNodes()) {
		for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
			if e := at(h.Up, i); e.middle == NoMiddle && ov.Has(e.other) && t.mark(true, i) {
				push(u)
			}
		}
	}
	for _, a := range ov.Arcs() {
		if int(a) >= h.NumNodes() {
			continue
		}
		for i := h.DnFirst[a]; i < h.DnFirst[a+1]; i++ {
			if at(h.Dn, i).middle == NoMiddle && t.mark(false, i) {
				push(a)
			}
		}
	}
	ix := h.shortcutsByMiddle()
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		queued[m] = false
		for _, s := range ix.over(m) {
			if t.at(s.up(), s.i()) {
				continue
			}
			if from, to, middle, weight := s.ends(h); !t.halfTainted(h, from, to, middle, weight) {
				continue
			}
			t.mark(s.up(), s.i())
			push(s.owner)
		}
	}
	return t
}

// mark taints entry i of Up (up) or Dn; it reports whether it was not yet.
func (t *Taint) mark(up bool, i uint32) bool {
	set := t.dn
	if up {
		set = t.up
	}
	if set[i>>6]>>(i&63)&1 != 0 {
		return false
	}
	set[i>>6] |= 1 << (i & 63)
	t.count++
	return true
}

// halfTainted reports whether a half of the shortcut from→to with the
// given middle and weight, both stored at the node it bypasses, is tainted:
// the shortcut is then. A variable shortcut is, when a half of any of its
// candidates is: the overlay may change its path in some state.
func (t *Taint) halfTainted(h *Hierarchy, from, to, middle, weight uint32) bool {
	if isVary(middle) {
		k := middle &^ varyBit
		for c := h.VaryFirst[k]; c < h.VaryFirst[k+1]; c++ {
			if t.at(false, h.Vary[3*c+1]) || t.at(true, h.Vary[3*c+2]) {
				return true
			}
		}
		return false
	}
	_, i, j := h.halfIndexes(from, to, middle, weight, nil)
	return t.at(false, i) || t.at(true, j)
}

// taintOf returns h's taint under ov, computing it on first use; the last
// few are kept, since every table and query under one overlay asks for it.
func (h *Hierarchy) taintOf(ov *graph.Overlay) *Taint {
	if h.taints == nil {
		panic("ch: Hierarchy not made by Load or NewHierarchy has no taint cache")
	}
	return h.taints.get(h, ov)
}

// Taint returns h's taint under ov (see Taint), computed once per overlay:
// call it when an overlay is made, so that no request waits for it.
func (h *Hierarchy) Taint(ov *graph.Overlay) *Taint { return h.taintOf(ov) }

// taints keeps the taints of the latest overlays a hierarchy was asked for.
type taints struct {
	last atomic.Pointer[Taint] // the one asked for last: every request under one overlay, without a lock
	mu   sync.Mutex
	kept []*Taint // newest last

	middlesMu sync.Mutex
	middles   *middleIndex // shortcuts by middle, made with the first taint (bymiddle.go)
}

const keptTaints = 4

func (k *taints) get(h *Hierarchy, ov *graph.Overlay) *Taint {
	if t := k.last.Load(); t != nil && t.ov == ov {
		return t
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, t := range k.kept {
		if t.ov == ov {
			k.last.Store(t)
			return t
		}
	}
	t := NewTaint(h, ov)
	if len(k.kept) >= keptTaints {
		k.kept = append(k.kept[:0], k.kept[1:]...)
	}
	k.kept = append(k.kept, t)
	k.last.Store(t)
	return t
}

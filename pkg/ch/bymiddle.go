package ch

// middleIndex lists a hierarchy's shortcuts by the node they bypass, for
// road operations' taint (taint.go): a shortcut over m is tainted when one
// of its halves, both stored at m, is. Made on the first taint a
// hierarchy is asked for and kept (about 12 bytes a shortcut), so that a
// release serving no operations never makes it.
type middleIndex struct {
	first     []uint32 // per node + 1: where its shortcuts begin in list
	shortcuts []shortcut
}

// shortcut is an entry of Up (up) or Dn at index i, stored at owner: 8
// bytes, its ends, middle and weight read from the entry itself (the index
// is kept while a release serves operations: on the 3M-node country 1M
// shortcuts, 8 MB rather than the 28 of keeping them).
type shortcut struct {
	ref   uint32 // i<<1 | 1 for Up
	owner uint32
}

func newShortcut(up bool, i, owner uint32) shortcut {
	ref := i << 1
	if up {
		ref |= 1
	}
	return shortcut{ref: ref, owner: owner}
}

func (s shortcut) up() bool  { return s.ref&1 != 0 }
func (s shortcut) i() uint32 { return s.ref >> 1 }

// ends returns the shortcut's tail and head, middle and weight.
func (s shortcut) ends(h *Hierarchy) (from, to, middle, weight uint32) {
	if s.up() {
		e := at(h.Up, s.i())
		return s.owner, e.other, e.middle, e.weight
	}
	e := at(h.Dn, s.i())
	return e.other, s.owner, e.middle, e.weight
}

func (ix *middleIndex) over(m uint32) []shortcut {
	return ix.shortcuts[ix.first[m]:ix.first[m+1]]
}

// shortcutsByMiddle returns h's middle index, making it on first use.
func (h *Hierarchy) shortcutsByMiddle() *middleIndex {
	k := h.taints
	k.middlesMu.Lock()
	defer k.middlesMu.Unlock()
	if k.middles == nil {
		k.middles = buildMiddleIndex(h)
	}
	return k.middles
}

// dropMiddles lets go of h's middle index (made again if a taint asks):
// a customized hierarchy needs one taint, its own overlay's, and the
// index would be most of the memory it holds beside its edges.
func (h *Hierarchy) dropMiddles() {
	h.taints.middlesMu.Lock()
	defer h.taints.middlesMu.Unlock()
	h.taints.middles = nil
}

func buildMiddleIndex(h *Hierarchy) *middleIndex {
	n := h.NumNodes()
	ix := &middleIndex{first: make([]uint32, n+2)}
	each := func(fn func(s shortcut, middle uint32)) {
		for u := range uint32(n) {
			for i := h.UpFirst[u]; i < h.UpFirst[u+1]; i++ {
				if e := at(h.Up, i); e.middle != NoMiddle {
					h.eachMiddle(e.middle, func(m uint32) {
						fn(newShortcut(true, i, u), m)
					})
				}
			}
			for i := h.DnFirst[u]; i < h.DnFirst[u+1]; i++ {
				if e := at(h.Dn, i); e.middle != NoMiddle {
					h.eachMiddle(e.middle, func(m uint32) {
						fn(newShortcut(false, i, u), m)
					})
				}
			}
		}
	}
	each(func(_ shortcut, m uint32) { ix.first[m+2]++ })
	for v := 2; v < len(ix.first); v++ {
		ix.first[v] += ix.first[v-1]
	}
	ix.shortcuts = make([]shortcut, ix.first[n+1])
	each(func(s shortcut, m uint32) {
		ix.shortcuts[ix.first[m+1]] = s
		ix.first[m+1]++
	})
	return ix
}

// eachMiddle calls fn with each node a shortcut with the given middle may
// bypass: its middle, or each of a variable shortcut's candidates'.
func (h *Hierarchy) eachMiddle(middle uint32, fn func(m uint32)) {
	if !isVary(middle) {
		fn(middle)
		return
	}
	k := middle &^ varyBit
	for c := h.VaryFirst[k]; c < h.VaryFirst[k+1]; c++ {
		fn(h.Vary[3*c])
	}
}
